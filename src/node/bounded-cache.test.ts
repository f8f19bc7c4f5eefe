import { describe, expect, it } from 'vitest';
import { BoundedCache, type BoundedCacheOptions } from './bounded-cache';

let time = 0;

function cacheOf(options: Partial<BoundedCacheOptions<string, string>> = {}): BoundedCache<string, string> {
  time = 0;
  return new BoundedCache<string, string>({ maxBytes: 100, now: () => time, ...options });
}

const keys = (cache: BoundedCache<string, string>): string[] => [...cache.entries()].map(([key]) => key);

describe('BoundedCache', () => {
  it('counts its bytes and evicts the least recently used above the byte bound', async () => {
    const cache = cacheOf();
    cache.set('a', 'A', 40);
    cache.set('b', 'B', 40);
    cache.set('c', 'C', 40);
    // Above the bound until evict() is asked.
    expect(cache.usage()).toEqual({ bytes: 120, items: 3 });
    expect(await cache.evict()).toEqual([['a', 'A']]);
    expect(cache.usage()).toEqual({ bytes: 80, items: 2 });
    expect(await cache.evict()).toEqual([]);
  });

  it('orders entries by use: use() makes one the most recent, peek() does not', async () => {
    const cache = cacheOf();
    cache.set('a', 'A', 30);
    time = 1;
    cache.set('b', 'B', 30);
    cache.set('c', 'C', 30);
    time = 2;
    expect(cache.use('a')).toBe('A');
    expect(cache.peek('b')).toBe('B');
    expect(cache.use('missing')).toBeUndefined();
    expect(keys(cache)).toEqual(['b', 'c', 'a']);
    expect(cache.entries().next().value).toEqual(['b', { value: 'B', bytes: 30, lastUsed: 1 }]);

    cache.set('d', 'D', 30);
    expect(await cache.evict()).toEqual([['b', 'B']]);
    expect(keys(cache)).toEqual(['c', 'a', 'd']);
  });

  it('replaces an entry, counting only its new bytes', () => {
    const cache = cacheOf();
    cache.set('a', 'A', 30);
    cache.set('b', 'B', 30);
    expect(cache.set('a', 'A2', 50)).toBe('A');
    expect(cache.usage()).toEqual({ bytes: 80, items: 2 });
    expect(keys(cache)).toEqual(['b', 'a']);
    expect(cache.delete('a')).toBe(true);
    expect(cache.delete('a')).toBe(false);
    expect(cache.usage()).toEqual({ bytes: 30, items: 1 });
  });

  it('keeps at most maxEntries', async () => {
    const cache = cacheOf({ maxEntries: 2 });
    for (const key of ['a', 'b', 'c']) cache.set(key, key.toUpperCase(), 1);
    expect(await cache.evict()).toEqual([['a', 'A']]);
    expect(keys(cache)).toEqual(['b', 'c']);
  });

  it('passes over the entries kept, even when that leaves it above the bound', async () => {
    const cache = cacheOf({ maxBytes: 50 });
    cache.set('pinned', 'P', 40);
    cache.set('b', 'B', 40);
    cache.set('c', 'C', 40);
    expect(await cache.evict((key) => key === 'pinned' || key === 'c')).toEqual([['b', 'B']]);
    expect(keys(cache)).toEqual(['pinned', 'c']);
    expect(cache.usage().bytes).toBe(80);
  });

  it('removes the bytes of what it evicts, and keeps an entry whose bytes could not be removed', async () => {
    const removed: string[] = [];
    const cache = cacheOf({
      maxBytes: 90,
      remove: async (key) => {
        removed.push(key);
        return key !== 'stuck';
      },
    });
    cache.set('stuck', 'S', 40);
    cache.set('a', 'A', 40);
    cache.set('b', 'B', 40);
    expect(await cache.evict()).toEqual([['a', 'A']]);
    expect(removed).toEqual(['stuck', 'a']);
    expect(keys(cache)).toEqual(['stuck', 'b']);
  });

  it('runs one eviction at a time, so no entry is removed twice', async () => {
    const removed: string[] = [];
    const cache = cacheOf({
      maxBytes: 10,
      remove: async (key) => {
        removed.push(key);
        await new Promise((resolve) => setImmediate(resolve));
        return true;
      },
    });
    cache.set('a', 'A', 10);
    cache.set('b', 'B', 10);
    const [first, second] = await Promise.all([cache.evict(), cache.evict()]);
    expect(first).toEqual([['a', 'A']]);
    expect(second).toEqual([]);
    expect(removed).toEqual(['a']);
  });

  it('restores entries from disk by their last use, older than those used since start', async () => {
    const cache = cacheOf({ maxBytes: 100 });
    time = 500;
    cache.set('fresh', 'F', 30);
    cache.restore([
      ['late', { value: 'L', bytes: 30, lastUsed: 300 }],
      ['fresh', { value: 'stale', bytes: 99, lastUsed: 100 }],
      ['early', { value: 'E', bytes: 30, lastUsed: 200 }],
    ]);
    expect(keys(cache)).toEqual(['early', 'late', 'fresh']);
    expect(cache.peek('fresh')).toBe('F');
    expect(cache.usage()).toEqual({ bytes: 90, items: 3 });

    cache.set('new', 'N', 30);
    expect(await cache.evict()).toEqual([['early', 'E']]);
  });
});
