import type { HelloAck, RealtimeEvent } from '../../src/shared/events';
import type { EventRepository, EventSummary } from '../repositories/events';

/**
 * The bounds of one hello's answer. A device that missed more than fits is told to resync (fetch
 * its state over HTTP) instead: the answer stays small whatever was missed, and so does what the
 * service holds in memory to make it.
 */
export const REPLAY_LIMITS = {
  /** Payload bytes in one answer (what the log holds, a little over what JSON sends). */
  bytes: 1024 * 1024,
  /** Events in one answer, after collapsing. */
  events: 1000,
  /** Missed events looked at (ids, types and sizes only, no payloads) before giving up. */
  scanned: 10_000,
  /** What an event costs besides its payload: its id and type in the answer. */
  overheadBytes: 64,
} as const;

/**
 * A newer event of the same type about the same subject supersedes an older one: `metrics.changed`
 * carries the flow's whole data as written, so its latest is the flow's current data; the others
 * only make the device fetch the thing again. Notifications each say something of their own.
 */
const COLLAPSIBLE = new Set<EventSummary['type']>([
  'metrics.changed',
  'flow.changed',
  'playlist.changed',
  'board.changed',
  'device.changed',
]);

/** What to send of `missed`: every notification, and the latest event per type and subject. */
export function collapse(missed: readonly EventSummary[]): EventSummary[] {
  const latest = new Map<string, EventSummary>();
  const kept: EventSummary[] = [];
  for (const event of missed) {
    if (COLLAPSIBLE.has(event.type) && event.subject !== null) {
      latest.set(`${event.type}\u0000${event.subject}`, event);
    } else {
      kept.push(event);
    }
  }
  return [...kept, ...latest.values()].sort((a, b) => a.id - b.id);
}

/**
 * Whether a notification's time on screen is over at `now` (milliseconds): it was created more
 * than its `duration` ago. Notifications are about now (docs/player.md): a screen that was away
 * while one would have been on screen does not show it late, its own or a channel's alike.
 */
export function notificationEnded(event: RealtimeEvent, now: number): boolean {
  if (event.type !== 'notification.created') return false;
  const { created_at: createdAt, duration } = event.notification;
  return Date.parse(createdAt) + duration * 1000 <= now;
}

/**
 * The answer to a hello that saw events up to `after`, for a socket in `rooms`, from a node that
 * has pushed every event up to `delivered` to its sockets (realtime/delivery.ts) and pushes the
 * later ones in their turn. The events are the collapsed missed events, oldest first, each with
 * its own id (so a device applies them as it would have live), but the notifications whose time
 * on screen is over at `now`; `resync` when they are no longer all kept or do not fit
 * REPLAY_LIMITS. Nothing is answered past the first hole in the ids after `delivered`, nor given
 * as the last id: an earlier id may still commit there (repositories/events.ts), and the device
 * would drop it as older than one it had.
 */
export async function replay(
  log: EventRepository,
  after: number | null,
  rooms: readonly string[],
  delivered: number,
  now: number,
): Promise<Omit<HelloAck, 'error'>> {
  const { first, last } = await log.bounds();
  const upTo = await log.contiguousAfter(delivered);
  const resync = { resync: true, events: [], last_event_id: upTo };
  if (after === null || after > last || (first !== null && after < first - 1)) return resync;
  const missed = await log.summariesSince(after, upTo, rooms, REPLAY_LIMITS.scanned + 1);
  if (missed.length > REPLAY_LIMITS.scanned) return resync;
  const kept = collapse(missed);
  const bytes = kept.reduce((sum, event) => sum + event.bytes + REPLAY_LIMITS.overheadBytes, 0);
  if (kept.length > REPLAY_LIMITS.events || bytes > REPLAY_LIMITS.bytes) return resync;
  const events = await log.byIds(kept.map((event) => event.id));
  // Pruned between the two reads: what is left would have a hole in it.
  if (events.length < kept.length) return resync;
  // Left out, not held back: the last id answered covers them, so they are never sent later.
  const due = events.filter((event) => !notificationEnded(event, now));
  return { resync: false, events: due, last_event_id: Math.max(upTo, after) };
}

/**
 * At most `limit` tasks at once; the others wait their turn, first come first served. Replays
 * go through one, so however many devices say hello together, the payloads held in memory at
 * once stay within `limit` x REPLAY_LIMITS.bytes.
 */
export class Gate {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active += 1;
    try {
      return await task();
    } finally {
      // The slot passes straight to the next in line, so a newcomer cannot take it first.
      const next = this.waiting.shift();
      if (next) next();
      else this.active -= 1;
    }
  }
}
