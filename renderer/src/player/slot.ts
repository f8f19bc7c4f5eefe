import type { PlaylistItem } from '../../../src/shared/playlist';
import type { ItemView } from './resolve-item';

// What the sequencer (sequencer.ts) shows and hears: the item layers and the play reports read
// its slots; the player passes its options and output.

/** One mounting of a playlist item. */
export interface Slot {
  /** New for each mounting: layers are keyed by it, so the prepared one is shown without a remount. */
  readonly id: number;
  /** Position in the playlist as it is now. */
  readonly index: number;
  readonly item: PlaylistItem;
  readonly view: ItemView;
  /** Left the playlist (or failed) while on screen: it stays only until its successor is ready. */
  readonly gone: boolean;
  /** In a sync group: when its turn began on the shared clock (a video's position follows it). */
  readonly turnStart?: number;
}

export interface SequencerSnapshot {
  /** On screen; null shows the waiting screen. */
  readonly current: Slot | null;
  /** Mounted hidden behind the current one until it is ready and its turn comes. */
  readonly next: Slot | null;
  /** Notifications of these channels are shown (see resolve-item.ts). */
  readonly channels: ReadonlySet<string>;
}

export interface SequencerOptions {
  /** How long before its turn the next item is mounted. */
  prepareLeadMs?: number;
  /** A prepared item not ready by then is skipped. */
  readyTimeoutMs?: number;
}

export interface SequencerOutput {
  log(level: 'info' | 'warn', message: string): void;
  /** What is on screen, at each switch (see describeView). */
  report(showing: string): void;
  /** An item that could not be shown (see describeView), and why: the heartbeats carry it. */
  failed(item: string, reason: string): void;
}

export const PREPARE_LEAD_MS = 3000;
export const READY_TIMEOUT_MS = 20_000;
