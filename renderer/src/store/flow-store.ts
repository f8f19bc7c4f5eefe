import { useSyncExternalStore } from 'react';
import { flushSync } from 'react-dom';
import { METRICS_MIN_INTERVAL_MS, type PlayerState } from '../../../src/shared/bridge';
import type { MetricsData } from '../../../src/shared/metrics';

const EMPTY: MetricsData = Object.freeze({}) as MetricsData;
/** Widgets redrawn in one frame at most: the rest wait a frame, so bursts spread out. */
const MAX_PER_FRAME = 8;
/**
 * Milliseconds of a frame's 16.7 that redrawing widgets may take before the rest wait a frame: a
 * slow display computer redraws each widget less often instead of dropping frames, and leaves the
 * frame time to style, paint and the compositor.
 */
const FRAME_BUDGET_MS = 6;
/** A frame this long after one that redrew widgets came late: 1.5 frames at 60 Hz. */
const LATE_FRAME_MS = 25;

export interface FlowStoreOptions {
  /**
   * `frame`: widgets hear of new data once per animation frame (eight at most per frame, and no
   * more once their redraws took `frameBudgetMs`), and each at most once per `minIntervalMs`, the
   * newest data winning. A TV shows a number for a person to read: a thousand updates a second
   * then cost a few redraws per widget, not a thousand.
   * A frame more than `lateFrameMs` after one that redrew came late: the next draws none and
   * the ones after one each, until a frame that redrew is on time again.
   * `sync` (the default): at once, for tests and tools.
   */
  mode?: 'frame' | 'sync';
  minIntervalMs?: number;
  frameBudgetMs?: number;
  lateFrameMs?: number;
}

/**
 * The metrics of every flow on screen, by flow tag. Each widget subscribes to its own flow, so
 * a metric update redraws that widget and nothing else.
 */
export class FlowStore {
  private readonly data = new Map<string, MetricsData>();
  /** The JSON text of each flow's data, to tell a repeated value from a new one. */
  private readonly texts = new Map<string, string>();
  private readonly listeners = new Map<string, Set<() => void>>();
  /** Tags whose new data the widgets have not heard of yet. */
  private readonly pending = new Set<string>();
  private readonly lastNotified = new Map<string, number>();
  private frame: number | null = null;
  /** When the last frame callback ran, and whether it redrew widgets. */
  private lastFrameAt = -Infinity;
  private lastFrameRedrew = false;
  /** Whether frames that redrew came late: then one widget a frame, every other frame. */
  private behind = false;
  private readonly mode: 'frame' | 'sync';
  private readonly minIntervalMs: number;
  private readonly frameBudgetMs: number;
  private readonly lateFrameMs: number;

  constructor(options: FlowStoreOptions = {}) {
    this.mode = options.mode ?? 'sync';
    this.minIntervalMs = options.minIntervalMs ?? METRICS_MIN_INTERVAL_MS;
    this.frameBudgetMs = options.frameBudgetMs ?? FRAME_BUDGET_MS;
    this.lateFrameMs = options.lateFrameMs ?? LATE_FRAME_MS;
  }

  get(tag: string): MetricsData {
    return this.data.get(tag) ?? EMPTY;
  }

  /**
   * Takes a flow's data; data equal to what its widgets show already (a sensor repeating its value,
   * a state that did not change it) wakes no one, so an unchanged widget is not drawn again.
   */
  set(tag: string, data: MetricsData): void {
    if (this.data.get(tag) === data) return;
    const text = JSON.stringify(data);
    if (this.texts.get(tag) === text) return;
    this.data.set(tag, data);
    this.texts.set(tag, text);
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
      for (const widget of board.widgets) this.set(widget.flow.tag, widget.flow.data);
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
    // The budget below sees the redraws' script, not what they cost the frame after it (style,
    // paint, compositing): the frame's own lateness does. A display computer that cannot keep up
    // then redraws one widget every other frame, and the frames between keep animations' pace.
    const late = now - this.lastFrameAt > this.lateFrameMs;
    const skip = this.lastFrameRedrew && late;
    if (this.lastFrameRedrew) this.behind = late;
    this.lastFrameAt = now;
    this.lastFrameRedrew = false;
    if (skip) {
      this.schedule();
      return;
    }
    const started = performance.now();
    let budget = this.behind ? 1 : MAX_PER_FRAME;
    // Oldest first: a tag goes to the back of the set when it is added again.
    for (const tag of this.pending) {
      if (budget === 0 || performance.now() - started >= this.frameBudgetMs) break;
      if (now - (this.lastNotified.get(tag) ?? -Infinity) < this.minIntervalMs) continue;
      this.pending.delete(tag);
      this.lastNotified.set(tag, now);
      // Drawn here rather than in React's next task, so that the time the redraw took is known.
      flushSync(() => this.notify(tag));
      this.lastFrameRedrew = true;
      budget -= 1;
    }
    if (this.pending.size > 0) this.schedule();
    // Idle from here on: the next frame's distance from this one says nothing of the machine.
    else this.lastFrameRedrew = false;
  }
}

export function useFlowData(store: FlowStore, tag: string): MetricsData {
  return useSyncExternalStore(
    (listener) => store.subscribe(tag, listener),
    () => store.get(tag),
  );
}
