import { z } from 'zod';
import { BoundedCache, type Cached } from '../node/bounded-cache';
import {
  cacheNameOf,
  checkUrl,
  describe,
  isLibraryUrl,
  isNameOf,
  mediaRequest,
  type MediaService,
} from './media-urls';
import type { CacheFiles, Clock, Fetch, KeyValueStore, Logger, TimerHandle } from './ports';

const INDEX_KEY = 'media-index';
/** A download that gets no answer, or no bytes, for this long is given up; a slow but moving one is not. */
const STALL_TIMEOUT_MS = 30_000;
/** touch() writes the index at most this often: the order only matters for eviction, which is not urgent. */
const TOUCH_PERSIST_MS = 60_000;

const entrySchema = z.object({
  url: z.string(),
  bytes: z.number().int().nonnegative(),
  last_used: z.number(),
});
type Entry = z.infer<typeof entrySchema>;

export interface DownloadProgress {
  url: string;
  received: number;
  /** From content-length; null when the server did not say or sent the file compressed. */
  total: number | null;
}

export type ProgressListener = (progress: DownloadProgress) => void;

export interface MediaCacheDeps {
  files: CacheFiles;
  fetch: Fetch;
  store: KeyValueStore;
  clock: Clock;
  log: Logger;
  limitBytes: number;
}

interface Download {
  done: Promise<string>;
  listeners: Set<ProgressListener>;
}

/**
 * Images and videos of the boards, downloaded once and kept on disk so a screen goes on showing
 * them through network outages and restarts. The index (store key 'media-index') maps each file
 * name to its URL, size and last use, for least-recently-used eviction above `limitBytes`.
 */
export class MediaCache {
  /** Each file's URL by its name, with its size and last use. */
  private readonly index: BoundedCache<string, string>;
  /** In-flight downloads by file name, so concurrent ensure() calls of a URL share one. */
  private readonly downloads = new Map<string, Download>();
  private writing: Promise<void> = Promise.resolve();
  private dirty = false;
  private persistedAt = -Infinity;
  private service: MediaService | null = null;

  constructor(private readonly deps: MediaCacheDeps) {
    this.index = new BoundedCache({
      maxBytes: deps.limitBytes,
      now: () => deps.clock.now(),
      // A file that cannot be removed stays in the index, to be tried again at the next eviction.
      remove: (name, url) =>
        this.deps.files.remove(name).then(
          () => true,
          (error: unknown) => {
            this.deps.log.warn(`media cache: cannot remove ${name} (${describe(url)}): ${messageOf(error)}`);
            return false;
          },
        ),
    });
  }

  /** Reads the index and makes it agree with the disk, which wins: a crash can leave either behind. */
  async load(): Promise<void> {
    const stored = this.parseIndex(await this.deps.store.read(INDEX_KEY));
    const onDisk = await this.deps.files.list();
    const sizes = new Map(onDisk.map((file) => [file.name, file.bytes]));
    const found: [string, Cached<string>][] = [];
    let dropped = 0;
    for (const [name, { url, bytes: stated, last_used }] of stored.entries) {
      // Entries set since start-up (a download that raced load()) are newer than the stored ones.
      if (this.index.has(name)) continue;
      const bytes = sizes.get(name);
      if (bytes === undefined) {
        dropped += 1;
      } else {
        if (bytes !== stated) this.dirty = true;
        found.push([name, { value: url, bytes, lastUsed: last_used }]);
      }
    }
    this.index.restore(found);
    let strays = 0;
    for (const { name } of onDisk) {
      if (this.index.has(name) || this.downloads.has(name)) continue;
      await this.deps.files.remove(name);
      strays += 1;
    }
    const { bytes, items } = this.usage();
    this.deps.log.info(
      `media cache: ${items} files, ${bytes} bytes` +
        (dropped > 0 ? `; forgot ${dropped} entries whose file is gone` : '') +
        (stored.invalid > 0 ? `; ignored ${stored.invalid} invalid entries` : '') +
        (strays > 0 ? `; removed ${strays} files missing from the index` : ''),
    );
    if (dropped > 0 || strays > 0 || stored.invalid > 0) this.dirty = true;
    await this.persist();
  }

  /**
   * The cache file name of a URL: 32 hex digits of its sha256, then its extension if it has a
   * plain one; a library medium's file has the extension of the type it was served as.
   */
  nameOf(url: string): string {
    if (isLibraryUrl(url))
      for (const [name, { value }] of this.index.entries()) if (value === url) return name;
    return cacheNameOf(url);
  }

  /** The service library media are fetched from, with the token sent to it alone; null: none yet. */
  useService(service: MediaService | null): void {
    this.service = service;
  }

  has(url: string): boolean {
    return this.index.has(this.nameOf(url));
  }

  usage(): { bytes: number; items: number } {
    return this.index.usage();
  }

  /** The cache file name of `url`, downloading it first if needed. */
  async ensure(url: string, onProgress?: ProgressListener): Promise<string> {
    checkUrl(url);
    const name = this.nameOf(url);
    if (this.index.has(name)) {
      this.touch(url);
      return name;
    }
    let download = this.downloads.get(name);
    if (download === undefined) {
      const listeners = new Set<ProgressListener>();
      download = {
        listeners,
        done: this.download(url, name, listeners).finally(() => this.downloads.delete(name)),
      };
      this.downloads.set(name, download);
    }
    if (onProgress) download.listeners.add(onProgress);
    return download.done;
  }

  touch(url: string): void {
    if (this.index.use(this.nameOf(url)) === undefined) return;
    this.dirty = true;
    if (this.deps.clock.now() - this.persistedAt >= TOUCH_PERSIST_MS) {
      this.persist().catch((error: unknown) =>
        this.deps.log.warn(`media cache: cannot save the index: ${messageOf(error)}`),
      );
    }
  }

  /** Writes out what touch() left in memory only; for a clean shutdown. */
  flush(): Promise<void> {
    return this.persist();
  }

  /** Removes least-recently-used files, never those of `pinned` URLs, until within the limit. */
  async evict(pinned: ReadonlySet<string>): Promise<string[]> {
    const removed = await this.index.evict((_name, url) => pinned.has(url));
    if (removed.length > 0) {
      this.dirty = true;
      const { bytes, items } = this.usage();
      this.deps.log.info(`media cache: evicted ${removed.length} files; ${items} files, ${bytes} bytes left`);
    }
    await this.persist();
    return removed.map(([, url]) => url);
  }

  private async download(url: string, name: string, listeners: Set<ProgressListener>): Promise<string> {
    const { files, log } = this.deps;
    const where = describe(url);
    const controller = new AbortController();
    const stalled = new Error(
      `download of ${where} stalled: nothing received for ${STALL_TIMEOUT_MS / 1000} s`,
    );
    const request = mediaRequest(url, this.service);
    const timer = watchdog(this.deps.clock, STALL_TIMEOUT_MS, () => controller.abort(stalled));
    let temp: { path: string; bytes: number };
    let saved = name;
    try {
      let response: Response;
      try {
        response = await this.deps.fetch(request.href, {
          signal: controller.signal,
          // The length check below needs the bytes as sent; compressed answers are still accepted.
          headers: { ...request.headers, 'accept-encoding': 'identity' },
        });
      } catch (error) {
        throw controller.signal.aborted
          ? stalled
          : new Error(`download of ${where} failed: ${messageOf(error)}`);
      }
      if (!response.ok) {
        await response.body?.cancel().catch(() => undefined);
        throw new Error(
          `download of ${where} failed: HTTP ${response.status} ${response.statusText}`.trimEnd(),
        );
      }
      if (response.body === null) throw new Error(`download of ${where} failed: the answer has no body`);
      if (isLibraryUrl(url)) saved = cacheNameOf(url, response.headers.get('content-type'));
      timer.rearm();
      const total = expectedLength(response);
      log.info(`media cache: downloading ${where}${total === null ? '' : ` (${total} bytes)`}`);
      const report = this.reporter(url, total, listeners);
      let received = 0;
      try {
        temp = await files.writeTemp(chunksOf(response.body), (bytes) => {
          received = bytes;
          timer.rearm();
          report(bytes);
        });
      } catch (error) {
        if (controller.signal.aborted) throw stalled;
        if (total !== null && received < total) throw truncated(where, received, total, error);
        throw new Error(`download of ${where} failed after ${received} bytes: ${messageOf(error)}`, {
          cause: error,
        });
      }
      if (total !== null && temp.bytes !== total) {
        await files.remove(temp.path);
        throw truncated(where, temp.bytes, total);
      }
    } finally {
      timer.stop();
    }
    try {
      await files.commit(temp.path, saved);
    } catch (error) {
      await files.remove(temp.path).catch(() => undefined);
      throw error;
    }
    this.index.set(saved, url, temp.bytes);
    this.dirty = true;
    log.info(`media cache: saved ${where} as ${saved} (${temp.bytes} bytes)`);
    try {
      await this.evict(new Set([url]));
    } catch (error) {
      // The file is in place and indexed in memory: the next write of the index will record it.
      log.warn(`media cache: cannot save the index: ${messageOf(error)}`);
    }
    return saved;
  }

  /** Progress to every listener per chunk, and to the log at most once per quarter of the file. */
  private reporter(
    url: string,
    total: number | null,
    listeners: Set<ProgressListener>,
  ): (bytes: number) => void {
    let quarter = 0;
    return (received) => {
      for (const listener of listeners) {
        try {
          listener({ url, received, total });
        } catch (error) {
          this.deps.log.warn(`media cache: a progress listener failed: ${messageOf(error)}`);
        }
      }
      if (total === null || total === 0) return;
      const reached = Math.floor((received * 4) / total);
      if (reached > quarter && reached < 4) {
        quarter = reached;
        this.deps.log.info(`media cache: ${describe(url)} ${reached * 25}% (${received} of ${total} bytes)`);
      }
    };
  }

  /** Writes the index once any write in progress is done, so writes never overtake each other. */
  private persist(): Promise<void> {
    const run = this.writing
      .catch(() => undefined)
      .then(async () => {
        if (!this.dirty) return;
        this.dirty = false;
        this.persistedAt = this.deps.clock.now();
        const snapshot = Object.fromEntries(
          Array.from(this.index.entries(), ([name, { value: url, bytes, lastUsed }]) => [
            name,
            { url, bytes, last_used: lastUsed },
          ]),
        );
        try {
          await this.deps.store.write(INDEX_KEY, snapshot);
        } catch (error) {
          this.dirty = true;
          throw error;
        }
      });
    this.writing = run;
    return run;
  }

  /** Keeps the well-formed entries of a stored index whose name still matches their URL. */
  private parseIndex(raw: unknown): { entries: Map<string, Entry>; invalid: number } {
    const entries = new Map<string, Entry>();
    let invalid = 0;
    if (raw === undefined) return { entries, invalid };
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      this.deps.log.warn('media cache: the stored index is not an object; starting empty');
      return { entries, invalid: 1 };
    }
    for (const [name, value] of Object.entries(raw)) {
      const parsed = entrySchema.safeParse(value);
      if (parsed.success && isNameOf(name, parsed.data.url)) {
        entries.set(name, parsed.data);
      } else {
        invalid += 1;
      }
    }
    return { entries, invalid };
  }
}

/** Calls `onStall` unless rearmed within `ms`; on the injected clock so tests decide when time passes. */
function watchdog(clock: Clock, ms: number, onStall: () => void): { rearm(): void; stop(): void } {
  let timer: TimerHandle | undefined;
  const stop = (): void => timer?.cancel();
  const rearm = (): void => {
    stop();
    timer = clock.setTimeout(onStall, ms);
  };
  rearm();
  return { rearm, stop };
}

/** The size promised by content-length, when it describes the bytes fetch hands over. */
function expectedLength(response: Response): number | null {
  const encoding = response.headers.get('content-encoding');
  // fetch decompresses, and content-length then counts the compressed bytes.
  if (encoding !== null && encoding.trim().toLowerCase() !== 'identity') return null;
  const header = response.headers.get('content-length')?.trim();
  return header !== undefined && /^\d+$/.test(header) ? Number(header) : null;
}

function truncated(where: string, got: number, total: number, cause?: unknown): Error {
  const reason = cause === undefined ? '' : ` (${messageOf(cause)})`;
  return new Error(`truncated download: got ${got} of ${total} bytes from ${where}${reason}`, { cause });
}

/** The body as chunks; stopping early cancels it, so an abandoned download does not keep its connection. */
async function* chunksOf(body: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = body.getReader();
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        finished = true;
        return;
      }
      yield value;
    }
  } finally {
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

function messageOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // fetch's own errors say little ("terminated", "fetch failed"); the cause says what happened.
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`;
}
