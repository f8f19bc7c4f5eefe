import { createHash } from 'node:crypto';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileStore } from './file-store';
import { MediaCache, type DownloadProgress } from './media-cache';
import { NodeCacheFiles } from './node-cache-files';
import type { Clock, Fetch, Logger, TimerHandle } from './ports';

/** Time passes only when a test says so; due timers fire then. */
class FakeClock implements Clock {
  private time = 1_700_000_000_000;
  private readonly timers = new Set<{ at: number; callback: () => void }>();

  now(): number {
    return this.time;
  }

  setTimeout(callback: () => void, ms: number): TimerHandle {
    const timer = { at: this.time + ms, callback };
    this.timers.add(timer);
    return { cancel: () => this.timers.delete(timer) };
  }

  advance(ms: number): void {
    this.time += ms;
    for (const timer of [...this.timers]) {
      if (timer.at <= this.time) {
        this.timers.delete(timer);
        timer.callback();
      }
    }
  }
}

function bytes(size: number, seed: number): Buffer {
  const buffer = Buffer.alloc(size);
  for (let i = 0; i < size; i += 1) buffer[i] = (i * 31 + seed) & 0xff;
  return buffer;
}

const PAYLOADS = new Map<string, Buffer>([
  ['/a.png', bytes(1000, 1)],
  ['/b.png', bytes(1000, 2)],
  ['/c.jpg', bytes(1000, 3)],
  ['/d.mp4', bytes(1000, 4)],
  ['/big.mp4', bytes(200_000, 5)],
  ['/gated/clip.webm', bytes(50_000, 6)],
]);
const SVG =
  '<svg xmlns="http://www.w3.org/2000/svg">' + '<rect width="1" height="1"/>'.repeat(500) + '</svg>';

async function send(res: ServerResponse, body: Buffer, headers: Record<string, string> = {}): Promise<void> {
  res.writeHead(200, { 'content-type': 'application/octet-stream', ...headers });
  for (let i = 0; i < body.length; i += 20_000) {
    await new Promise<void>((resolve, reject) =>
      res.write(body.subarray(i, i + 20_000), (error) => (error ? reject(error) : resolve())),
    );
  }
  res.end();
}

let root: string;
let server: Server;
let base: string;
let hits: Map<string, number>;
let waiters: { path: string; resolve: () => void }[];
let openGate: () => void;
let clock: FakeClock;
let infos: string[];
let fetchCalls: string[];

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'wallboard-media-'));
  hits = new Map();
  waiters = [];
  infos = [];
  fetchCalls = [];
  clock = new FakeClock();
  const gate = new Promise<void>((resolve) => (openGate = resolve));
  server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    for (const waiter of waiters.filter((w) => w.path === path)) waiter.resolve();
    const respond = async (): Promise<void> => {
      const payload = PAYLOADS.get(path);
      if (path.startsWith('/gated/')) await gate;
      if (payload) return send(res, payload, { 'content-length': String(payload.length) });
      if (path === '/no-length.bin') return send(res, bytes(30_000, 7));
      if (path === '/drawing.svg') {
        const body = gzipSync(SVG);
        return send(res, body, { 'content-length': String(body.length), 'content-encoding': 'gzip' });
      }
      if (path === '/truncated.bin') {
        // Promises 100000 bytes, then the connection dies after 40000.
        res.writeHead(200, { 'content-length': '100000' });
        res.write(bytes(40_000, 8), () => res.socket?.destroy());
        return;
      }
      if (path === '/hang.mp4') return; // never answers
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    };
    respond().catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(async () => {
  openGate();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await rm(root, { recursive: true, force: true });
});

const filesDir = (): string => join(root, 'media');
const storeDir = (): string => join(root, 'state');

const countingFetch: Fetch = (url, init) => {
  fetchCalls.push(url);
  return fetch(url, init);
};

function newCache(limitBytes = 10_000_000, fetchImpl: Fetch = countingFetch): MediaCache {
  const log: Logger = {
    info: (message) => infos.push(message),
    warn: (message) => infos.push(`WARN ${message}`),
    error: (message) => infos.push(`ERROR ${message}`),
  };
  return new MediaCache({
    files: new NodeCacheFiles(filesDir()),
    fetch: fetchImpl,
    store: new FileStore(storeDir()),
    clock,
    log,
    limitBytes,
  });
}

async function loadedCache(limitBytes?: number, fetchImpl?: Fetch): Promise<MediaCache> {
  const cache = newCache(limitBytes, fetchImpl);
  await cache.load();
  return cache;
}

function arrived(path: string): Promise<void> {
  if ((hits.get(path) ?? 0) > 0) return Promise.resolve();
  return new Promise((resolve) => waiters.push({ path, resolve }));
}

const storedIndex = async (): Promise<Record<string, { url: string }>> =>
  (await new FileStore(storeDir()).read('media-index')) as Record<string, { url: string }>;

describe('MediaCache', () => {
  it('names files by the sha256 of the URL plus a plain extension', async () => {
    const cache = await loadedCache();
    const url = 'https://cdn.example.com/path/Photo.PNG?sig=secret';
    const hash = createHash('sha256').update(url).digest('hex').slice(0, 32);

    expect(cache.nameOf(url)).toBe(`${hash}.png`);
    expect(cache.nameOf('https://x.example/video.mp4')).toMatch(/^[a-f0-9]{32}\.mp4$/);
    expect(cache.nameOf('https://x.example/stream')).toMatch(/^[a-f0-9]{32}$/);
    expect(cache.nameOf('https://x.example/file.toolong')).toMatch(/^[a-f0-9]{32}$/);
    expect(cache.nameOf('https://x.example/dir.png/file')).toMatch(/^[a-f0-9]{32}$/);
    expect(cache.nameOf('https://x.example/a.png')).not.toBe(cache.nameOf('https://x.example/b.png'));
  });

  it('downloads once, then serves the cached file', async () => {
    const cache = await loadedCache();
    const url = `${base}/a.png`;
    expect(cache.has(url)).toBe(false);

    const name = await cache.ensure(url);
    expect(name).toBe(cache.nameOf(url));
    expect(await readFile(join(filesDir(), name))).toEqual(PAYLOADS.get('/a.png'));
    expect(cache.has(url)).toBe(true);
    expect(cache.usage()).toEqual({ bytes: 1000, items: 1 });
    expect(await cache.ensure(url)).toBe(name);
    expect(hits.get('/a.png')).toBe(1);
    expect(Object.values(await storedIndex())).toEqual([{ url, bytes: 1000, last_used: clock.now() }]);
  });

  it('shares one download between concurrent calls for a URL', async () => {
    const cache = await loadedCache();
    const url = `${base}/gated/clip.webm`;
    const first: DownloadProgress[] = [];
    const second: DownloadProgress[] = [];
    const one = cache.ensure(url, (p) => first.push(p));
    await arrived('/gated/clip.webm');
    const two = cache.ensure(url, (p) => second.push(p));
    openGate();

    const [a, b] = await Promise.all([one, two]);
    expect(a).toBe(b);
    expect(hits.get('/gated/clip.webm')).toBe(1);
    expect(fetchCalls).toEqual([url]);
    expect(first.at(-1)).toEqual({ url, received: 50_000, total: 50_000 });
    expect(second.at(-1)).toEqual({ url, received: 50_000, total: 50_000 });
  });

  it('throws on a truncated download and leaves nothing behind', async () => {
    const cache = await loadedCache();
    const url = `${base}/truncated.bin`;

    await expect(cache.ensure(url)).rejects.toThrow(/truncated download: got \d+ of 100000 bytes/);
    expect(await readdir(filesDir())).toEqual([]);
    expect(cache.has(url)).toBe(false);
    expect(cache.usage()).toEqual({ bytes: 0, items: 0 });
    // A failure is not remembered: the next call tries again.
    await expect(cache.ensure(url)).rejects.toThrow(/truncated download/);
    expect(hits.get('/truncated.bin')).toBe(2);
  });

  it('throws when a body ends short of its content-length without an error', async () => {
    // A real server cannot make node's fetch end a body early without an error, so this one is fake.
    const short: Fetch = async () => new Response('12345', { headers: { 'content-length': '10' } });
    const cache = await loadedCache(undefined, short);

    await expect(cache.ensure('https://media.example/short.png')).rejects.toThrow(
      'truncated download: got 5 of 10 bytes from https://media.example/short.png',
    );
    expect(await readdir(filesDir())).toEqual([]);
  });

  it('throws on an HTTP error, naming the status', async () => {
    const cache = await loadedCache();
    await expect(cache.ensure(`${base}/missing.png`)).rejects.toThrow(/HTTP 404/);
    expect(await readdir(filesDir())).toEqual([]);
    expect(cache.has(`${base}/missing.png`)).toBe(false);
  });

  it('refuses URLs that are not http or https without fetching', async () => {
    const cache = await loadedCache();
    for (const url of ['file:///etc/passwd', 'ftp://example.com/a.png', 'data:image/png;base64,AAAA']) {
      await expect(cache.ensure(url)).rejects.toThrow(/must be http or https/);
    }
    await expect(cache.ensure('not a url')).rejects.toThrow(/not a valid URL/);
    expect(fetchCalls).toEqual([]);
  });

  it('gives up a download that stalls, by the injected clock', async () => {
    const cache = await loadedCache();
    const result = cache.ensure(`${base}/hang.mp4`);
    await arrived('/hang.mp4');
    clock.advance(30_000);

    await expect(result).rejects.toThrow(/stalled/);
    expect(await readdir(filesDir())).toEqual([]);
  });

  it('evicts the least recently used files above the limit, keeping pinned ones', async () => {
    const cache = await loadedCache(2000);
    const [a, b, c, d] = ['/a.png', '/b.png', '/c.jpg', '/d.mp4'].map((path) => `${base}${path}`) as [
      string,
      string,
      string,
      string,
    ];
    await cache.ensure(a);
    clock.advance(1000);
    await cache.ensure(b);
    clock.advance(1000);
    cache.touch(a);
    clock.advance(1000);
    // Over the limit: b is the least recently used; c, just downloaded, is pinned.
    await cache.ensure(c);
    expect([a, b, c].map((url) => cache.has(url))).toEqual([true, false, true]);
    expect(cache.usage()).toEqual({ bytes: 2000, items: 2 });
    clock.advance(1000);
    await cache.ensure(d);
    expect([a, c, d].map((url) => cache.has(url))).toEqual([false, true, true]);
    expect((await readdir(filesDir())).sort()).toEqual([cache.nameOf(c), cache.nameOf(d)].sort());
    expect(await cache.evict(new Set())).toEqual([]);

    // With a smaller limit after a restart, the pinned least recently used file stays.
    const smaller = await loadedCache(1000);
    expect(await smaller.evict(new Set([c]))).toEqual([d]);
    expect(smaller.has(c)).toBe(true);
    expect(smaller.has(d)).toBe(false);
    expect(Object.values(await storedIndex()).map((entry) => entry.url)).toEqual([c]);
    expect(await readdir(filesDir())).toEqual([cache.nameOf(c)]);
  });

  it('reports progress per chunk and logs it at most every quarter', async () => {
    const cache = await loadedCache();
    const url = `${base}/big.mp4`;
    const progress: DownloadProgress[] = [];
    await cache.ensure(url, (p) => progress.push(p));

    expect(progress.length).toBeGreaterThan(1);
    expect(progress.every((p) => p.url === url && p.total === 200_000)).toBe(true);
    const received = progress.map((p) => p.received);
    expect(received).toEqual([...received].sort((x, y) => x - y));
    expect(received.at(-1)).toBe(200_000);
    const percentLines = infos.filter((line) => line.includes('%'));
    expect(percentLines.length).toBeLessThanOrEqual(3);
    expect(new Set(percentLines).size).toBe(percentLines.length);
    expect(infos.length).toBeLessThanOrEqual(6);
  });

  it('reports a null total when the length is unknown or counts compressed bytes', async () => {
    const cache = await loadedCache();
    const chunked: DownloadProgress[] = [];
    await cache.ensure(`${base}/no-length.bin`, (p) => chunked.push(p));
    expect(chunked.at(-1)).toEqual({ url: `${base}/no-length.bin`, received: 30_000, total: null });

    const svg: DownloadProgress[] = [];
    const name = await cache.ensure(`${base}/drawing.svg`, (p) => svg.push(p));
    expect(await readFile(join(filesDir(), name), 'utf8')).toBe(SVG);
    expect(svg.at(-1)?.total).toBeNull();
  });

  it('knows its files after a restart and forgets entries whose file was deleted', async () => {
    const first = await loadedCache();
    const a = `${base}/a.png`;
    const b = `${base}/b.png`;
    await first.ensure(a);
    await first.ensure(b);
    await rm(join(filesDir(), first.nameOf(b)));
    const stray = `${'f'.repeat(32)}.png`;
    await writeFile(join(filesDir(), stray), 'not in the index');
    await writeFile(join(filesDir(), '.tmp-deadbeef'), 'left by a crash');

    const second = await loadedCache();
    expect(second.has(a)).toBe(true);
    expect(second.has(b)).toBe(false);
    expect(second.usage()).toEqual({ bytes: 1000, items: 1 });
    expect(await readdir(filesDir())).toEqual([second.nameOf(a)]);
    expect(Object.keys(await storedIndex())).toEqual([second.nameOf(a)]);
    expect(await second.ensure(a)).toBe(second.nameOf(a));
    expect(hits.get('/a.png')).toBe(1);
  });
});
