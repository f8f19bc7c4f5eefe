import { randomBytes } from 'node:crypto';

let lastTime = 0;
let lastRandom = 0n;

/**
 * A new id: a short prefix naming the kind, the time in base 36 and 63 random bits. Globally
 * unique in practice, and never reused. Within one process the ids sort in the order they were
 * made: an id made in the same millisecond as the one before takes its random part plus one.
 * Listings sort by creation time and then by id, and SQLite's timestamps have milliseconds only,
 * so without this two rows made in one millisecond would list in a random order.
 */
export function newId(prefix: string): string {
  const now = Date.now();
  if (now > lastTime) {
    lastTime = now;
    // 63 bits, so that counting up within a millisecond stays within the 16 hex digits.
    lastRandom = randomBytes(8).readBigUInt64BE() >> 1n;
  } else {
    lastRandom += 1n;
  }
  return `${prefix}_${lastTime.toString(36)}${lastRandom.toString(16).padStart(16, '0')}`;
}
