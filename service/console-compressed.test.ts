// The console's files as the build leaves them (tools/compress.ts writes a brotli and a gzip copy
// beside each), served by the service by what the browser accepts.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSP_NONCE_PLACEHOLDER } from '../src/shared/console-page';
import { compressFolder } from '../tools/compress';
import { startTestService, type TestService } from './test-support';

const PAGE = `<!doctype html><script type="module" src="/console/assets/app-1.js" nonce="${CSP_NONCE_PLACEHOLDER}"></script>`;
/** Text that compresses as a bundle does: repeated identifiers, a little variety. */
const SCRIPT = Array.from({ length: 2000 }, (_, i) => `export const value${i} = () => 'row ${i % 37}';`).join(
  '\n',
);
const ASSET = '/console/assets/app-1.js';

describe("the console's files, precompressed", () => {
  let dir: string;
  let service: TestService;
  const get = (url: string, headers: Record<string, string> = {}) =>
    service.app.inject({ method: 'GET', url, headers });

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'wallboard-console-'));
    await mkdir(join(dir, 'assets'));
    await writeFile(join(dir, 'index.html'), PAGE);
    await writeFile(join(dir, 'assets', 'app-1.js'), SCRIPT);
    await compressFolder(join(dir, 'assets'));
    service = await startTestService({ consoleDir: dir });
  });
  afterAll(async () => {
    await service.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('sends brotli to a browser that accepts it: a fraction of the bytes, the same script', async () => {
    const response = await get(ASSET, { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    expect(Number(response.headers['content-length'])).toBe(response.rawPayload.length);
    expect(response.rawPayload.length).toBeLessThan(SCRIPT.length / 10);
    expect(response.rawPayload).toEqual(await readFile(join(dir, 'assets', 'app-1.js.br')));
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(SCRIPT);
  });

  it('sends gzip where brotli is not accepted, and the file itself where nothing is', async () => {
    const gzip = await get(ASSET, { 'accept-encoding': 'br;q=0, gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(SCRIPT);
    expect(gzip.rawPayload.length).toBeLessThan(SCRIPT.length / 5);
    const refusals: Record<string, string>[] = [{}, { 'accept-encoding': 'identity' }];
    for (const headers of refusals) {
      const plain = await get(ASSET, headers);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers.vary).toMatch(/accept-encoding/i);
      expect(Number(plain.headers['content-length'])).toBe(SCRIPT.length);
      expect(plain.body).toBe(SCRIPT);
    }
  });

  it('is cached for good, revalidated per encoding with its ETag, and answers ranges of what it sends', async () => {
    const br = await get(ASSET, { 'accept-encoding': 'br' });
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const plain = await get(ASSET);
    const etag = String(br.headers.etag);
    expect(etag).not.toBe(String(plain.headers.etag));
    const again = await get(ASSET, { 'accept-encoding': 'br', 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    const range = await get(ASSET, { 'accept-encoding': 'br', range: 'bytes=0-99' });
    expect(range.statusCode).toBe(206);
    expect(range.headers['content-range']).toBe(`bytes 0-99/${br.rawPayload.length}`);
    expect(range.rawPayload).toEqual(br.rawPayload.subarray(0, 100));
  });

  it('templates its page per request, never from a cached or compressed copy', async () => {
    const page = await get('/console/', { 'accept-encoding': 'br, gzip' });
    expect(page.headers['content-encoding']).toBeUndefined();
    expect(page.headers['cache-control']).toBe('no-store');
    const nonce = /'nonce-([^']+)'/.exec(String(page.headers['content-security-policy']))?.[1];
    expect(page.body).toContain(`nonce="${nonce}"`);
    expect(page.body).not.toContain(CSP_NONCE_PLACEHOLDER);
  });
});
