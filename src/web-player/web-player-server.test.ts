import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import type { z } from 'zod';
import type { TileAnswer, TileStore } from '../agent/tile-cache';
import { playerStateSchema, type BridgeMessage, type PlayerState } from '../shared/bridge';
import { agentFrameSchema, type CallFrame } from '../shared/web-bridge-protocol';
import { customFramePolicy } from '../shared/custom-frame';
import { startWebPlayerServer, WEB_TILE_URL_TEMPLATE, type WebPlayerServer } from './web-player-server';
import { emptyPlayerState } from '../shared/testing/bridge-fixtures';
import { RecordingHost } from './testing/recording-host';

const STATE: PlayerState = emptyPlayerState('lobby-screen');
const MEDIA = '0123456789abcdef0123456789abcdef.mp4';
const MEDIA_BYTES = Buffer.from('0123456789');

/** A bridge client that keeps every frame, so none is missed between two awaits. */
class Client {
  private readonly frames: z.infer<typeof agentFrameSchema>[] = [];
  private waiting: (() => void) | null = null;
  constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      this.frames.push(agentFrameSchema.parse(JSON.parse(String(data))));
      this.waiting?.();
    });
  }
  static open(url: string, origin?: string): Promise<Client> {
    const socket = new WebSocket(url, origin === undefined ? {} : { origin });
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(new Client(socket)));
      socket.once('unexpected-response', (_request, response) => {
        socket.terminate();
        reject(new Error(`refused with ${response.statusCode}`));
      });
      socket.once('error', reject);
    });
  }
  send(frame: CallFrame | string): void {
    this.socket.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }
  async next(): Promise<z.infer<typeof agentFrameSchema>> {
    while (this.frames.length === 0) await new Promise<void>((resolve) => (this.waiting = resolve));
    return this.frames.shift()!;
  }
  async state(requestId: number): Promise<PlayerState> {
    this.send({ method: 'getState', request_id: requestId });
    const frame = await this.next();
    if (frame.kind !== 'answer') throw new Error(`expected an answer, got ${frame.kind}`);
    expect(frame.request_id).toBe(requestId);
    return playerStateSchema.parse(frame.answer);
  }
}

/** A raw request: fetch would normalise the dots and slashes the traversal tests need. */
function get(url: string, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request(new URL(url), { path }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    })
      .on('error', reject)
      .end();
  });
}

let dir: string;
let host: RecordingHost;
let warnings: string[];
let server: WebPlayerServer;
let bridgeUrl: string;
let clients: Client[];

async function connect(origin?: string): Promise<Client> {
  const client = await Client.open(bridgeUrl, origin);
  clients.push(client);
  return client;
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'web-player-'));
  await mkdir(join(dir, 'renderer', 'assets'), { recursive: true });
  await mkdir(join(dir, 'media'));
  await writeFile(join(dir, 'renderer', 'index.html'), '<!doctype html><title>player</title>');
  await writeFile(join(dir, 'renderer', 'custom-frame-net.html'), '<!doctype html><title>frame</title>');
  await writeFile(join(dir, 'renderer', 'assets', 'app.js'), 'export {};');
  await writeFile(join(dir, 'media', MEDIA), MEDIA_BYTES);
  await writeFile(join(dir, 'secret.txt'), 'token');
  host = new RecordingHost(STATE);
  warnings = [];
  server = await startWebPlayerServer({
    host,
    rendererDir: join(dir, 'renderer'),
    mediaDir: join(dir, 'media'),
    log: { warn: (message) => warnings.push(message) },
  });
  bridgeUrl = new URL('bridge', server.url).href.replace(/^http/, 'ws');
  clients = [];
});

afterEach(async () => {
  for (const client of clients) client.socket.terminate();
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the web player over HTTP', () => {
  it("serves a custom widget's host page under the page's own policy", async () => {
    const page = await fetch(new URL('custom-frame-net.html', server.url));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(customFramePolicy('custom-frame-net.html'));
    const player = await fetch(server.url);
    expect(player.headers.get('content-security-policy')).toContain("frame-src 'self' http: https:");
  });

  it('serves the renderer with its security headers', async () => {
    const page = await fetch(server.url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await page.text()).toContain('<title>player</title>');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');

    const script = await fetch(new URL('assets/app.js', server.url));
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await script.text()).toBe('export {};');

    const missing = await fetch(new URL('assets/none.js', server.url));
    expect(missing.status).toBe(404);
    expect(missing.headers.get('x-content-type-options')).toBe('nosniff');
    expect((await fetch(server.url, { method: 'POST' })).status).toBe(405);
  });

  it('refuses paths that leave the renderer folder', async () => {
    for (const path of [
      '/../secret.txt',
      '/..%2fsecret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '/%2e%2e/secret.txt',
    ]) {
      const { status, body } = await get(server.url, path);
      expect(status, path).toBeGreaterThanOrEqual(400);
      expect(body, path).not.toContain('token');
    }
    expect((await get(server.url, '/%E0%A4%A')).status).toBe(400);
    expect((await get(server.url, '//')).status).toBe(400);
    expect((await get(server.url, '/')).status).toBe(200);
  });

  it('serves media whole and by byte range', async () => {
    const url = new URL(`media/${MEDIA}`, server.url);
    const whole = await fetch(url);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-type')).toBe('video/mp4');
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(whole.headers.get('content-security-policy')).toContain("object-src 'none'");
    expect(await whole.text()).toBe('0123456789');

    const part = await fetch(url, { headers: { range: 'bytes=2-5' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe('bytes 2-5/10');
    expect(part.headers.get('content-length')).toBe('4');
    expect(await part.text()).toBe('2345');

    const open = await fetch(url, { headers: { range: 'bytes=7-' } });
    expect(open.status).toBe(206);
    expect(await open.text()).toBe('789');
    const suffix = await fetch(url, { headers: { range: 'bytes=-3' } });
    expect(suffix.headers.get('content-range')).toBe('bytes 7-9/10');
    expect(await suffix.text()).toBe('789');

    const beyond = await fetch(url, { headers: { range: 'bytes=10-20' } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe('bytes */10');
  });

  it('answers 404 for media names that are not cache names, even when such a file exists', async () => {
    const strays = [
      '0123456789abcdef0123456789abcdef.mp4x12',
      '0123456789ABCDEF0123456789ABCDEF.mp4',
      '0123456789abcdef0123456789abcde.mp4',
      'notes.txt',
    ];
    for (const name of strays) await writeFile(join(dir, 'media', name), 'stray');
    const names = [...strays, '..%2fsecret.txt', `${MEDIA}/`, 'ffffffffffffffffffffffffffffffff.mp4'];
    for (const name of names) {
      const { status, body } = await get(server.url, `/media/${name}`);
      expect(status, name).toBe(404);
      expect(body, name).toBe('');
    }
  });
});

describe('map tiles', () => {
  it("serves the agent's tiles at the URL the renderer is told, and their failures", async () => {
    const asked: string[] = [];
    /** What the tile cache answers (tested against the service in src/agent/tile-cache.test.ts). */
    const tiles: TileStore = {
      async tile(z, x, y): Promise<TileAnswer> {
        asked.push(`${z}/${x}/${y}`);
        if (x === 1) return { ok: false, status: 404, message: 'this screen has no service yet' };
        return { ok: true, body: Buffer.from('a tile'), contentType: 'image/png' };
      },
    };
    const withTiles = await startWebPlayerServer({
      host,
      rendererDir: join(dir, 'renderer'),
      mediaDir: join(dir, 'media'),
      tiles,
    });
    try {
      expect(WEB_TILE_URL_TEMPLATE).toBe('/tiles/{z}/{x}/{y}');
      const tile = await fetch(new URL('/tiles/3/2/7', withTiles.url));
      expect(tile.status).toBe(200);
      expect(tile.headers.get('content-type')).toBe('image/png');
      expect(tile.headers.get('x-content-type-options')).toBe('nosniff');
      expect(await tile.text()).toBe('a tile');

      const failed = await fetch(new URL('/tiles/3/1/7', withTiles.url));
      expect(failed.status).toBe(404);
      expect(await failed.text()).toBe('this screen has no service yet');
      for (const path of ['/tiles/3/8/0', '/tiles/x/0/0', '/tiles/1/0/0/0']) {
        expect((await get(withTiles.url, path)).status, path).toBe(404);
      }
      expect(asked).toEqual(['3/2/7', '3/1/7']);
      // Without the agent's tiles, the path is the renderer's (which has no such file).
      expect((await fetch(new URL('/tiles/3/2/7', server.url))).status).toBe(404);
    } finally {
      await withTiles.close();
    }
  });
});

describe('the bridge socket', () => {
  it('answers getState with the host state', async () => {
    const client = await connect();
    expect(await client.state(7)).toEqual(STATE);
    host.state = { ...STATE, device: { tag: 'hall', name: 'Hall' } };
    expect((await client.state(8)).device).toEqual({ tag: 'hall', name: 'Hall' });
  });

  it('forwards every host message to every open page', async () => {
    const [first, second] = [await connect(), await connect()];
    const message: BridgeMessage = { kind: 'state', state: { ...STATE, stale: true } };
    host.emit(message);
    expect(await first!.next()).toEqual({ kind: 'message', message });
    expect(await second!.next()).toEqual({ kind: 'message', message });
  });

  it('sends flows in one frame to a page that takes batches, and one frame a flow to a page from before them', async () => {
    const batching = await Client.open(`${bridgeUrl}?metrics=batch`);
    clients.push(batching);
    const older = await connect();
    const flows = [
      { flow_tag: 'cpu', data: { value: 1 } },
      { flow_tag: 'mem', data: { value: 2 } },
    ];
    host.emit({ kind: 'metricsBatch', flows });
    host.emit({ kind: 'state', state: STATE });
    expect(await batching.next()).toEqual({ kind: 'message', message: { kind: 'metricsBatch', flows } });
    expect(await batching.next()).toMatchObject({ message: { kind: 'state' } });
    expect(await older.next()).toEqual({ kind: 'message', message: { kind: 'metrics', ...flows[0] } });
    expect(await older.next()).toEqual({ kind: 'message', message: { kind: 'metrics', ...flows[1] } });
    expect(await older.next()).toMatchObject({ message: { kind: 'state' } });
  });

  it('passes reports and logs to the host', async () => {
    const client = await connect();
    const display = { width: 1920, height: 1080 };
    client.send({ method: 'reportShowing', request: { showing: 'board:42', display } });
    client.send({
      method: 'reportFailure',
      request: { item: 'image:https://x.test/a.png', reason: 'broken' },
    });
    client.send({ method: 'log', request: { level: 'warn', message: 'slow frame' } });
    await client.state(1); // frames are handled in order: this answer comes after all three
    expect(host.reports).toEqual([{ showing: 'board:42', display }]);
    expect(host.failures).toEqual([{ item: 'image:https://x.test/a.png', reason: 'broken' }]);
    expect(host.logs).toEqual([{ level: 'warn', message: 'slow frame' }]);
  });

  it('tells the host "no renderer" once its last page is gone', async () => {
    const [first, second] = [await connect(), await connect()];
    first.send({ method: 'reportShowing', request: { showing: 'board:42' } });
    await first.state(1);
    first.socket.terminate();
    // The other page still shows the player: nothing changes.
    await second.state(2);
    expect(host.reports).toEqual([{ showing: 'board:42' }]);
    second.socket.close();
    await vi.waitFor(() =>
      expect(host.reports).toEqual([{ showing: 'board:42' }, { showing: 'no renderer' }]),
    );
    // A page that attaches again is shown once it reports.
    const third = await connect();
    third.send({ method: 'reportShowing', request: { showing: 'board:42' } });
    await third.state(3);
    expect(host.reports.at(-1)).toEqual({ showing: 'board:42' });
  });

  it('drops invalid frames with a warning and keeps the socket open', async () => {
    const client = await connect();
    client.send('not json');
    client.send(JSON.stringify({ method: 'shutdown' }));
    client.send(JSON.stringify({ method: 'getState', request_id: -1 }));
    client.send(JSON.stringify({ method: 'getState', request_id: 3, request: 'extra' }));
    client.send(JSON.stringify({ method: 'log', request: { level: 'warn', message: 'x', extra: 1 } }));
    client.send(JSON.stringify({ method: 'reportShowing', request: { showing: 'x'.repeat(5000) } }));
    client.send(JSON.stringify({ method: 'reportShowing' }));
    client.send(JSON.stringify({ method: 'toString', request: {} }));
    client.socket.send(Buffer.from([1, 2, 3]), { binary: true });
    expect(await client.state(2)).toEqual(STATE);
    expect(warnings).toHaveLength(9);
    expect(warnings.every((warning) => warning.includes('ignored'))).toBe(true);
    expect(host.reports).toEqual([]);
    expect(host.logs).toEqual([]);
  });

  it('accepts its own origin and refuses any other', async () => {
    const port = new URL(server.url).port;
    for (const origin of [`http://127.0.0.1:${port}`, `http://localhost:${port}`]) {
      expect(await (await connect(origin)).state(3)).toEqual(STATE);
    }
    for (const origin of [
      'http://evil.example',
      `http://evil.example:${port}`,
      `https://127.0.0.1:${port}`,
      'null',
    ]) {
      await expect(Client.open(bridgeUrl, origin)).rejects.toThrow('refused with 403');
    }
    expect(warnings).toEqual(Array.from({ length: 4 }, () => expect.stringContaining('refused')));
  });

  it('refuses sockets on other paths', async () => {
    await expect(Client.open(bridgeUrl.replace(/bridge$/, 'other'))).rejects.toThrow('refused with 404');
  });

  it('lets go of the host when it closes', async () => {
    const client = await connect();
    const closed = new Promise((resolve) => client.socket.once('close', resolve));
    expect(host.listeners.size).toBe(1);
    await server.close();
    await closed;
    expect(host.listeners.size).toBe(0);
  });
});
