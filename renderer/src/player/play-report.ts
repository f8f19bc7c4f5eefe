import type { PlayReport } from '../../../src/shared/play';
import type { SequencerSnapshot, Slot } from './slot';

/** An item that stays on screen (the only one that can play, a video looping) is cut into turns of at most this. */
export const TURN_MAX_MS = 3_600_000;

interface Watched {
  subscribe(listener: () => void): () => void;
  getSnapshot(): SequencerSnapshot;
}

/** What a play record says of an item; the board's channel is the one shown (null: its first). */
function describe(slot: Slot): Pick<PlayReport, 'type' | 'board_id' | 'url' | 'channel_id'> {
  const { item, view } = slot;
  if (item.type === 'board') {
    const first = view.kind === 'board' ? (view.board.channel_ids[0] ?? null) : null;
    return { type: 'board', board_id: item.board_id, url: null, channel_id: item.channel_id ?? first };
  }
  return { type: item.type, board_id: null, url: item.url, channel_id: null };
}

/**
 * Proof of play: reports each item when it leaves the screen, with when it came and went (the
 * screen's clock). An item that stays on screen turn after turn (the only playable one) is
 * reported once per turn of its duration, at most TURN_MAX_MS; whatever is on screen when the
 * page goes away (a reload) is reported up to then. Returns how to stop, which reports the item on
 * screen up to that moment.
 */
export function reportPlays(
  sequencer: Watched,
  report: (play: PlayReport) => void,
  now: () => number = () => Date.now(),
): () => void {
  let shown: { slot: Slot; started: number } | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const end = (): void => {
    if (!shown) return;
    const ended = now();
    // Nothing was on screen for any time (a mount undone at once, as React's strict mode does).
    if (ended <= shown.started) {
      shown = null;
      return;
    }
    report({
      ...describe(shown.slot),
      started_at: new Date(shown.started).toISOString(),
      ended_at: new Date(ended).toISOString(),
    });
    shown = null;
  };

  const turnMs = (slot: Slot): number => {
    const seconds = slot.item.duration;
    return seconds === null || seconds === undefined ? TURN_MAX_MS : Math.min(seconds * 1000, TURN_MAX_MS);
  };

  const start = (slot: Slot | null): void => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    if (!slot) return;
    shown = { slot, started: now() };
    // Each turn is as long as the item's duration when it began (an edited one counts from the next).
    const lap = (turn: Slot): void => {
      timer = setTimeout(() => {
        // The mounting is known by its id: a new state that redraws it (the board edited)
        // replaces its slot.
        const latest = shown?.slot.id === turn.id ? shown.slot : null;
        // A successor waiting to come on screen ends this turn by itself.
        if (latest && sequencer.getSnapshot().next === null) {
          end();
          shown = { slot: latest, started: now() };
        }
        lap(latest ?? turn);
      }, turnMs(turn));
    };
    lap(slot);
  };

  const update = (): void => {
    const current = sequencer.getSnapshot().current;
    // The same mounting goes on: its view may have been refreshed by a new state.
    if (current?.id === shown?.slot.id) {
      if (current && shown) shown = { ...shown, slot: current };
      return;
    }
    end();
    start(current);
  };

  // The page goes away (reloaded, closed): what it showed is reported up to now.
  const leave = (): void => {
    const slot = shown?.slot ?? null;
    end();
    if (slot) shown = { slot, started: now() };
  };

  update();
  const unsubscribe = sequencer.subscribe(update);
  window.addEventListener('pagehide', leave);
  return () => {
    unsubscribe();
    window.removeEventListener('pagehide', leave);
    end();
    start(null);
  };
}
