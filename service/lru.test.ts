import { expect, it } from 'vitest';
import { growingLru } from './lru';

it('holds at most its number of entries, evicting the least recently used first', () => {
  const cache = growingLru<string, number>(1_000);
  for (let n = 0; n < 1_000; n++) cache.set(`k${n}`, n);
  cache.get('k0'); // used: k1 is now the least recently used
  for (let n = 1_000; n < 1_500; n++) cache.set(`k${n}`, n);
  expect(cache.size).toBe(1_000);
  expect(cache.get('k0')).toBe(0);
  expect(cache.has('k1')).toBe(false);
  expect(cache.has('k500')).toBe(false);
  expect(cache.get('k501')).toBe(501);
  expect(cache.get('k1499')).toBe(1_499);
});

it('allocates for what it holds, not for its bound', () => {
  global.gc?.();
  const before = process.memoryUsage().heapUsed;
  const caches = Array.from({ length: 20 }, () => growingLru<string, number>(100_000, { ttl: 60_000 }));
  const grown = process.memoryUsage().heapUsed - before;
  // A cache allocated for its bound: about 3 MB each (keys, values, links, ages), 60 MB for these.
  expect(grown).toBeLessThan(2 * 2 ** 20);
  expect(caches).toHaveLength(20);
});
