import type { PlayerState } from '../shared/bridge';
import { helloAckSchema, realtimeEventSchema, type RealtimeEvent } from '../shared/events';
import { describeIssues } from '../shared/issues';
import type { Command } from '../shared/command';
import type { Notification } from '../shared/notification';
import { backoffDelay } from './backoff';
import { ClockSampler } from './clock-sampler';
import type { Clock, ConnectRealtime, Logger, RealtimeSocket, SocketRefusal, TimerHandle } from './ports';
import { UnknownDeviceError } from './registration';
import type { StateStore } from './state-store';

const RESYNC_DEBOUNCE_MS = 200;
/** How long a refused connection waits before it is tried again (jittered over its upper half). */
const REFUSED_RETRY_MS = 60_000;

export interface SyncDeps {
  connectRealtime: ConnectRealtime;
  clock: Clock;
  random: () => number;
  log: Logger;
}

/** What the sync does not do itself. */
export interface SyncSteps {
  /** Makes sure the service knows the device (throws when it cannot). */
  register(): Promise<void>;
  /** The whole state from the service; UnknownDeviceError when the device is gone. */
  fetchState(): Promise<PlayerState>;
  notification(notification: Notification): void;
  /** A whole new state is in place: its media can be fetched. */
  synced(state: PlayerState): void;
  /** The service turned the realtime connection away for the device's token. */
  refused(): void;
  /** A remote command pushed to the device (a device without commands leaves it out). */
  command?(command: Command): void;
  /** Caught up after a connection: what waited while the device was away can be fetched or sent. */
  caughtUp?(): void;
}

/**
 * Keeps the state in step with the service: on every connection it registers if needed, says
 * hello with the last event it saw and applies what it missed (or fetches the whole state when
 * the service says so), then applies realtime events as they come. What the service pushes is
 * checked where it enters: a bad event is dropped and logged and a resync follows. Failures are
 * retried with capped, jittered backoff.
 */
export class Sync {
  private socket: RealtimeSocket | null = null;
  private registered = false;
  private stopped = false;
  private catchUpTimer: TimerHandle | null = null;
  private resyncTimer: TimerHandle | null = null;
  private reconnectTimer: TimerHandle | null = null;
  /** Live events heard while the device catches up (null when it is not catching up). */
  private heldBack: RealtimeEvent[] | null = null;
  /** The service's clock, sampled over the socket while the screen is in a sync group. */
  private sampler: ClockSampler | null = null;

  constructor(
    private readonly deps: SyncDeps,
    private readonly service: { server: string; token: string; tag: string },
    private readonly store: StateStore,
    private readonly steps: SyncSteps,
  ) {}

  /** The service's time now as this screen estimates it (docs/sync.md); null before any sample. */
  serviceNow(): number | null {
    return this.sampler?.serviceNow() ?? null;
  }

  /** Whether the service knew the device at the last look (it is told when the device goes). */
  get isRegistered(): boolean {
    return this.registered;
  }

  start(): void {
    const socket = this.deps.connectRealtime({
      url: this.service.server,
      token: this.service.token,
      reconnectDelayMs: 1000,
      reconnectDelayMaxMs: 5000,
      randomization: 0.5,
    });
    this.socket = socket;
    const { clock } = socket;
    const sampler = clock
      ? new ClockSampler({
          clock: this.deps.clock,
          ping: () => clock.call(socket),
          wanted: () => Boolean(this.store.get().settings?.sync),
        })
      : null;
    this.sampler = sampler;
    socket.on('connect', () => {
      this.scheduleCatchUp(0, 0);
      sampler?.connect();
    });
    socket.on('disconnect', (reason) => {
      sampler?.disconnect();
      this.deps.log.warn(`realtime connection lost (${reason}); playing on from the last good state`);
      this.store.set({ ...this.store.get(), online: false, stale: true });
    });
    socket.on('connect_error', (error) => this.deps.log.warn(`cannot reach the service: ${error.message}`));
    socket.on('refused', (refusal) => this.refused(refusal));
    // A bad event must not reach the state the agent keeps (and plays from after a restart).
    socket.on('event', (event: unknown) => {
      const parsed = realtimeEventSchema.safeParse(event);
      if (parsed.success && this.heldBack) return void this.heldBack.push(parsed.data);
      if (parsed.success) return this.apply(parsed.data);
      this.deps.log.warn(
        `a realtime event does not fit the contract, dropped: ${describeIssues(parsed.error)}; resyncing`,
      );
      this.scheduleResync();
    });
  }

  stop(): void {
    this.stopped = true;
    this.sampler?.disconnect();
    this.catchUpTimer?.cancel();
    this.resyncTimer?.cancel();
    this.reconnectTimer?.cancel();
    this.socket?.close();
  }

  /**
   * socket.io gives up on a connection the service refused: it is tried again after the wait the
   * service asked for, else slowly (a token refused now may be taken again later).
   */
  private refused(refusal: SocketRefusal): void {
    const rateLimited = refusal.code === 'rate_limited';
    const delay =
      refusal.retryAfterSeconds !== null
        ? refusal.retryAfterSeconds * 1000
        : backoffDelay(0, this.deps.random, { baseMs: REFUSED_RETRY_MS, maxMs: REFUSED_RETRY_MS });
    this.deps.log.warn(
      `the service refused the realtime connection (${refusal.message}); trying again in ${Math.round(delay / 1000)} s`,
    );
    if (!rateLimited) this.steps.refused();
    this.reconnectTimer?.cancel();
    this.reconnectTimer = this.deps.clock.setTimeout(() => {
      this.reconnectTimer = null;
      if (!this.stopped) this.socket?.reconnect();
    }, delay);
  }

  /** The service answered that it does not know the device: register again and catch up. */
  deviceForgotten(): void {
    if (!this.registered) return;
    this.registered = false;
    this.scheduleCatchUp(0, 0);
  }

  /** Registration, hello and replay (or full sync); retried with capped, jittered backoff. */
  private scheduleCatchUp(attempt: number, delayMs: number): void {
    this.catchUpTimer?.cancel();
    this.catchUpTimer = this.deps.clock.setTimeout(() => {
      this.catchUpTimer = null;
      this.catchUp().then(
        () => {
          if (!this.stopped) this.steps.caughtUp?.();
        },
        (error: unknown) => {
          if (this.stopped) return;
          const delay = backoffDelay(attempt, this.deps.random);
          this.deps.log.warn(
            `catching up failed (${(error as Error).message}); retrying in ${Math.round(delay / 1000)} s`,
          );
          this.scheduleCatchUp(attempt + 1, delay);
        },
      );
    }, delayMs);
  }

  private async catchUp(): Promise<void> {
    const socket = this.socket;
    if (!socket || this.stopped) return;
    if (!this.registered) {
      await this.steps.register();
      this.registered = true;
    }
    // The service puts the socket in its rooms before it reads the replay, so live events can come
    // before the answer, or while the whole state is fetched. Applied at once they would raise the
    // last id seen, and the older events of the replay would be dropped as seen: they wait until
    // the device has caught up. When catching up fails they are dropped, as the next hello
    // replays them.
    const held: RealtimeEvent[] = [];
    this.heldBack = held;
    try {
      const replay = await this.hello(socket);
      this.applyInOrder([...(replay?.events ?? []), ...held]);
      if (!replay) return;
      this.store.lastEventId = Math.max(this.store.lastEventId ?? 0, replay.last_event_id);
      this.store.set({ ...this.store.get(), online: true, stale: false });
      this.store.schedulePersist();
    } finally {
      if (this.heldBack === held) this.heldBack = null;
    }
  }

  /** Says hello: the events the service replays, or null once it has fetched the whole state. */
  private async hello(
    socket: RealtimeSocket,
  ): Promise<{ events: RealtimeEvent[]; last_event_id: number } | null> {
    const answer: unknown = await socket.hello(this.service.tag, this.store.lastEventId);
    const parsed = helloAckSchema.safeParse(answer);
    if (!parsed.success) {
      // Its events cannot be trusted one by one: the whole state is fetched (and checked) again.
      this.deps.log.warn(
        `the hello answer does not fit the contract: ${describeIssues(parsed.error)}; resyncing`,
      );
      await this.resync();
      return null;
    }
    const ack = parsed.data;
    if (ack.error) throw new Error(ack.error);
    if (!ack.resync) return ack;
    this.store.lastEventId = ack.last_event_id;
    await this.resync();
    return null;
  }

  /** By id, so a live event heard early neither comes before nor repeats one of the replay. */
  private applyInOrder(events: RealtimeEvent[]): void {
    for (const event of events.sort((a, b) => a.id - b.id)) this.apply(event);
  }

  private apply(event: RealtimeEvent): void {
    const { lastEventId } = this.store;
    if (lastEventId !== null && event.id <= lastEventId) return;
    this.store.lastEventId = event.id;
    switch (event.type) {
      case 'metrics.changed':
        this.store.applyMetrics(event.flow_tag, event.data);
        this.store.schedulePersist('metrics');
        return;
      case 'notification.created':
        this.steps.notification(event.notification);
        break;
      case 'command.created':
        this.steps.command?.(event.command);
        break;
      default:
        this.scheduleResync();
    }
    this.store.schedulePersist();
  }

  /** Debounced, so a burst of changes costs one resync. */
  private scheduleResync(): void {
    this.resyncTimer?.cancel();
    this.resyncTimer = this.deps.clock.setTimeout(() => {
      this.resyncTimer = null;
      this.resync().catch((error: unknown) => {
        this.deps.log.warn(`resync failed, keeping the last good state: ${(error as Error).message}`);
        this.scheduleCatchUp(0, backoffDelay(0, this.deps.random));
      });
    }, RESYNC_DEBOUNCE_MS);
  }

  private async resync(): Promise<void> {
    let state: PlayerState;
    try {
      state = await this.steps.fetchState();
    } catch (error) {
      if (error instanceof UnknownDeviceError) this.registered = false;
      throw error;
    }
    if (this.stopped) return;
    this.store.set(state);
    await this.store.persist();
    this.steps.synced(state);
  }
}
