import type { PlayerState } from '../../../src/shared/bridge';
import { turnAt, type TimelineTurn } from '../../../src/shared/sync-timeline';
import type { SharedTime } from './shared-clock';

/** Where a sync group's timeline stands: the shared time read, the turn on now and the next. */
export interface SyncTurn {
  now: number;
  current: TimelineTurn;
  next: TimelineTurn;
}

/**
 * The turn of the screen's sync group at the shared clock's now (never before `floor`, the instant
 * of a switch made half a frame early); null outside a sync group, while the clock is unknown, or
 * when no item of the playlist has a duration (each item then plays from now, as outside a group).
 */
export function syncTurn(state: PlayerState, clock: SharedTime, floor: number): SyncTurn | null {
  const sync = state.settings?.sync;
  const items = state.playlist?.items;
  if (!sync || !items) return null;
  const read = clock.now();
  if (read === null) return null;
  const now = Math.max(read, floor);
  const turn = turnAt(items, sync.epoch_ms, now);
  return turn ? { now, ...turn } : null;
}
