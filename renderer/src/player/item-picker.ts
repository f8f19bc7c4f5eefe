import type { PlayerState } from '../../../src/shared/bridge';
import type { PlaylistItem } from '../../../src/shared/playlist';
import { resolveItem, type ItemView } from './resolve-item';

/** A playlist item that can play here now, at its position, with the view that shows it. */
export interface Playable {
  index: number;
  item: PlaylistItem;
  view: ItemView;
}

export const itemKey = (item: PlaylistItem): string => JSON.stringify(item);

/** What an item shows, whatever its settings: an edited duration is the same item, not a new one. */
export const itemIdentity = (item: PlaylistItem): string =>
  item.type === 'board' ? `board:${item.board_id}` : `${item.type}:${item.url}`;

/**
 * Finds what can play in one player state: items that failed are skipped until the next state
 * gives them another chance, and each reason to skip is logged once per state, so a looping
 * playlist does not repeat it.
 */
export class ItemPicker {
  private failures = new Map<string, string>();
  private logged = new Set<string>();

  constructor(private readonly log: (message: string) => void) {}

  /** A new state: every item gets another chance, and reasons are logged again. */
  reset(): void {
    this.failures = new Map();
    this.logged = new Set();
  }

  fail(item: PlaylistItem, reason: string): void {
    this.failures.set(itemKey(item), reason);
  }

  /** The first playable item after position `from`, skipping (and logging) what cannot play. */
  after(state: PlayerState, from: number): Playable | null {
    const items = state.playlist?.items ?? [];
    for (let step = 1; step <= items.length; step++) {
      const found = this.at(state, (((from + step) % items.length) + items.length) % items.length);
      if (found) return found;
    }
    return null;
  }

  /** The item of playlist position `index` if it can play here now, else null (logged once). */
  at(state: PlayerState, index: number): Playable | null {
    const item = state.playlist?.items[index];
    if (!item || this.failures.has(itemKey(item))) return null;
    const resolution = resolveItem(item, state);
    if ('view' in resolution) return { index, item, view: resolution.view };
    this.logOnce(`skipped item ${index + 1} of the playlist: ${resolution.skip}`);
    return null;
  }

  private logOnce(message: string): void {
    if (this.logged.has(message)) return;
    this.logged.add(message);
    this.log(message);
  }
}
