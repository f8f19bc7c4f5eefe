import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../service/test-support';
import { solidPng } from '../../service/testing/png';
import { listen } from '../../service/testing/realtime-clients';
import type { Fetch } from './ports';
import { recordingLogger } from './testing/fakes';
import { parseTilePath, TILE_FRESH_MS, TileCache, type TileCacheDeps } from './tile-cache';

/** The tile source on the loopback address: a tile whose grey is its x, counted. */
let upstream: Server;
const upstreamHits: string[] = [];
let service: TestService;
let serviceUrl: string;
let token: string;
let noTiles: TestService;
let noTilesUrl: string;
let closedUrl: string;

beforeAll(async () => {
  upstream = createServer((request, response) => {
    upstreamHits.push(request.url ?? '');
    const x = Number(request.url?.split('/')[2] ?? 0);
    response.writeHead(200, { 'content-type': 'image/png' }).end(solidPng(2, 2, x));
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const { port } = upstream.address() as AddressInfo;
  service = await startTestService({
    config: {
      mapTiles: { urlTemplate: `http://127.0.0.1:${port}/{z}/{x}/{y}`, attribution: '', maxZoom: 19 },
    },
  });
  serviceUrl = await listen(service);
  token = await service.tokenOf('affiliated');
  noTiles = await startTestService({ config: { mapTiles: null } });
  noTilesUrl = await listen(noTiles);
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  closedUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
  await new Promise((resolve) => closed.close(resolve));
});
afterAll(async () => {
  await service.close();
  await noTiles.close();
  await new Promise((resolve) => upstream.close(resolve));
});

let dir: string;
let now: number;
let requests: string[];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wallboard-tiles-'));
  now = Date.parse('2026-11-23T08:00:00Z');
  requests = [];
  upstreamHits.length = 0;
  return () => rm(dir, { recursive: true, force: true });
});

function cacheOf(overrides: Partial<TileCacheDeps> = {}): TileCache {
  const fetch: Fetch = (url, init) => {
    requests.push(url);
    return globalThis.fetch(url, init);
  };
  const cache = new TileCache({ dir, fetch, now: () => now, log: recordingLogger(), ...overrides });
  cache.useService({ server: serviceUrl, token });
  return cache;
}

const tileOf = (grey: number) => ({ ok: true, body: solidPng(2, 2, grey), contentType: 'image/png' });

describe('TileCache', () => {
  it("fetches a tile from the service with the screen's token, then draws it from the disk for a day", async () => {
    const cache = cacheOf();
    expect(await cache.tile(3, 4, 5)).toEqual(tileOf(4));
    expect(requests).toEqual([`${serviceUrl}/map/tiles/3/4/5`]);
    expect(await readdir(dir)).toEqual(['3-4-5.png']);

    now += TILE_FRESH_MS - 1;
    expect(await cache.tile(3, 4, 5)).toEqual(tileOf(4));
    expect(requests).toHaveLength(1);

    now += 2;
    expect(await cache.tile(3, 4, 5)).toEqual(tileOf(4));
    expect(requests).toHaveLength(2);
  });

  it('asks once for a tile wanted twice at the same moment', async () => {
    const cache = cacheOf();
    const [a, b] = await Promise.all([cache.tile(4, 6, 7), cache.tile(4, 6, 7)]);
    expect(a).toEqual(tileOf(6));
    expect(b).toEqual(tileOf(6));
    expect(requests).toHaveLength(1);
  });

  it('draws old tiles while the service is unreachable, and says 502 for the others', async () => {
    const cache = cacheOf();
    await cache.tile(2, 1, 1);
    now += 3 * TILE_FRESH_MS;
    cache.useService({ server: closedUrl, token });
    expect(await cache.tile(2, 1, 1)).toEqual(tileOf(1));
    const missing = await cache.tile(2, 2, 1);
    expect(missing).toMatchObject({ ok: false, status: 502 });
    expect(missing.ok ? '' : missing.message).toContain('the service is unreachable');
  });

  it('does not keep the map waiting on a service that does not answer, when it has an old copy', async () => {
    const cache = cacheOf();
    await cache.tile(2, 3, 3);
    now += 2 * TILE_FRESH_MS;
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      cache.useService({ server: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`, token });
      const started = performance.now();
      expect(await cache.tile(2, 3, 3)).toEqual(tileOf(3));
      expect(performance.now() - started).toBeLessThan(10_000);
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('says 404 with no service yet, or when the service has no tile source', async () => {
    const cache = cacheOf();
    cache.useService(null);
    expect(await cache.tile(1, 0, 0)).toEqual({
      ok: false,
      status: 404,
      message: 'this screen has no service yet',
    });
    cache.useService({ server: noTilesUrl, token: (await noTiles.tokenOf('affiliated')) || '' });
    const answer = await cache.tile(1, 0, 0);
    expect(answer).toMatchObject({ ok: false, status: 404 });
    expect(answer.ok ? '' : answer.message).toContain('--map-tiles none');
  });

  it('keeps at most its tiles, the least recently used going first, and finds them again after a restart', async () => {
    const cache = cacheOf({ maxTiles: 2 });
    await cache.tile(5, 1, 0);
    now += 1000;
    await cache.tile(5, 2, 0);
    await cache.tile(5, 1, 0); // used again: 5/2/0 is now the least recent
    now += 1000;
    await cache.tile(5, 3, 0);
    expect((await readdir(dir)).sort()).toEqual(['5-1-0.png', '5-3-0.png']);
    expect(upstreamHits).toHaveLength(3);

    await writeFile(join(dir, '.tmp-leftover'), 'half a tile');
    const restarted = cacheOf({ maxTiles: 2 });
    expect(await restarted.tile(5, 3, 0)).toEqual(tileOf(3));
    expect(await restarted.tile(5, 1, 0)).toEqual(tileOf(1));
    expect(requests).toHaveLength(3);
    expect((await readdir(dir)).sort()).toEqual(['5-1-0.png', '5-3-0.png']);
  });

  it('keeps at most its bytes', async () => {
    const cache = cacheOf({ maxBytes: solidPng(2, 2, 1).length + solidPng(2, 2, 2).length });
    for (const x of [0, 1, 2]) await cache.tile(6, x, 0);
    expect((await readdir(dir)).sort()).toEqual(['6-1-0.png', '6-2-0.png']);
  });
});

describe('parseTilePath', () => {
  it('reads a tile URL path, and refuses what is not one', () => {
    expect(parseTilePath('/tiles/3/7/0')).toEqual({ z: 3, x: 7, y: 0 });
    expect(parseTilePath('tiles/0/0/0')).toEqual({ z: 0, x: 0, y: 0 });
    for (const path of ['/tiles/3/8/0', '/tiles/1/0', '/tiles/a/0/0', '/tiles/1/0/0/..', '/tiles/1/-1/0']) {
      expect(parseTilePath(path), path).toBeNull();
    }
  });
});
