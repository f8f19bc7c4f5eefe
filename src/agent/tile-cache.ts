import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, stat, unlink, utimes, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { BoundedCache, type Cached } from '../node/bounded-cache';
import type { MediaService } from './media-urls';
import type { Fetch, Logger } from './ports';

/**
 * The screen's map tiles (docs/player.md, "Maps"): each tile a map showed, fetched from the
 * service's `GET /map/tiles/{z}/{x}/{y}` with the screen's token and kept on disk, so a map
 * draws from the disk within a day and on from it, however old, while the service is away.
 * Bounded in count and bytes; the least recently used go first.
 */

export interface TileCacheDeps {
  /** A folder of the cache's own (`<cacheDir>/tiles`). */
  dir: string;
  fetch: Fetch;
  /** Milliseconds since the epoch. */
  now: () => number;
  log: Logger;
  maxTiles?: number;
  maxBytes?: number;
}

export type TileAnswer =
  | { ok: true; body: Buffer; contentType: string }
  /** 404: no such tile here (no tile source, no service yet); 502: the service failed and none is kept. */
  | { ok: false; status: 404 | 502; message: string };

/** What the shells serve tiles from (Electron's protocol, the web player's server). */
export interface TileStore {
  tile(z: number, x: number, y: number): Promise<TileAnswer>;
}

export const TILE_FRESH_MS = 24 * 60 * 60 * 1000;
export const TILE_CACHE_TILES = 5000;
export const TILE_CACHE_BYTES = 100 * 1024 * 1024;
const TILE_TIMEOUT_MS = 15_000;
/** With an old copy to fall back on, the map is not kept waiting long for a service that is away. */
const REFRESH_TIMEOUT_MS = 3_000;

const EXTENSIONS: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' };
const TYPES: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', webp: 'image/webp' };
const FILE_NAME = /^(\d{1,2})-(\d{1,7})-(\d{1,7})\.(png|jpg|webp)$/;

/** `/tiles/{z}/{x}/{y}` (the path of a tile URL the renderer loads): the tile's coordinates, or null. */
export function parseTilePath(path: string): { z: number; x: number; y: number } | null {
  const match = /^\/?tiles\/(\d{1,2})\/(\d{1,7})\/(\d{1,7})$/.exec(path);
  if (!match) return null;
  const [z, x, y] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return x < 2 ** z && y < 2 ** z ? { z, x, y } : null;
}

interface Kept {
  name: string;
  fetchedAt: number;
}

export class TileCache implements TileStore {
  private readonly dir: string;
  private service: MediaService | null = null;
  /** By `z/x/y`; read from the folder on first use. */
  private readonly kept: BoundedCache<string, Kept>;
  private loading: Promise<void> | null = null;
  private readonly underWay = new Map<string, Promise<TileAnswer>>();

  constructor(private readonly deps: TileCacheDeps) {
    this.dir = resolve(deps.dir);
    this.kept = new BoundedCache({
      maxBytes: deps.maxBytes ?? TILE_CACHE_BYTES,
      maxEntries: deps.maxTiles ?? TILE_CACHE_TILES,
      now: deps.now,
      remove: async (_key, entry) => {
        await unlink(join(this.dir, entry.name)).catch(() => undefined);
        return true;
      },
    });
  }

  /** The service tiles come from, with the screen's token; null while there is none. */
  useService(service: MediaService | null): void {
    this.service = service;
  }

  async tile(z: number, x: number, y: number): Promise<TileAnswer> {
    const key = `${z}/${x}/${y}`;
    let answer = this.underWay.get(key);
    if (!answer) {
      answer = this.answer(key).finally(() => this.underWay.delete(key));
      this.underWay.set(key, answer);
    }
    return answer;
  }

  private async answer(key: string): Promise<TileAnswer> {
    await this.index();
    const entry = this.kept.use(key);
    if (entry && this.deps.now() - entry.fetchedAt < TILE_FRESH_MS) {
      const body = await this.read(entry);
      if (body) return body;
    }
    const fetched = await this.fetchTile(key, entry ? REFRESH_TIMEOUT_MS : TILE_TIMEOUT_MS);
    if (fetched.ok) {
      await this.keep(key, fetched.body, fetched.contentType).catch((error: unknown) =>
        this.deps.log.warn(`map tiles: could not keep tile ${key}: ${String(error)}`),
      );
      return fetched;
    }
    // The service is away or failed: an old tile is better than a hole in the map.
    const old = this.kept.peek(key);
    const body = old ? await this.read(old) : null;
    return body ?? fetched;
  }

  private async fetchTile(key: string, timeoutMs: number): Promise<TileAnswer> {
    const service = this.service;
    if (!service) return { ok: false, status: 404, message: 'this screen has no service yet' };
    let response: Response;
    try {
      response = await this.deps.fetch(`${service.server.replace(/\/+$/, '')}/map/tiles/${key}`, {
        headers: { authorization: `Bearer ${service.token}` },
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      return { ok: false, status: 502, message: `the service is unreachable: ${String(error)}` };
    }
    const contentType = (response.headers.get('content-type') ?? '').split(';')[0]?.trim() ?? '';
    if (response.ok && EXTENSIONS[contentType]) {
      try {
        return { ok: true, body: Buffer.from(await response.arrayBuffer()), contentType };
      } catch (error) {
        return { ok: false, status: 502, message: `the service broke off the tile: ${String(error)}` };
      }
    }
    const said = await response.text().catch(() => '');
    const status = response.status === 404 || response.status === 400 ? 404 : 502;
    return { ok: false, status, message: `the service answered ${response.status}: ${said.slice(0, 300)}` };
  }

  private async read(entry: Kept): Promise<TileAnswer | null> {
    const body = await readFile(join(this.dir, entry.name)).catch(() => null);
    const type = TYPES[entry.name.split('.').pop() ?? ''];
    return body && type ? { ok: true, body, contentType: type } : null;
  }

  /** Written whole under a temporary name, then renamed: a crash never leaves half a tile. */
  private async keep(key: string, body: Buffer, contentType: string): Promise<void> {
    await this.index();
    const name = `${key.replaceAll('/', '-')}.${EXTENSIONS[contentType]}`;
    const temp = join(this.dir, `.tmp-${randomBytes(6).toString('hex')}`);
    await writeFile(temp, body);
    // Its time is when it was fetched, on the agent's clock: read back as such after a restart.
    const now = this.deps.now();
    await utimes(temp, now / 1000, now / 1000);
    await rename(temp, join(this.dir, name));
    const old = this.kept.set(key, { name, fetchedAt: now }, body.length);
    if (old && old.name !== name) await unlink(join(this.dir, old.name)).catch(() => undefined);
    await this.kept.evict();
  }

  private index(): Promise<void> {
    this.loading ??= this.load();
    return this.loading;
  }

  /** The folder as it is: its tiles (in order of fetching, as their last use is not kept), leftovers removed. */
  private async load(): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const found: [string, Cached<Kept>][] = [];
    for (const name of await readdir(this.dir)) {
      const path = join(this.dir, name);
      const match = FILE_NAME.exec(name);
      if (!match) {
        if (name.startsWith('.tmp-')) await unlink(path).catch(() => undefined);
        continue;
      }
      const info = await stat(path).catch(() => null);
      if (info?.isFile()) {
        const value = { name, fetchedAt: info.mtimeMs };
        found.push([
          `${match[1]}/${match[2]}/${match[3]}`,
          { value, bytes: info.size, lastUsed: info.mtimeMs },
        ]);
      }
    }
    this.kept.restore(found);
    await this.kept.evict();
  }
}
