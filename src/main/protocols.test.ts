import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TileAnswer, TileStore } from '../agent/tile-cache';
import { customFramePolicy } from '../shared/custom-frame';
import {
  CONTENT_SECURITY_POLICY,
  createAppHandler,
  createMediaHandler,
  MEDIA_BASE_URL,
  PRIVILEGED_SCHEMES,
  TILE_URL_TEMPLATE,
} from './protocols';

let dir: string;
let rendererDir: string;
let cacheDir: string;
const VIDEO = 'a'.repeat(32) + '.mp4';
const BYTES = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 256));

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wallboard-protocols-'));
  rendererDir = join(dir, 'renderer');
  cacheDir = join(dir, 'cache');
  await mkdir(join(rendererDir, 'assets'), { recursive: true });
  await mkdir(cacheDir);
  await writeFile(join(rendererDir, 'index.html'), '<!doctype html><title>board</title>');
  await writeFile(join(rendererDir, 'custom-frame.html'), '<!doctype html><title>frame</title>');
  await writeFile(join(rendererDir, 'assets', 'index.js'), 'console.warn(1)');
  await writeFile(join(dir, 'secret.txt'), 'outside');
  await writeFile(join(cacheDir, VIDEO), BYTES);
  await writeFile(join(cacheDir, 'notes.txt'), 'not a cache name');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const get = (url: string, headers: Record<string, string> = {}, method = 'GET') =>
  new Request(url, { method, headers });

describe('the app protocol', () => {
  it("serves a custom widget's host page under the page's own policy", async () => {
    const page = await createAppHandler(rendererDir)(get('app://wallboard/custom-frame.html'));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(customFramePolicy('custom-frame.html'));
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
  });

  it('serves the renderer with the CSP and a content type', async () => {
    const handler = createAppHandler(rendererDir);
    const index = await handler(get('app://wallboard/index.html'));
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(index.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(index.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await index.text()).toContain('<title>board</title>');
    const root = await handler(get('app://wallboard/'));
    expect(await root.text()).toContain('<title>board</title>');
    const script = await handler(get('app://wallboard/assets/index.js'));
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  });

  it('serves nothing outside the renderer folder, and no other host', async () => {
    const handler = createAppHandler(rendererDir);
    for (const url of [
      'app://wallboard/../secret.txt',
      'app://wallboard/%2e%2e/secret.txt',
      'app://wallboard/..%2fsecret.txt',
      'app://wallboard/assets/..%2f..%2fsecret.txt',
    ]) {
      const response = await handler(get(url));
      expect([403, 404], url).toContain(response.status);
    }
    expect((await handler(get('app://elsewhere/index.html'))).status).toBe(404);
    expect((await handler(get('app://wallboard/missing.js'))).status).toBe(404);
    expect((await handler(get('app://wallboard/index.html', {}, 'POST'))).status).toBe(405);
  });

  it('has a policy that allows only its own scripts and cached media', () => {
    const directives = Object.fromEntries(
      CONTENT_SECURITY_POLICY.split('; ').map((directive) => {
        const [name = '', ...values] = directive.split(' ');
        return [name, values];
      }),
    );
    expect(directives['default-src']).toEqual(["'self'"]);
    expect(directives['script-src']).toEqual(['app://wallboard/assets/']);
    expect(directives['img-src']).toContain('wallboard-media:');
    expect(directives['media-src']).toContain('wallboard-media:');
    expect(directives['object-src']).toEqual(["'none'"]);
    expect(directives['frame-ancestors']).toEqual(["'none'"]);
    expect(directives['frame-src']).toEqual(["'self'", 'http:', 'https:']);
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe-eval');
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/script-src[^;]*unsafe-inline/);
  });

  it('registers both schemes as secure standard schemes, neither bypassing the CSP', () => {
    expect(PRIVILEGED_SCHEMES.map((s) => s.scheme)).toEqual(['app', 'wallboard-media']);
    for (const { privileges } of PRIVILEGED_SCHEMES) {
      expect(privileges).toMatchObject({ standard: true, secure: true });
      expect(privileges?.bypassCSP).toBeUndefined();
    }
  });
});

describe('the media protocol', () => {
  const handler = () => createMediaHandler(cacheDir);

  it('serves a cached file by its name, whole', async () => {
    const response = await handler()(get(`${MEDIA_BASE_URL}${VIDEO}`));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('video/mp4');
    expect(response.headers.get('accept-ranges')).toBe('bytes');
    expect(Buffer.from(await response.arrayBuffer())).toEqual(BYTES);
  });

  it('answers byte ranges, as video seeking needs', async () => {
    const middle = await handler()(get(`${MEDIA_BASE_URL}${VIDEO}`, { range: 'bytes=100-199' }));
    expect(middle.status).toBe(206);
    expect(middle.headers.get('content-range')).toBe('bytes 100-199/1000');
    expect(middle.headers.get('content-length')).toBe('100');
    expect(Buffer.from(await middle.arrayBuffer())).toEqual(BYTES.subarray(100, 200));

    const open = await handler()(get(`${MEDIA_BASE_URL}${VIDEO}`, { range: 'bytes=990-' }));
    expect(open.headers.get('content-range')).toBe('bytes 990-999/1000');
    expect(Buffer.from(await open.arrayBuffer())).toEqual(BYTES.subarray(990));

    const suffix = await handler()(get(`${MEDIA_BASE_URL}${VIDEO}`, { range: 'bytes=-10' }));
    expect(Buffer.from(await suffix.arrayBuffer())).toEqual(BYTES.subarray(990));

    const beyond = await handler()(get(`${MEDIA_BASE_URL}${VIDEO}`, { range: 'bytes=5000-' }));
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe('bytes */1000');
  });

  it('refuses anything that is not a cache file name', async () => {
    for (const name of [
      'notes.txt',
      '../protocols.test.ts',
      '%2e%2e%2fsecret.txt',
      'A'.repeat(32),
      'a'.repeat(31),
      `${'a'.repeat(32)}.toolong`,
      `${'a'.repeat(32)}/x`,
    ]) {
      const response = await handler()(get(`${MEDIA_BASE_URL}${name}`));
      expect(response.status, name).toBe(404);
    }
    expect((await handler()(get(`wallboard-media://elsewhere/${VIDEO}`))).status).toBe(404);
    expect((await handler()(get(`${MEDIA_BASE_URL}${'b'.repeat(32)}`))).status).toBe(404);
  });
});

describe('the map tiles of the media protocol', () => {
  const TILE = Buffer.from('a tile');
  /** What the tile cache answers (tested against the service in src/agent/tile-cache.test.ts). */
  const tiles: TileStore & { asked: string[] } = {
    asked: [],
    async tile(z, x, y): Promise<TileAnswer> {
      this.asked.push(`${z}/${x}/${y}`);
      if (x === 1) return { ok: false, status: 502, message: 'the service is unreachable' };
      return { ok: true, body: TILE, contentType: 'image/webp' };
    },
  };
  const tileUrl = (z: number, x: number, y: number) =>
    TILE_URL_TEMPLATE.replace('{z}', String(z)).replace('{x}', String(x)).replace('{y}', String(y));

  it('serves a tile from the tile cache at the URL the renderer is told', async () => {
    expect(TILE_URL_TEMPLATE).toBe('wallboard-media://tiles/{z}/{x}/{y}');
    const response = await createMediaHandler(cacheDir, tiles)(get(tileUrl(2, 3, 0)));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/webp');
    expect(response.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(Buffer.from(await response.arrayBuffer())).toEqual(TILE);
    expect(tiles.asked).toEqual(['2/3/0']);
  });

  it("answers the cache's failure, and 404 to what is not a tile", async () => {
    const failed = await createMediaHandler(cacheDir, tiles)(get(tileUrl(2, 1, 0)));
    expect(failed.status).toBe(502);
    expect(await failed.text()).toBe('the service is unreachable');
    tiles.asked.length = 0;
    for (const path of ['2/4/0', '2/0', 'a/0/0', '2/0/0/x', '../cache/x']) {
      const response = await createMediaHandler(cacheDir, tiles)(get(`wallboard-media://tiles/${path}`));
      expect(response.status, path).toBe(404);
    }
    expect(tiles.asked).toEqual([]);
    expect((await createMediaHandler(cacheDir)(get(tileUrl(0, 0, 0)))).status).toBe(404);
  });
});
