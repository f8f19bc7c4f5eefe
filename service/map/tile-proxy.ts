import { BoundedCache } from '../../src/node/bounded-cache';

/**
 * The service's map tile proxy (docs/api/web-content.md, "Map tiles"): screens and the console
 * get their tiles from the service, which fetches each from the tile source once, names itself
 * to it, and keeps it: OpenStreetMap's tile usage policy asks for an identifying User-Agent and
 * for caching, and many screens showing the same city then cost the source one request a day.
 */

/** Where tiles come from: the service config's `mapTiles` (`--map-tiles`). */
export interface TileSource {
  urlTemplate: string;
}

export interface Tile {
  body: Buffer;
  contentType: string;
}

/** The tile source could not be asked, refused, or answered something that is not a tile. */
export class TileUpstreamError extends Error {
  override readonly name = 'TileUpstreamError';
}

export interface TileProxyOptions {
  /** Milliseconds since the epoch (the service's clock). */
  now: () => number;
  userAgent: string;
  /** Bound of the kept tiles' bytes; the least recently used go first. */
  maxBytes?: number;
  timeoutMs?: number;
}

/** A day: kept at least this long whatever the source says, as OpenStreetMap's policy asks. */
export const TILE_MIN_AGE_MS = 24 * 60 * 60 * 1000;
export const TILE_CACHE_BYTES = 64 * 1024 * 1024;
export const TILE_TIMEOUT_MS = 10_000;
/** A tile is some kilobytes; more is not a tile, and is not kept in memory. */
export const TILE_MAX_BYTES = 1024 * 1024;
const TILE_TYPES = new Set(['image/png', 'image/jpeg', 'image/webp']);

interface Kept extends Tile {
  expiresAt: number;
}

/** `{s}` (a subdomain of sources that spread their load) is always `a`: one host, one cache. */
export function tileUrl(template: string, z: number, x: number, y: number): string {
  return template
    .replaceAll('{z}', String(z))
    .replaceAll('{x}', String(x))
    .replaceAll('{y}', String(y))
    .replaceAll('{s}', 'a');
}

/** The source's `max-age` in milliseconds, or 0 when it says none. */
function maxAgeOf(cacheControl: string | null): number {
  const match = /(?:^|,)\s*max-age\s*=\s*"?(\d+)/i.exec(cacheControl ?? '');
  return match ? Number(match[1]) * 1000 : 0;
}

export class TileProxy {
  /** In memory, by `z/x/y`. */
  private readonly kept: BoundedCache<string, Kept>;
  private readonly underWay = new Map<string, Promise<Tile>>();
  private readonly timeoutMs: number;

  constructor(
    private readonly source: TileSource,
    private readonly options: TileProxyOptions,
  ) {
    this.kept = new BoundedCache({ maxBytes: options.maxBytes ?? TILE_CACHE_BYTES, now: options.now });
    this.timeoutMs = options.timeoutMs ?? TILE_TIMEOUT_MS;
  }

  /**
   * The tile, from memory while fresh, else from the source; requests for a tile under way wait
   * for that one fetch. A kept tile past its age is still answered when the source fails.
   */
  async tile(z: number, x: number, y: number): Promise<Tile> {
    const key = `${z}/${x}/${y}`;
    const kept = this.kept.use(key);
    if (kept && kept.expiresAt > this.options.now()) return kept;
    let fetching = this.underWay.get(key);
    if (!fetching) {
      fetching = this.fetchAndKeep(key, tileUrl(this.source.urlTemplate, z, x, y)).finally(() =>
        this.underWay.delete(key),
      );
      this.underWay.set(key, fetching);
    }
    try {
      return await fetching;
    } catch (error) {
      if (kept && error instanceof TileUpstreamError) return kept;
      throw error;
    }
  }

  private async fetchAndKeep(key: string, url: string): Promise<Tile> {
    const tile = await this.fetchTile(url);
    this.kept.set(key, tile, tile.body.length);
    await this.kept.evict();
    return tile;
  }

  private async fetchTile(url: string): Promise<Kept> {
    const where = new URL(url).host;
    let response: Response;
    try {
      response = await fetch(url, {
        headers: { 'user-agent': this.options.userAgent, accept: 'image/png,image/jpeg,image/webp' },
        signal: AbortSignal.timeout(this.timeoutMs),
        redirect: 'follow',
      });
    } catch (error) {
      const cause = error instanceof Error && error.name === 'TimeoutError' ? 'timed out' : 'unreachable';
      throw new TileUpstreamError(`the tile source ${where} is ${cause}`);
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new TileUpstreamError(`the tile source ${where} answered ${response.status}`);
    }
    const contentType =
      (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    if (!TILE_TYPES.has(contentType)) {
      await response.body?.cancel();
      throw new TileUpstreamError(
        `the tile source ${where} answered ${contentType || 'no content type'}, not a PNG, JPEG or WebP image`,
      );
    }
    const declared = Number(response.headers.get('content-length') ?? 0);
    if (declared > TILE_MAX_BYTES) {
      await response.body?.cancel();
      throw new TileUpstreamError(`the tile source ${where} answered a tile of ${declared} bytes`);
    }
    let body: Buffer;
    try {
      body = Buffer.from(await response.arrayBuffer());
    } catch {
      throw new TileUpstreamError(`the tile source ${where} broke off its answer`);
    }
    if (body.length > TILE_MAX_BYTES) {
      throw new TileUpstreamError(`the tile source ${where} answered a tile of ${body.length} bytes`);
    }
    const age = Math.max(maxAgeOf(response.headers.get('cache-control')), TILE_MIN_AGE_MS);
    return { body, contentType, expiresAt: this.options.now() + age };
  }
}
