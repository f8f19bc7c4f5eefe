import { fileURLToPath } from 'node:url';
import { playwright } from '@vitest/browser-playwright';
import { defineConfig } from 'vitest/config';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.ts';

/**
 * Debian's Chromium, never a downloaded browser: React code runs in a real one, not a DOM
 * imitation. One object per project, since vitest names its instance after the project.
 */
const chromium = () => ({
  enabled: true,
  headless: true,
  screenshotFailures: false,
  provider: playwright({ launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS } }),
  instances: [{ browser: 'chromium' as const }],
});

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'node',
          include: [
            'src/**/*.test.ts',
            'service/**/*.test.ts',
            'tools/**/*.test.ts',
            'console/**/*.test.ts',
            '*.test.ts',
          ],
          environment: 'node',
          // No Electron runtime here: its module is a stand-in, also inside electron-store.
          alias: { electron: fileURLToPath(new URL('src/main/testing/electron-module.ts', import.meta.url)) },
          server: { deps: { inline: ['electron-store'] } },
          // Service test files start the real service, some in processes of their own (seconds on a busy machine).
          hookTimeout: 60_000,
          testTimeout: 30_000,
        },
      },
      {
        // Renderer components in a real Chromium (Debian's), not a DOM imitation.
        // Loaded only on a screenshot: optimised up front, so a fresh run does not reload the page midway.
        optimizeDeps: { include: ['modern-screenshot'] },
        // The custom widget's host pages, at the root as the player's and console's builds have them.
        publicDir: 'renderer/public',
        test: {
          name: 'renderer',
          include: ['renderer/**/*.test.{ts,tsx}'],
          browser: chromium(),
        },
      },
      {
        // The console's hooks, run by React in the same Chromium; its pure logic runs under `node`.
        // What the hooks' modules import, optimised up front, so a fresh run does not reload the page midway.
        optimizeDeps: {
          include: [
            '@codemirror/language',
            '@codemirror/state',
            '@codemirror/view',
            '@lezer/highlight',
            '@mantine/core',
            '@mantine/form',
            '@mantine/modals',
            '@tanstack/react-query',
            'codemirror',
            'react-router',
            'zod',
          ],
        },
        test: {
          name: 'console',
          include: ['console/**/*.test.tsx'],
          browser: chromium(),
        },
      },
    ],
  },
});
