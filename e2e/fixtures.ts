import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test as base, expect } from '@playwright/test';
import { serveFolder, type StaticServer } from '../src/web-player/static-server';

const RENDERER_DIST = fileURLToPath(new URL('../dist/renderer', import.meta.url));
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

interface Fixtures {
  /** The built renderer, served on a loopback port. */
  renderer: StaticServer;
}

/**
 * Pages reach loopback only: anything else is aborted, so a test can never depend on, or leak
 * to, the outside world (after Element Desktop's fixtures).
 */
export const test = base.extend<Fixtures>({
  context: async ({ context }, use) => {
    await context.route(
      (url) => !LOOPBACK.has(url.hostname) && url.protocol !== 'data:' && url.protocol !== 'blob:',
      (route) => route.abort('blockedbyclient'),
    );
    await use(context);
  },
  renderer: async ({}, use) => {
    if (!existsSync(RENDERER_DIST)) throw new Error('dist/renderer is missing: run `npm run build` first');
    const server = await serveFolder(RENDERER_DIST);
    await use(server);
    await server.close();
  },
});

export { expect };
