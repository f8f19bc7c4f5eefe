// Layering, after VS Code's: shared knows no platform, the renderer knows no Node or Electron,
// the agent and the service know no Electron. A broken rule fails `npm run lint`.
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const nodeMessage = 'Node modules are not allowed in this layer.';
// Bare builtin names go by exact path: as gitignore-style patterns "events" would match "./events".
const nodePaths = builtinModules.map((name) => ({ name, message: nodeMessage }));
const node = { group: ['node:*'], message: nodeMessage };
const electron = { group: ['electron', 'electron/*'], message: 'Electron is not allowed in this layer.' };
const layer = (name, patterns) => ({
  group: patterns,
  message: `${name} must not be imported from this layer.`,
});
const agent = layer('The device agent', ['**/src/agent/**', '**/agent/*']);
const main = layer('Electron main', ['**/src/main/**', '**/main/*']);
const preload = layer('The preload', ['**/src/preload/**', '**/preload/*']);
const service = layer('The service', ['**/service/**']);
const renderer = layer('The renderer', ['**/renderer/**']);
const ui = {
  group: ['react', 'react-dom', 'react/*', 'react-dom/*'],
  message: 'UI libraries belong in the renderer.',
};

const restrict = (files, patterns) => ({
  files,
  ignores: ['**/*.test.ts', '**/*.test.tsx'],
  rules: {
    'no-restricted-imports': ['error', { paths: patterns.includes(node) ? nodePaths : [], patterns }],
  },
});

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'out/', 'test-results/', 'playwright-report/'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    files: ['**/*.test.ts', '**/*.test.tsx', 'e2e/**', 'bench/**'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      // Playwright fixtures that use no other fixture take `{}`.
      'no-empty-pattern': 'off',
    },
  },
  restrict(['src/shared/**'], [node, electron, ui, agent, main, preload, service, renderer]),
  restrict(['renderer/src/**'], [node, electron, agent, main, preload, service]),
  restrict(['src/agent/**'], [electron, ui, main, preload, renderer]),
  restrict(['service/**'], [electron, ui, agent, main, preload, renderer]),
  // The guest prelude runs inside a script's QuickJS engine: the ECMAScript built-ins only.
  restrict(['service/scripts/host/guest/**'], [node, electron, ui, agent, main, preload, renderer]),
  restrict(['src/preload/**'], [node, ui, agent, main, service, renderer]),
  restrict(['src/main/**'], [ui, renderer]),
  {
    files: ['src/shared/**', 'service/scripts/host/guest/**'],
    ignores: ['**/*.test.ts'],
    languageOptions: { globals: {} },
    rules: {
      'no-restricted-globals': [
        'error',
        ...[
          'window',
          'document',
          'navigator',
          'localStorage',
          'process',
          'Buffer',
          'require',
          '__dirname',
        ].map((name) => ({ name, message: 'This layer is platform-free: no DOM or Node globals.' })),
      ],
    },
  },
);
