import { playerStateSchema, type BridgeMessage, type PlayerState } from '../shared/bridge';
import type { MetricsData } from '../shared/metrics';
import { MetricsOutbox } from './metrics-outbox';
import { applyMetrics, emptyState } from './player-state';
import type { Clock, KeyValueStore, Logger, TimerHandle } from './ports';

const STATE_KEY = 'player-state';
const PERSIST_DEBOUNCE_MS = 2000;
/** Metrics stream in all day: saving each burst of them would wear a kiosk's flash storage. */
const METRICS_PERSIST_MS = 60_000;

interface Persisted {
  state: PlayerState;
  last_event_id: number | null;
}

export interface StateStoreDeps {
  store: KeyValueStore;
  clock: Clock;
  log: Logger;
  /**
   * What a state plays as now (the schedule player's view: the playlist in force, the display),
   * applied to every state set; absent, the state as it is.
   */
  view?(state: PlayerState): PlayerState;
}

/**
 * The player state the agent plays from, and the id of the last realtime event applied to it.
 * Every change is told to the renderer; the disk gets it back at start, within 2 s of a change,
 * but only once a minute while just metrics stream in, and at once on request.
 */
export class StateStore {
  /** The last realtime event applied; a hello asks the service for what came after it. */
  lastEventId: number | null = null;
  private state: PlayerState;
  private persistTimer: TimerHandle | null = null;
  private persistDueAt = 0;
  private readonly outbox: MetricsOutbox;

  constructor(
    private readonly deps: StateStoreDeps,
    device: { tag: string; name: string },
    private readonly emit: (message: BridgeMessage) => void,
  ) {
    this.state = emptyState(device);
    this.outbox = new MetricsOutbox(deps.clock, emit);
  }

  get(): PlayerState {
    return this.state;
  }

  /** Replaces the state (as the view shows it now) and tells the renderer. */
  set(state: PlayerState): void {
    this.state = this.deps.view ? this.deps.view(state) : state;
    this.outbox.clear();
    this.emit({ kind: 'state', state: this.state });
  }

  /**
   * Writes a flow's metrics into the boards; the renderer is told the metrics alone, not a whole
   * state, gathered with other flows' (MetricsOutbox).
   */
  applyMetrics(flowTag: string, data: MetricsData): void {
    this.state = applyMetrics(this.state, flowTag, data);
    this.outbox.add(flowTag, data);
  }

  /**
   * Plays the last good state of this device from the disk, marked stale, until the service
   * answers. A state that no longer fits the contract, or is another device's, is ignored.
   */
  async restore(): Promise<void> {
    const saved = (await this.deps.store.read(STATE_KEY)) as Partial<Persisted> | undefined;
    const parsed = playerStateSchema.safeParse(saved?.state);
    if (!parsed.success || parsed.data.device.tag !== this.state.device.tag) return;
    this.lastEventId = typeof saved?.last_event_id === 'number' ? saved.last_event_id : null;
    this.set({ ...parsed.data, device: this.state.device, online: false, stale: true });
    this.deps.log.info('playing the last good state from the cache until the service answers');
  }

  /** Saves soon after a change; `metrics` when only metrics changed, which may wait longer. */
  schedulePersist(change: 'state' | 'metrics' = 'state'): void {
    const delayMs = change === 'metrics' ? METRICS_PERSIST_MS : PERSIST_DEBOUNCE_MS;
    const due = this.deps.clock.now() + delayMs;
    // A save due sooner covers this change too.
    if (this.persistTimer && this.persistDueAt <= due) return;
    this.persistTimer?.cancel();
    this.persistDueAt = due;
    this.persistTimer = this.deps.clock.setTimeout(() => {
      this.persistTimer = null;
      void this.persist();
    }, delayMs);
  }

  async persist(): Promise<void> {
    const persisted: Persisted = { state: this.state, last_event_id: this.lastEventId };
    await this.deps.store.write(STATE_KEY, persisted).catch((error: unknown) => {
      this.deps.log.error(`cannot save the state: ${String(error)}`);
    });
  }

  /** Saves now, and nothing later: for a process about to end. */
  async close(): Promise<void> {
    this.outbox.clear();
    this.persistTimer?.cancel();
    this.persistTimer = null;
    await this.persist();
  }
}
