import type { BridgeMessage, PlayerState, RendererLog, ShowingReport, Unsubscribe } from '../shared/bridge';
import type { BridgeHost } from './bridge-host';
import type { AgentConfig } from './config';
import { fetchPlayerState } from './fetch-state';
import { DeviceHeartbeats } from './heartbeat';
import { MediaPrefetch } from './media-prefetch';
import { NotificationDelivery } from './notification-delivery';
import type { Clock, ConnectRealtime, Fetch, KeyValueStore, Logger, MediaStore, SystemInfo } from './ports';
import { ensureRegistered } from './registration';
import { ServiceClient } from './service-client';
import { StateStore } from './state-store';
import { Sync } from './sync';

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

/**
 * The device agent: registers, keeps its state in step with the service (sync.ts), keeps that
 * state and the disk's copy (state-store.ts), caches media (media-prefetch.ts), delivers
 * notifications with their sounds (notification-delivery.ts), beats its heart (heartbeat.ts),
 * and plays on from the last good state when the service is away. It is the renderer's bridge
 * host: it tells the renderer every change and hears what is on screen.
 */
export class DeviceAgent implements BridgeHost {
  private readonly listeners = new Set<(message: BridgeMessage) => void>();
  private readonly client: ServiceClient;
  private readonly state: StateStore;
  private readonly media: MediaPrefetch;
  private readonly heartbeats: DeviceHeartbeats;
  private readonly sync: Sync;

  constructor(
    private readonly deps: AgentDeps,
    private readonly config: AgentConfig,
  ) {
    const emit = (message: BridgeMessage) => {
      for (const listener of this.listeners) listener(message);
    };
    const device = { tag: config.tag, name: config.name };
    const client = new ServiceClient(deps.fetch, config.server, config.token);
    this.client = client;
    this.state = new StateStore(deps, device, emit);
    this.media = new MediaPrefetch(deps, this.state);
    const media = this.media;
    const notifications = new NotificationDelivery({ ...deps, localUrl: (url) => media.localUrl(url) }, emit);
    this.heartbeats = new DeviceHeartbeats(
      { ...deps, client },
      { tag: config.tag, intervalMs: config.heartbeatSeconds * 1000 },
      () => this.sync.deviceForgotten(),
    );
    this.sync = new Sync(deps, config, this.state, {
      register: async () => {
        await ensureRegistered(client, deps.store, deps.log, {
          ...device,
          description: `Wallboard client ${deps.appVersion}`,
        });
        this.heartbeats.start();
      },
      fetchState: () =>
        fetchPlayerState(
          { client, log: deps.log, now: () => deps.clock.now(), mediaMap: (state) => media.mediaMap(state) },
          device,
        ),
      notification: (notification) => notifications.deliver(notification),
      synced: (state) => void media.prefetch(state),
    });
  }

  async start(): Promise<void> {
    await this.state.restore();
    await this.deps.media
      .load()
      .catch((error: unknown) => this.deps.log.warn(`media cache: ${String(error)}`));
    this.sync.start();
  }

  /** Says goodbye to the service (best effort) and stops every timer and connection. */
  async stop(): Promise<void> {
    this.sync.stop();
    this.heartbeats.stop();
    this.media.stop();
    await this.state.close();
    await this.deps.media.flush().catch(() => undefined);
    if (this.sync.isRegistered) {
      await this.client.goingOffline(this.config.tag).catch(() => undefined);
    }
  }

  getState(): PlayerState {
    return this.state.get();
  }

  onMessage(listener: (message: BridgeMessage) => void): Unsubscribe {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  reportShowing(report: ShowingReport): void {
    this.heartbeats.reportShowing(report.showing);
  }

  log(entry: RendererLog): void {
    this.deps.log[entry.level](`renderer: ${entry.message}`);
  }

  /** A recovery (renderer reload, GPU fallback...) to report in the next heartbeat. */
  recordRecovery(what: string): void {
    this.heartbeats.recordRecovery(what);
    this.deps.log.warn(`recovered: ${what}`);
  }
}
