import { useSyncExternalStore } from 'react';
import type { PlayerState } from '../../../src/shared/bridge';
import type { MetricsData } from '../../../src/shared/metrics';

const EMPTY: MetricsData = Object.freeze({}) as MetricsData;

/**
 * The metrics of every flow on screen, by flow tag. Each widget subscribes to its own flow, so
 * a metric update redraws that widget and nothing else.
 */
export class FlowStore {
  private readonly data = new Map<string, MetricsData>();
  private readonly listeners = new Map<string, Set<() => void>>();

  get(tag: string): MetricsData {
    return this.data.get(tag) ?? EMPTY;
  }

  set(tag: string, data: MetricsData): void {
    if (this.data.get(tag) === data) return;
    this.data.set(tag, data);
    for (const listener of this.listeners.get(tag) ?? []) listener();
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
        if (!current || JSON.stringify(current) !== JSON.stringify(widget.flow.data)) {
          this.set(widget.flow.tag, widget.flow.data);
        }
      }
    }
  }
}

export function useFlowData(store: FlowStore, tag: string): MetricsData {
  return useSyncExternalStore(
    (listener) => store.subscribe(tag, listener),
    () => store.get(tag),
  );
}
