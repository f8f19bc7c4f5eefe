import { useSyncExternalStore } from 'react';
import type { PlayerState } from '../../../src/shared/bridge';
import type { MetricsData } from '../../../src/shared/metrics';

const EMPTY: MetricsData = Object.freeze({}) as MetricsData;
/** Widgets redrawn in one frame at most: the rest wait a frame, so bursts spread out. */
const MAX_PER_FRAME = 8;

export interface FlowStoreOptions {
  /**
   * `frame`: widgets hear of new data once per animation frame (eight at most per frame), and
   * each at most once per `minIntervalMs`, the newest data winning. A TV shows a number for a person to read: a
   * thousand updates a second then cost a few redraws per widget, not a thousand.
   * `sync` (the default): at once, for tests and tools.
   */
  mode?: 'frame' | 'sync';
  minIntervalMs?: number;
}

/**
 * The metrics of every flow on screen, by flow tag. Each widget subscribes to its own flow, so
 * a metric update redraws that widget and nothing else.
 */
export class FlowStore {
  private readonly data = new Map<string, MetricsData>();
  private readonly listeners = new Map<string, Set<() => void>>();
  /** Tags whose new data the widgets have not heard of yet. */
  private readonly pending = new Set<string>();
  private readonly lastNotified = new Map<string, number>();
  private frame: number | null = null;
  private readonly mode: 'frame' | 'sync';
  private readonly minIntervalMs: number;

  constructor(options: FlowStoreOptions = {}) {
    this.mode = options.mode ?? 'sync';
    this.minIntervalMs = options.minIntervalMs ?? 250;
  }

  get(tag: string): MetricsData {
    return this.data.get(tag) ?? EMPTY;
  }

  set(tag: string, data: MetricsData): void {
    if (this.data.get(tag) === data) return;
    this.data.set(tag, data);
    if (this.mode === 'sync') {
      this.notify(tag);
      return;
    }
    this.pending.add(tag);
    this.schedule();
  }

  subscribe(tag: string, listener: () => void): () => void {
    let set = this.listeners.get(tag);
    if (!set) this.listeners.set(tag, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(tag);
    };
  }

  /** Takes the data of every widget of a new state; flows whose data did not change stay quiet. */
  load(state: Pick<PlayerState, 'boards'>): void {
    for (const board of Object.values(state.boards)) {
      for (const widget of board.widgets) {
        const current = this.data.get(widget.flow.tag);
        if (current === widget.flow.data) continue;
        if (!current || JSON.stringify(current) !== JSON.stringify(widget.flow.data)) {
          this.set(widget.flow.tag, widget.flow.data);
        }
      }
    }
  }

  private notify(tag: string): void {
    for (const listener of this.listeners.get(tag) ?? []) listener();
  }

  private schedule(): void {
    if (this.frame !== null) return;
    this.frame = requestAnimationFrame((now) => this.flush(now));
  }

  private flush(now: number): void {
    this.frame = null;
    let budget = MAX_PER_FRAME;
    // Oldest first: a tag goes to the back of the set when it is added again.
    for (const tag of this.pending) {
      if (budget === 0) break;
      if (now - (this.lastNotified.get(tag) ?? -Infinity) < this.minIntervalMs) continue;
      this.pending.delete(tag);
      this.lastNotified.set(tag, now);
      this.notify(tag);
      budget -= 1;
    }
    if (this.pending.size > 0) this.schedule();
  }
}

export function useFlowData(store: FlowStore, tag: string): MetricsData {
  return useSyncExternalStore(
    (listener) => store.subscribe(tag, listener),
    () => store.get(tag),
  );
}
