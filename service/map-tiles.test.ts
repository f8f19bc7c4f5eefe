import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { TILE_MIN_AGE_MS, TileProxy, tileUrl } from './map/tile-proxy';
import { TILE_USER_AGENT } from './routes/map-tiles';
import { startTestService, type TestService } from './test-support';
import { FakeClock } from './testing/fake-clock';
import { solidPng } from './testing/png';

/** A tile server on the loopback address, standing in for OpenStreetMap's; it counts what it is asked. */
interface StandIn {
  server: Server;
  template: string;
  hits: Map<string, number>;
  agents: string[];
  /** What the next answers are: a tile by default. */
  answer: (request: IncomingMessage, response: ServerResponse) => void | Promise<void>;
}

const tileAnswer =
  (grey: number, cacheControl?: string) => (request: IncomingMessage, response: ServerResponse) => {
    response.writeHead(200, {
      'content-type': 'image/png',
      ...(cacheControl ? { 'cache-control': cacheControl } : {}),
    });
    response.end(solidPng(2, 2, grey));
  };

async function startStandIn(): Promise<StandIn> {
  const standIn = { hits: new Map(), agents: [], answer: tileAnswer(100) } as unknown as StandIn;
  standIn.server = createServer((request, response) => {
    standIn.hits.set(request.url!, (standIn.hits.get(request.url!) ?? 0) + 1);
    standIn.agents.push(request.headers['user-agent'] ?? '');
    void standIn.answer(request, response);
  });
  await new Promise<void>((resolve) => standIn.server.listen(0, '127.0.0.1', resolve));
  const { port } = standIn.server.address() as AddressInfo;
  standIn.template = `http://127.0.0.1:${port}/tiles/{z}/{x}/{y}.png?s={s}`;
  return standIn;
}

let standIn: StandIn;
let clock: FakeClock;
let service: TestService;
let bare: TestService;
beforeAll(async () => {
  standIn = await startStandIn();
  clock = new FakeClock();
  service = await startTestService({
    clock,
    config: { mapTiles: { urlTemplate: standIn.template, attribution: '© Stand-in', maxZoom: 5 } },
  });
  bare = await startTestService({ config: { mapTiles: null } });
});
afterAll(async () => {
  await service.close();
  await bare.close();
  await new Promise((resolve) => standIn.server.close(resolve));
});
afterEach(() => {
  standIn.answer = tileAnswer(100);
});

const hitsOf = (z: number, x: number, y: number) => standIn.hits.get(`/tiles/${z}/${x}/${y}.png?s=a`) ?? 0;

describe('GET /map/tiles/:z/:x/:y', () => {
  it('answers the tile from the source, then from its cache, naming the service to the source', async () => {
    const first = await service.call('GET', '/map/tiles/3/2/5');
    expect(first.statusCode, first.body).toBe(200);
    expect(first.headers['content-type']).toBe('image/png');
    expect(first.headers['cache-control']).toBe('private, max-age=86400');
    expect(first.rawPayload.equals(solidPng(2, 2, 100))).toBe(true);
    expect(standIn.agents.at(-1)).toBe(TILE_USER_AGENT);
    expect(TILE_USER_AGENT).toMatch(/^Wallboard\/\d+\.\d+\.\d+ \(/);

    const readonly = await service.tokenOf('readonly');
    const again = await service.call('GET', '/map/tiles/3/2/5', undefined, readonly);
    expect(again.statusCode).toBe(200);
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(hitsOf(3, 2, 5)).toBe(1);

    expect((await service.call('GET', '/map/tiles/3/2/5', undefined, null)).statusCode).toBe(401);
  });

  it('keeps a tile a day at least, longer when the source says so, then asks again', async () => {
    standIn.answer = tileAnswer(110, 'max-age=60');
    await service.call('GET', '/map/tiles/4/1/1');
    standIn.answer = tileAnswer(120, 'public, max-age=172800');
    await service.call('GET', '/map/tiles/4/1/2');
    await clock.jump(TILE_MIN_AGE_MS - 1000);
    await service.call('GET', '/map/tiles/4/1/1');
    expect(hitsOf(4, 1, 1)).toBe(1);

    await clock.advance(2000);
    const refreshed = await service.call('GET', '/map/tiles/4/1/1');
    expect(refreshed.rawPayload.equals(solidPng(2, 2, 120))).toBe(true);
    expect(hitsOf(4, 1, 1)).toBe(2);
    await service.call('GET', '/map/tiles/4/1/2');
    expect(hitsOf(4, 1, 2)).toBe(1);
  });

  it('asks the source once for a tile many screens want at the same moment', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    standIn.answer = async (request, response) => {
      await held;
      tileAnswer(130)(request, response);
    };
    const answers = Promise.all([1, 2, 3].map(() => service.call('GET', '/map/tiles/5/7/9')));
    await vi.waitFor(() => expect(hitsOf(5, 7, 9)).toBe(1));
    release();
    for (const answer of await answers) expect(answer.statusCode).toBe(200);
    expect(hitsOf(5, 7, 9)).toBe(1);
  });

  it('refuses coordinates outside the tile grid with a clear error', async () => {
    const cases: [string, string, string][] = [
      ['/map/tiles/6/0/0', 'params.z', 'params.z must be at most 5'],
      ['/map/tiles/2/4/0', 'params.x', 'params.x must be at most 3 at zoom 2'],
      ['/map/tiles/2/0/4', 'params.y', 'params.y must be at most 3 at zoom 2'],
      ['/map/tiles/0/0/-1', 'params.y', 'params.y'],
      ['/map/tiles/a/0/0', 'params.z', 'params.z'],
      ['/map/tiles/1/0.5/0', 'params.x', 'must be a whole number from 0'],
      ['/map/tiles/%20/0/0', 'params.z', 'must be a whole number from 0'],
      ['/map/tiles/0/1e0/0', 'params.x', 'params.x'],
      ['/map/tiles/0/0/99999999', 'params.y', 'params.y'],
    ];
    for (const [url, path, message] of cases) {
      const answer = await service.call('GET', url);
      expect(answer.statusCode, url).toBe(400);
      const { error } = answer.json();
      expect(error.code, url).toBe('invalid_request');
      expect(error.message, url).toContain(message);
      expect(
        error.details.map((d: { path: string }) => d.path),
        url,
      ).toContain(path);
    }
    expect([...standIn.hits.keys()].some((key) => key.startsWith('/tiles/6/'))).toBe(false);
  });

  it('answers 404 when the service has no tile source', async () => {
    const answer = await bare.call('GET', '/map/tiles/0/0/0');
    expect(answer.statusCode).toBe(404);
    expect(answer.json().error).toEqual({
      code: 'not_found',
      message: 'this service has no map tile source (it runs with --map-tiles none)',
      details: [],
    });
  });

  it('answers 502 when the source fails or answers no image, and a kept tile past its age meanwhile', async () => {
    standIn.answer = (_request, response) => {
      response.writeHead(500).end('down');
    };
    const failed = await service.call('GET', '/map/tiles/1/1/1');
    expect(failed.statusCode).toBe(502);
    expect(failed.json().error.code).toBe('bad_gateway');
    expect(failed.json().error.message).toMatch(/^the tile source 127\.0\.0\.1:\d+ answered 500$/);

    standIn.answer = (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' }).end('<p>blocked</p>');
    };
    const html = await service.call('GET', '/map/tiles/1/1/0');
    expect(html.statusCode).toBe(502);
    expect(html.json().error.message).toContain('answered text/html, not a PNG, JPEG or WebP image');

    // A tile kept before: still drawn while the source is down.
    await clock.jump(2 * TILE_MIN_AGE_MS);
    const kept = await service.call('GET', '/map/tiles/3/2/5');
    expect(kept.statusCode).toBe(200);
    expect(kept.rawPayload.equals(solidPng(2, 2, 100))).toBe(true);
  });

  it('answers 502 when the source cannot be reached', async () => {
    const gone = createServer();
    await new Promise<void>((resolve) => gone.listen(0, '127.0.0.1', resolve));
    const { port } = gone.address() as AddressInfo;
    await new Promise((resolve) => gone.close(resolve));
    const unreachable = await startTestService({
      config: {
        mapTiles: { urlTemplate: `http://127.0.0.1:${port}/{z}/{x}/{y}.png`, attribution: '', maxZoom: 19 },
      },
    });
    try {
      const answer = await unreachable.call('GET', '/map/tiles/0/0/0');
      expect(answer.statusCode).toBe(502);
      expect(answer.json().error).toEqual({
        code: 'bad_gateway',
        message: `the tile source 127.0.0.1:${port} is unreachable`,
        details: [],
      });
    } finally {
      await unreachable.close();
    }
  });
});

describe('TileProxy', () => {
  it('fills {z}, {x}, {y} and {s}', () => {
    expect(tileUrl('https://{s}.tile.example/{z}/{x}/{y}.png', 3, 4, 5)).toBe(
      'https://a.tile.example/3/4/5.png',
    );
  });

  it('keeps at most its bytes, the least recently used going first', async () => {
    const tileBytes = solidPng(2, 2, 100).length;
    const proxy = new TileProxy(
      { urlTemplate: standIn.template },
      { now: () => clock.now().getTime(), userAgent: 'test', maxBytes: 2 * tileBytes },
    );
    await proxy.tile(2, 0, 0);
    await proxy.tile(2, 0, 1);
    await proxy.tile(2, 0, 0); // used again: now the newest
    await proxy.tile(2, 0, 2); // the third: 2/0/1 goes
    await proxy.tile(2, 0, 0);
    await proxy.tile(2, 0, 2);
    expect([hitsOf(2, 0, 0), hitsOf(2, 0, 1), hitsOf(2, 0, 2)]).toEqual([1, 1, 1]);
    await proxy.tile(2, 0, 1);
    expect(hitsOf(2, 0, 1)).toBe(2);
  });
});
