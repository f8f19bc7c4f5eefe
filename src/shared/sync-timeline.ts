/**
 * The shared timeline of a sync group (docs/sync.md): the item on screen is a function of the
 * service's time alone, so screens that never talk to each other agree on it. The playlist loops
 * from the group's epoch; each item with a duration takes its turn for that long. An item without
 * one (a video played to its end) has no place in it, since its length is known only once a
 * screen has loaded it: it is left out (docs/sync.md says to give it a duration).
 */

export interface TimedItem {
  /** Seconds on screen; null: no place on the timeline. */
  duration: number | null;
}

export interface TimelineTurn {
  /** The item's position in the playlist. */
  index: number;
  /** When its turn began and ends, on the shared clock (ms since 1970). */
  startsAt: number;
  endsAt: number;
}

/** The turn on screen at shared time `now` and the one after it; null when no item has a duration. */
export function turnAt(
  items: readonly TimedItem[],
  epochMs: number,
  now: number,
): { current: TimelineTurn; next: TimelineTurn } | null {
  const timed = items.flatMap((item, index) =>
    item.duration !== null && item.duration > 0 ? [{ index, ms: item.duration * 1000 }] : [],
  );
  const total = timed.reduce((sum, { ms }) => sum + ms, 0);
  const first = timed[0];
  if (!first || total <= 0) return null;
  const elapsed = now - epochMs;
  const loops = Math.floor(elapsed / total);
  const loopStart = epochMs + loops * total;
  let at = loopStart;
  for (let position = 0; position < timed.length; position++) {
    const entry = timed[position] ?? first;
    if (now < at + entry.ms) {
      const following = timed[position + 1];
      const next = following
        ? { index: following.index, startsAt: at + entry.ms, endsAt: at + entry.ms + following.ms }
        : { index: first.index, startsAt: at + entry.ms, endsAt: at + entry.ms + first.ms };
      return { current: { index: entry.index, startsAt: at, endsAt: at + entry.ms }, next };
    }
    at += entry.ms;
  }
  // Rounding at the loop's very end: the next loop's first turn.
  return turnAt(items, epochMs, loopStart + total);
}

/** Where a looping video of `lengthS` seconds should be `msIntoTurn` ms into its turn, in seconds. */
export function videoPositionAt(msIntoTurn: number, lengthS: number): number {
  if (!(lengthS > 0)) return 0;
  const seconds = Math.max(0, msIntoTurn) / 1000;
  return seconds % lengthS;
}

/** A difference of positions on a loop of `length`, the short way round the seam: within ±length/2. */
export function aroundLoop(difference: number, length: number): number {
  const wrapped = (((difference + length / 2) % length) + length) % length;
  return wrapped - length / 2;
}

/**
 * The playback rate that closes `errorS` seconds (positive: the video is behind) gently: a
 * correction proportional to the error, at most 5% either way. The dead band is a fraction of a
 * frame, above the reading's own noise (a page's clock read to the ms): two screens each left
 * anywhere inside it stay well within a frame of each other. Beyond `SEEK_BEYOND_S` a seek is
 * cheaper than minutes of a changed rate: the caller seeks.
 */
export const SEEK_BEYOND_S = 1;
const DEAD_BAND_S = 0.002;
const MAX_NUDGE = 0.05;
export function playbackRateFor(errorS: number): number {
  if (Math.abs(errorS) < DEAD_BAND_S) return 1;
  // The error closed with a time constant of half a second (a stall's 20 ms in about one),
  // bounded: at 2 x per second, each 250 ms look closes half of what is left, which stays stable.
  const nudge = Math.max(-MAX_NUDGE, Math.min(MAX_NUDGE, errorS * 2));
  return 1 + nudge;
}
