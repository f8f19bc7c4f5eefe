import { LRUCache } from 'lru-cache';

/**
 * An lru-cache holding at most `entries` entries, whose storage grows with what it holds. Given
 * `max`, lru-cache allocates its arrays for `max` entries at once: the service's dozen caches and
 * limiters (10,000 to 100,000 entries each) cost about 8 MB and 35 ms at every start, empty.
 * Bounded by size instead, each entry counting one, it evicts the same least recently used entry
 * past the bound and allocates as entries come.
 */
export function growingLru<K extends NonNullable<unknown>, V extends NonNullable<unknown>>(
  entries: number,
  options: Omit<LRUCache.Options<K, V, unknown>, 'max' | 'maxSize' | 'sizeCalculation'> = {},
): LRUCache<K, V> {
  return new LRUCache<K, V>({ ...options, maxSize: entries, sizeCalculation: () => 1 });
}
