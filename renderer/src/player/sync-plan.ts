import type { PlayerState } from '../../../src/shared/bridge';
import { turnAt, type TimelineTurn } from '../../../src/shared/sync-timeline';
import { atSharedInstant, type SharedTime } from './shared-clock';

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

/**
 * The switch at the end of a turn, made at that instant of the shared clock (atSharedInstant).
 * Once made, the timeline is read as of that instant however early the frame (`floor`, for
 * syncTurn), so a switch made a little early does not find the old turn still on.
 */
export class TurnSwitch {
  floor = Number.NEGATIVE_INFINITY;
  private cancel: (() => void) | null = null;
  private at = Number.NaN;

  /** Makes `run` happen at `at`; armed for the same instant already, it is left as it is. */
  arm(clock: SharedTime, at: number, run: () => void): void {
    if (this.cancel && this.at === at) return;
    this.disarm();
    this.at = at;
    this.cancel = atSharedInstant(clock, at, () => {
      this.cancel = null;
      this.floor = at;
      run();
    });
  }

  disarm(): void {
    this.cancel?.();
    this.cancel = null;
  }
}
