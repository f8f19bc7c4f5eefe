import type { BridgeMessage, PlayerState, RendererLog, ShowingReport, Unsubscribe } from '../shared/bridge';
import { helloAckSchema, realtimeEventSchema, type RealtimeEvent } from '../shared/events';
import { describeIssues } from '../shared/issues';
import type { Notification } from '../shared/notification';
import { playerStateSchema } from '../shared/bridge';
import { backoffDelay } from './backoff';
import type { BridgeHost } from './bridge-host';
import type { AgentConfig } from './config';
import { HeartbeatLoop } from './heartbeat';
import { applyMetrics, boardIdsOf, emptyState, mediaUrlsOf } from './player-state';
import type {
  Clock,
  ConnectRealtime,
  Fetch,
  KeyValueStore,
  Logger,
  RealtimeSocket,
  SystemInfo,
  TimerHandle,
} from './ports';
import { ensureRegistered } from './registration';
import { ServiceClient, ServiceError } from './service-client';

/** What the agent needs of the media cache (see media-cache.ts). */
export interface MediaStore {
  load(): Promise<void>;
  ensure(url: string): Promise<string>;
  has(url: string): boolean;
  nameOf(url: string): string;
  usage(): { bytes: number; items: number };
  /** Writes what is only in memory (last use times) before the process ends. */
  flush(): Promise<void>;
}

export interface AgentDeps {
  fetch: Fetch;
  connectRealtime: ConnectRealtime;
  clock: Clock;
  store: KeyValueStore;
  system: SystemInfo;
  media: MediaStore;
  log: Logger;
  random: () => number;
  appVersion: string;
  /** Where the renderer loads cached media from: `/media/` in the web player, a protocol URL in Electron. */
  mediaBaseUrl: string;
}

const STATE_KEY = 'player-state';
/** How long a notification waits for its sound to be cached before it is shown with the chime. */
const SOUND_WAIT_MS = 5000;
/** Notification sounds kept in the media map, most recent last. */
const SOUNDS_KEPT = 50;
const RESYNC_DEBOUNCE_MS = 200;
const PERSIST_DEBOUNCE_MS = 2000;
/** Metrics stream in all day: saving each burst of them would wear a kiosk's flash storage. */
const METRICS_PERSIST_MS = 60_000;

interface Persisted {
  state: PlayerState;
  last_event_id: number | null;
}

/**
 * The device agent: registers, keeps its state in step with the service (a full sync, then
 * realtime events, replayed after a reconnection), caches media, beats its heart, and plays on
 * from the last good state when the service is away.
 */
export class DeviceAgent implements BridgeHost {
  private state: PlayerState;
  private lastEventId: number | null = null;
  private readonly client: ServiceClient;
  private readonly listeners = new Set<(message: BridgeMessage) => void>();
  private readonly heartbeat: HeartbeatLoop;
  private socket: RealtimeSocket | null = null;
  private registered = false;
  private showing = 'waiting';
  private recoveries: string[] = [];
  private catchUpTimer: TimerHandle | null = null;
  private resyncTimer: TimerHandle | null = null;
  private persistTimer: TimerHandle | null = null;
  private persistDueAt = 0;
  private stopped = false;
  private readonly sounds: string[] = [];
  /** Notifications are delivered in arrival order, even when one waits for its sound. */
  private deliveries: Promise<void> = Promise.resolve();

  constructor(
    private readonly deps: AgentDeps,
    private readonly config: AgentConfig,
  ) {
    this.state = emptyState({ tag: config.tag, name: config.name });
    this.client = new ServiceClient(deps.fetch, config.server, config.token);
    this.heartbeat = new HeartbeatLoop(
      deps,
      config.heartbeatSeconds * 1000,
      {
        appVersion: deps.appVersion,
        extras: () => ({
          showing: this.showing,
          cache: deps.media.usage(),
          recoveries: this.recoveries.splice(0),
        }),
      },
      (beat) => this.sendHeartbeat(beat),
    );
  }

  async start(): Promise<void> {
    await this.restore();
    await this.deps.media
      .load()
      .catch((error: unknown) => this.deps.log.warn(`media cache: ${String(error)}`));
    const socket = this.deps.connectRealtime({
      url: this.config.server,
      token: this.config.token,
      reconnectDelayMs: 1000,
      reconnectDelayMaxMs: 5000,
      randomization: 0.5,
    });
    this.socket = socket;
    socket.on('connect', () => this.scheduleCatchUp(0, 0));
    socket.on('disconnect', (reason) => {
      this.deps.log.warn(`realtime connection lost (${reason}); playing on from the last good state`);
      this.setState({ ...this.state, online: false, stale: true });
    });
    socket.on('connect_error', (error) => this.deps.log.warn(`cannot reach the service: ${error.message}`));
    // What the service pushes is checked where it enters this process, as its HTTP answers are: a
    // bad event must not reach the state the agent keeps (and plays from after a restart).
    socket.on('event', (event: unknown) => {
      const parsed = realtimeEventSchema.safeParse(event);
      if (parsed.success) return this.onEvent(parsed.data);
      this.deps.log.warn(
        `a realtime event does not fit the contract, dropped: ${describeIssues(parsed.error)}; resyncing`,
      );
      this.scheduleResync();
    });
  }

  /** Says goodbye to the service (best effort) and stops every timer and connection. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of [this.catchUpTimer, this.resyncTimer, this.persistTimer]) timer?.cancel();
    this.heartbeat.stop();
    this.socket?.close();
    await this.persist();
    await this.deps.media.flush().catch(() => undefined);
    if (this.registered) {
      await this.client.goingOffline(this.config.tag).catch(() => undefined);
    }
  }

  getState(): PlayerState {
    return this.state;
  }

  onMessage(listener: (message: BridgeMessage) => void): Unsubscribe {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  reportShowing(report: ShowingReport): void {
    this.showing = report.showing;
  }

  log(entry: RendererLog): void {
    this.deps.log[entry.level](`renderer: ${entry.message}`);
  }

  /** A recovery (renderer reload, GPU fallback...) to report in the next heartbeat. */
  recordRecovery(what: string): void {
    this.recoveries.push(what);
    this.deps.log.warn(`recovered: ${what}`);
  }

  private emit(message: BridgeMessage): void {
    for (const listener of this.listeners) listener(message);
  }

  private setState(state: PlayerState): void {
    this.state = state;
    this.emit({ kind: 'state', state });
  }

  private async restore(): Promise<void> {
    const saved = (await this.deps.store.read(STATE_KEY)) as Partial<Persisted> | undefined;
    const parsed = playerStateSchema.safeParse(saved?.state);
    if (!parsed.success || parsed.data.device.tag !== this.config.tag) return;
    this.lastEventId = typeof saved?.last_event_id === 'number' ? saved.last_event_id : null;
    this.setState({ ...parsed.data, device: this.state.device, online: false, stale: true });
    this.deps.log.info('playing the last good state from the cache until the service answers');
  }

  private schedulePersist(delayMs = PERSIST_DEBOUNCE_MS): void {
    const due = this.deps.clock.now() + delayMs;
    if (this.persistTimer && this.persistDueAt <= due) return;
    this.persistTimer?.cancel();
    this.persistDueAt = due;
    this.persistTimer = this.deps.clock.setTimeout(() => {
      this.persistTimer = null;
      void this.persist();
    }, delayMs);
  }

  private async persist(): Promise<void> {
    const persisted: Persisted = { state: this.state, last_event_id: this.lastEventId };
    await this.deps.store.write(STATE_KEY, persisted).catch((error: unknown) => {
      this.deps.log.error(`cannot save the state: ${String(error)}`);
    });
  }

  /** Registration, hello and replay (or full sync); retried with capped, jittered backoff. */
  private scheduleCatchUp(attempt: number, delayMs: number): void {
    this.catchUpTimer?.cancel();
    this.catchUpTimer = this.deps.clock.setTimeout(() => {
      this.catchUpTimer = null;
      this.catchUp().catch((error: unknown) => {
        if (this.stopped) return;
        const delay = backoffDelay(attempt, this.deps.random);
        this.deps.log.warn(
          `catching up failed (${(error as Error).message}); retrying in ${Math.round(delay / 1000)} s`,
        );
        this.scheduleCatchUp(attempt + 1, delay);
      });
    }, delayMs);
  }

  private async catchUp(): Promise<void> {
    const socket = this.socket;
    if (!socket || this.stopped) return;
    if (!this.registered) {
      await ensureRegistered(this.client, this.deps.store, this.deps.log, {
        tag: this.config.tag,
        name: this.config.name,
        description: `Wallboard client ${this.deps.appVersion}`,
      });
      this.registered = true;
      // Beats start once the service knows the device (and keep going through later outages).
      this.heartbeat.start();
    }
    const answer: unknown = await socket.hello(this.config.tag, this.lastEventId);
    const parsed = helloAckSchema.safeParse(answer);
    if (!parsed.success) {
      // Its events cannot be trusted one by one: the whole state is fetched (and checked) again.
      this.deps.log.warn(
        `the hello answer does not fit the contract: ${describeIssues(parsed.error)}; resyncing`,
      );
      await this.resync();
      return;
    }
    const ack = parsed.data;
    if (ack.error) throw new Error(ack.error);
    if (ack.resync) {
      this.lastEventId = ack.last_event_id;
      await this.resync();
    } else {
      for (const event of ack.events) this.onEvent(event);
      this.lastEventId = Math.max(this.lastEventId ?? 0, ack.last_event_id);
      this.setState({ ...this.state, online: true, stale: false });
      this.schedulePersist();
    }
  }

  private onEvent(event: RealtimeEvent): void {
    if (this.lastEventId !== null && event.id <= this.lastEventId) return;
    this.lastEventId = event.id;
    switch (event.type) {
      case 'metrics.changed':
        this.state = applyMetrics(this.state, event.flow_tag, event.data);
        this.emit({ kind: 'metrics', flow_tag: event.flow_tag, data: event.data });
        break;
      case 'notification.created':
        this.onNotification(event.notification);
        break;
      default:
        this.scheduleResync();
    }
    this.schedulePersist(event.type === 'metrics.changed' ? METRICS_PERSIST_MS : PERSIST_DEBOUNCE_MS);
  }

  private onNotification(notification: Notification): void {
    this.deliveries = this.deliveries.then(() => this.deliver(notification));
  }

  /** Caches a notification's own sound first (for a while), so the renderer plays it, not the chime. */
  private async deliver(notification: Notification): Promise<void> {
    const sound = notification.sound_url;
    if (sound && /^https?:\/\//.test(sound)) {
      if (!this.sounds.includes(sound)) this.sounds.push(sound);
      if (this.sounds.length > SOUNDS_KEPT) this.sounds.shift();
      if (!this.deps.media.has(sound)) await this.cacheSound(sound);
      if (this.deps.media.has(sound) && !this.state.media[sound]) {
        this.setState({ ...this.state, media: this.mediaMap(this.state) });
      }
    }
    this.emit({ kind: 'notification', notification });
  }

  private cacheSound(url: string): Promise<void> {
    return new Promise((resolve) => {
      const timer = this.deps.clock.setTimeout(() => {
        this.deps.log.warn(`sound ${url} is not cached yet; the notification plays the default sound`);
        resolve();
      }, SOUND_WAIT_MS);
      const done = () => {
        timer.cancel();
        resolve();
      };
      this.deps.media.ensure(url).then(done, (error: unknown) => {
        this.deps.log.warn(`sound not cached: ${String(error)}`);
        done();
      });
    });
  }

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

  /** Fetches the whole state; anything invalid throws before the last good state is replaced. */
  private async resync(): Promise<void> {
    const device = await this.client.getDevice(this.config.tag).catch((error: unknown) => {
      if (error instanceof ServiceError && error.status === 404) this.registered = false;
      throw error;
    });
    const playlist = device.playlist_id ? await this.client.getPlaylist(device.playlist_id) : null;
    const boards: PlayerState['boards'] = {};
    for (const id of boardIdsOf(playlist)) {
      try {
        boards[id] = await this.client.exportBoard(id);
      } catch (error) {
        if (!(error instanceof ServiceError) || error.status !== 404) throw error;
        this.deps.log.warn(`board ${id} of the playlist no longer exists; skipping it`);
      }
    }
    const next: PlayerState = {
      device: { tag: device.tag, name: device.name || this.config.name },
      online: true,
      stale: false,
      last_sync: new Date(this.deps.clock.now()).toISOString(),
      playlist,
      boards,
      media: this.mediaMap({ playlist, boards }),
    };
    this.setState(next);
    await this.persist();
    void this.fetchMedia(next);
  }

  private mediaMap(state: Pick<PlayerState, 'playlist' | 'boards'>): Record<string, string> {
    const media: Record<string, string> = {};
    for (const url of [...mediaUrlsOf(state), ...this.sounds]) {
      if (this.deps.media.has(url)) media[url] = `${this.deps.mediaBaseUrl}${this.deps.media.nameOf(url)}`;
    }
    return media;
  }

  /** Downloads what the state needs, then tells the renderer where it now is. */
  private async fetchMedia(state: PlayerState): Promise<void> {
    let fetched = 0;
    for (const url of mediaUrlsOf(state)) {
      if (this.deps.media.has(url)) continue;
      try {
        await this.deps.media.ensure(url);
        fetched += 1;
      } catch (error) {
        this.deps.log.warn(`cannot cache ${url}: ${(error as Error).message}`);
      }
    }
    if (fetched > 0 && !this.stopped) this.setState({ ...this.state, media: this.mediaMap(this.state) });
  }

  private async sendHeartbeat(beat: Parameters<ServiceClient['heartbeat']>[1]): Promise<void> {
    try {
      await this.client.heartbeat(this.config.tag, beat);
    } catch (error) {
      if (error instanceof ServiceError && error.status === 404 && this.registered) {
        this.registered = false;
        this.scheduleCatchUp(0, 0);
      }
      throw error;
    }
  }
}
