// The built console and web player send the brotli copies the build wrote (tools/compress.ts):
// the bytes that cross the wire, measured from the built service and the built web player.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync } from 'node:zlib';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { Stack } from './stack';
import { rawGet } from '../src/node/testing/raw-get';

const CONSOLE_DIST = fileURLToPath(new URL('../dist/console/', import.meta.url));
const RENDERER_DIST = fileURLToPath(new URL('../dist/renderer/', import.meta.url));
/** What Chromium asks for. */
const BROWSER_ENCODINGS = 'gzip, deflate, br, zstd';
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** The page's scripts and styles as the browser loaded them: encoding and body bytes received. */
async function loadedAssets(
  page: Page,
  url: string,
): Promise<Map<string, { encoding: string; bytes: number }>> {
  const seen = new Map<string, { encoding: string; bytes: number }>();
  const done: Promise<void>[] = [];
  page.on('response', (response) => {
    if (!/\/assets\/[^/]+\.(js|css)$/.test(response.url())) return;
    done.push(
      (async () => {
        const { responseBodySize } = await response.request().sizes();
        const encoding = (await response.allHeaders())['content-encoding'] ?? 'identity';
        seen.set(new URL(response.url()).pathname, { encoding, bytes: responseBodySize });
      })(),
    );
  });
  await page.goto(url, { waitUntil: 'load' });
  await Promise.all(done);
  return seen;
}

/** Each loaded file came as its brotli copy, byte for byte, or as itself where the build wrote none. */
async function expectSentAsBuilt(
  loaded: Map<string, { encoding: string; bytes: number }>,
  fileOf: (path: string) => string,
): Promise<void> {
  for (const [path, { encoding, bytes }] of loaded) {
    const file = fileOf(path);
    // A file too small to gain from brotli has no copy.
    const copy = await readFile(`${file}.br`).catch(() => null);
    expect(encoding, path).toBe(copy ? 'br' : 'identity');
    expect(bytes, path).toBe(copy ? copy.length : (await readFile(file)).length);
  }
  expect([...loaded.values()].filter(({ encoding }) => encoding === 'br').length).toBeGreaterThan(0);
}

test.describe('precompressed static files', () => {
  let stack: Stack;
  test.beforeAll(async () => {
    stack = await Stack.start('compressed');
  });
  test.afterAll(async () => {
    await stack.stop();
  });

  test("the console's entry script crosses the wire as brotli, a fraction of its size", async () => {
    const html = await readFile(`${CONSOLE_DIST}index.html`, 'utf8');
    const entry = /<script type="module"[^>]* src="(\/console\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(entry).toBeDefined();
    const file = await readFile(`${CONSOLE_DIST}${entry?.slice('/console/'.length)}`);
    const url = `${stack.serviceUrl}${entry}`;

    const br = await rawGet(url, { 'accept-encoding': BROWSER_ENCODINGS });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toBe(IMMUTABLE);
    expect(Number(br.headers['content-length'])).toBe(br.body.length);
    expect(br.body.length).toBeLessThan(file.length * 0.35);
    expect(brotliDecompressSync(br.body)).toEqual(file);

    // A client that asks for no encoding gets the file itself.
    const plain = await rawGet(url);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(Number(plain.headers['content-length'])).toBe(file.length);
    expect(plain.body).toEqual(file);

    const again = await rawGet(url, {
      'accept-encoding': BROWSER_ENCODINGS,
      'if-none-match': String(br.headers.etag),
    });
    expect(again.status).toBe(304);
  });

  test("the console's page keeps its per-request nonce, and the files it loads come compressed", async ({
    page,
  }) => {
    const loaded = await loadedAssets(page, `${stack.serviceUrl}/console/`);
    await expect(page.getByLabel('Login')).toBeVisible();
    expect(loaded.size).toBeGreaterThan(1);
    await expectSentAsBuilt(loaded, (path) => `${CONSOLE_DIST}${path.slice('/console/'.length)}`);
    const pageAnswer = await rawGet(`${stack.serviceUrl}/console/`, { 'accept-encoding': BROWSER_ENCODINGS });
    expect(pageAnswer.headers['cache-control']).toBe('no-store');
    const nonce = /'nonce-([^']+)'/.exec(String(pageAnswer.headers['content-security-policy']))?.[1];
    expect(pageAnswer.body.toString()).toContain(`nonce="${nonce}"`);
  });

  test('the web player sends its page and files as brotli, the files cached for good', async ({ page }) => {
    const player = await stack.startPlayer();
    const loaded = await loadedAssets(page, player);
    expect(loaded.size).toBeGreaterThan(1);
    // `/` sends the browser to the version on screen, `/v/<version>/`: the built bundle here.
    expect(page.url()).toBe(new URL('/v/built-in/', player).href);
    await expectSentAsBuilt(loaded, (path) => `${RENDERER_DIST}${path.replace(/^\/v\/built-in\//, '')}`);
    const index = await rawGet(page.url(), { 'accept-encoding': BROWSER_ENCODINGS });
    expect(index.headers['content-encoding']).toBe('br');
    expect(index.headers['cache-control']).toBe('no-cache');
    const [script] = loaded.keys();
    const asset = await rawGet(new URL(script ?? '', page.url()).href, {
      'accept-encoding': BROWSER_ENCODINGS,
    });
    expect(asset.headers['cache-control']).toBe(IMMUTABLE);
  });
});
