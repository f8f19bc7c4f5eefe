// The bookkeeping of a cache bounded in bytes (and optionally in entries), least recently used
// first out: the device's media and map tiles on disk, the service's tiles in memory. What a key
// is, where the bytes live and how they are read stays with each owner.
//
// Not lru-cache (a dependency of the service): it evicts inside set(), synchronously, with a
// dispose that can neither wait for a file's removal nor refuse it, and it cannot pass over an
// entry in use. The media cache must keep what the screen shows now (pinned, even above the
// bound), wait for each file's removal, and keep an entry whose file could not be removed.

export interface BoundedCacheOptions<K, V> {
  maxBytes: number;
  maxEntries?: number;
  /** The time of a use, on the owner's clock: kept per entry, so an owner can save it and restore it. */
  now: () => number;
  /** Removes an evicted entry's bytes (its file); false when they could not be, and the entry stays. */
  remove?: (key: K, value: V) => Promise<boolean> | boolean;
}

export interface Cached<V> {
  readonly value: V;
  readonly bytes: number;
  readonly lastUsed: number;
}

interface Entry<V> {
  readonly value: V;
  readonly bytes: number;
  lastUsed: number;
}

export class BoundedCache<K, V> {
  /** In order of use, the least recent first: a Map keeps the order of insertion. */
  private readonly records = new Map<K, Entry<V>>();
  private bytes = 0;
  private evicting: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: BoundedCacheOptions<K, V>) {}

  has(key: K): boolean {
    return this.records.has(key);
  }

  /** The value without counting a use. */
  peek(key: K): V | undefined {
    return this.records.get(key)?.value;
  }

  /** The value, which becomes the most recently used. */
  use(key: K): V | undefined {
    const record = this.records.get(key);
    if (record === undefined) return undefined;
    record.lastUsed = this.options.now();
    this.put(key, record);
    return record.value;
  }

  /** Keeps `value` as the most recently used; evict() brings the cache back within its bounds. */
  set(key: K, value: V, bytes: number): V | undefined {
    const old = this.peek(key);
    this.put(key, { value, bytes, lastUsed: this.options.now() });
    return old;
  }

  delete(key: K): boolean {
    const record = this.records.get(key);
    if (record === undefined) return false;
    this.records.delete(key);
    this.bytes -= record.bytes;
    return true;
  }

  /** Every entry, the least recently used first. */
  entries(): IterableIterator<[K, Cached<V>]> {
    return this.records.entries();
  }

  usage(): { bytes: number; items: number } {
    return { bytes: this.bytes, items: this.records.size };
  }

  /**
   * Takes back what an earlier run kept (read from its disk), in order of their last use and
   * older than every entry used since start; a key used since start keeps its newer entry.
   */
  restore(entries: Iterable<[K, Cached<V>]>): void {
    const since = [...this.records];
    const restored = [...entries]
      .filter(([key]) => !this.records.has(key))
      .sort(([, a], [, b]) => a.lastUsed - b.lastUsed);
    for (const [key, { value, bytes, lastUsed }] of restored) this.put(key, { value, bytes, lastUsed });
    for (const [key, entry] of since) this.put(key, entry);
  }

  /**
   * Removes the least recently used entries, passing over those `keep` holds, until the cache is
   * within its bounds; one eviction at a time. Resolves with what it removed.
   */
  evict(keep: (key: K, value: V) => boolean = () => false): Promise<[K, V][]> {
    const run = this.evicting.catch(() => undefined).then(() => this.evictNow(keep));
    this.evicting = run;
    return run;
  }

  private async evictNow(keep: (key: K, value: V) => boolean): Promise<[K, V][]> {
    const removed: [K, V][] = [];
    for (const [key, record] of [...this.records]) {
      if (!this.overBounds()) break;
      // Replaced while an earlier removal was awaited: no longer what was listed.
      if (this.records.get(key) !== record || keep(key, record.value)) continue;
      if (this.options.remove && !(await this.options.remove(key, record.value))) continue;
      this.delete(key);
      removed.push([key, record.value]);
    }
    return removed;
  }

  private overBounds(): boolean {
    const { maxBytes, maxEntries = Infinity } = this.options;
    return this.bytes > maxBytes || this.records.size > maxEntries;
  }

  private put(key: K, record: Entry<V>): void {
    this.delete(key);
    this.records.set(key, record);
    this.bytes += record.bytes;
  }
}
