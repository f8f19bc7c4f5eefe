import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compressFolder } from '../../tools/compress';
import { acceptedEncodings, serveFolder, type StaticServer } from './static-server';
import { rawGet } from '../node/testing/raw-get';

/** Text that compresses as a bundle does: repeated identifiers, a little variety. */
const SCRIPT = Array.from({ length: 2000 }, (_, i) => `export const value${i} = () => 'row ${i % 37}';`).join(
  '\n',
);
const PAGE = `<!doctype html><title>player</title>${'<div class="widget"></div>'.repeat(40)}`;
const IMAGE = Buffer.from([0x89, 0x50, 0x4e, 0x47, ...Array.from({ length: 60 }, (_, i) => (i * 97) % 256)]);

describe("the web player's file server", () => {
  let dir: string;
  let server: StaticServer;
  const url = (path: string) => new URL(path, server.url).href;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'wallboard-static-'));
    await mkdir(join(dir, 'assets'));
    await writeFile(join(dir, 'index.html'), PAGE);
    await writeFile(join(dir, 'assets', 'app-1.js'), SCRIPT);
    await writeFile(join(dir, 'assets', 'logo-1.png'), IMAGE);
    await compressFolder(dir);
    server = await serveFolder(dir);
  });
  afterAll(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('sends brotli to a browser that takes it: a fraction of the bytes, the same script', async () => {
    const response = await rawGet(url('assets/app-1.js'), { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(response.status).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toMatch(/^text\/javascript/);
    expect(response.headers.vary).toBe('accept-encoding');
    expect(Number(response.headers['content-length'])).toBe(response.body.length);
    expect(response.body.length).toBeLessThan(SCRIPT.length / 10);
    expect(response.body).toEqual(await readFile(join(dir, 'assets', 'app-1.js.br')));
    expect(brotliDecompressSync(response.body).toString()).toBe(SCRIPT);
  });

  it('sends gzip where brotli is refused, and the file where no encoding is taken', async () => {
    const gzip = await rawGet(url('assets/app-1.js'), { 'accept-encoding': 'br;q=0, gzip' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.body.length).toBeLessThan(SCRIPT.length / 5);
    expect(gunzipSync(gzip.body).toString()).toBe(SCRIPT);
    const refusals: Record<string, string>[] = [
      {},
      { 'accept-encoding': 'identity' },
      { 'accept-encoding': '*;q=0' },
    ];
    for (const headers of refusals) {
      const plain = await rawGet(url('assets/app-1.js'), headers);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers.vary).toBe('accept-encoding');
      expect(Number(plain.headers['content-length'])).toBe(SCRIPT.length);
      expect(plain.body.toString()).toBe(SCRIPT);
    }
    // Images are compressed already: the build writes no copy, and the file goes as it is.
    const image = await rawGet(url('assets/logo-1.png'), { 'accept-encoding': 'br, gzip' });
    expect(image.headers['content-encoding']).toBeUndefined();
    expect(image.body).toEqual(IMAGE);
  });

  it('caches the files named by their content for good, and revalidates the pages', async () => {
    const script = await rawGet(url('assets/app-1.js'), { 'accept-encoding': 'br' });
    expect(script.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const page = await rawGet(url('/'), { 'accept-encoding': 'br' });
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(page.body).toString()).toBe(PAGE);
    const etag = String(page.headers.etag);
    const again = await rawGet(url('/'), { 'accept-encoding': 'br', 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    // Each copy has its own tag: a page cached as brotli is not the one to keep as gzip.
    const gzip = await rawGet(url('/'), { 'accept-encoding': 'gzip', 'if-none-match': etag });
    expect(gzip.status).toBe(200);
    expect(gzip.headers.etag).not.toBe(etag);
  });

  it('answers a range of the copy it sends, and the whole copy for a range of another', async () => {
    const whole = await rawGet(url('assets/app-1.js'), { 'accept-encoding': 'br' });
    const part = await rawGet(url('assets/app-1.js'), { 'accept-encoding': 'br', range: 'bytes=10-109' });
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 10-109/${whole.body.length}`);
    expect(part.body).toEqual(whole.body.subarray(10, 110));
    const resumed = await rawGet(url('assets/app-1.js'), {
      'accept-encoding': 'br',
      range: 'bytes=10-109',
      'if-range': String(whole.headers.etag),
    });
    expect(resumed.status).toBe(206);
    const stale = await rawGet(url('assets/app-1.js'), {
      'accept-encoding': 'br',
      range: 'bytes=10-109',
      'if-range': 'W/"0-0"',
    });
    expect(stale.status).toBe(200);
    expect(stale.body).toEqual(whole.body);
  });
});

describe('acceptedEncodings', () => {
  it("orders the build's encodings by the weights a request gives them", () => {
    const names = (header?: string) => acceptedEncodings(header).map(({ name }) => name);
    expect(names(undefined)).toEqual([]);
    expect(names('gzip, deflate, br, zstd')).toEqual(['br', 'gzip']);
    expect(names('gzip;q=1, br;q=0.5')).toEqual(['gzip', 'br']);
    expect(names('BR;Q=0, gzip')).toEqual(['gzip']);
    expect(names('*')).toEqual(['br', 'gzip']);
    expect(names('gzip;q=0, *')).toEqual(['br']);
    expect(names('identity')).toEqual([]);
  });
});
