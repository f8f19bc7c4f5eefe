import type {
  BridgeMessage,
  FailureReport,
  PlayerState,
  RendererLog,
  ScreenshotTaken,
  Setup,
  ShowingReport,
  Unsubscribe,
} from '../shared/bridge';
import type { PlayReport } from '../shared/play';
import type { Framing, WebPageRequest } from '../shared/web-content';
import type { BridgeHost } from './bridge-host';
import { CommandRunner, type DeviceControls } from './commands';
import { credentialOf, type ClientConfig, type Credential } from './config';
import { fetchPlayerState } from './fetch-state';
import { DeviceHeartbeats } from './heartbeat';
import { MediaPrefetch } from './media-prefetch';
import type { MediaService } from './media-urls';
import { NotificationDelivery } from './notification-delivery';
import { Enrolment } from './pairing';
import { emptyState } from './player-state';
import { PlayLog } from './plays';
import type {
  Clock,
  ConnectRealtime,
  Fetch,
  KeyValueStore,
  Logger,
  MediaStore,
  ServiceBrowser,
  SystemInfo,
} from './ports';
import { ensureRegistered } from './registration';
import { SchedulePlayer, systemTimeZone } from './schedule-player';
import { ScreenStatus } from './screen-status';
import { ServiceClient } from './service-client';
import { StateStore } from './state-store';
import { Sync } from './sync';
import { FramingCheck } from './web-framing';

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
  /**
   * Keeps a credential got by pairing where this client keeps its token (the web player's
   * settings file, Electron's token store). Only a client started without a token pairs.
   */
  saveCredential?: (credential: Credential) => Promise<void>;
  /** Looks for services on the local network (mDNS): only a client started without a service does. */
  browser?: ServiceBrowser;
  /** The system's IANA time zone, where schedules are read when the settings name none; default the runtime's. */
  systemTimeZone?: () => string;
  /**
   * Draws full-screen web pages itself, isolated from the player (Electron's view, web-page-view.ts);
   * `show` answers whether it did. Absent (the web player): the renderer frames them.
   */
  webPages?: { show(request: WebPageRequest): Promise<boolean> };
  /**
   * What the framing check reads pages' headers with, when `fetch` is narrower than web pages
   * allow (Electron's refuses plain http media, but a page may be http): default `fetch`.
   */
  pageFetch?: Fetch;
  /**
   * Where the renderer loads map tiles from, a template with {z}/{x}/{y}: the host's tile cache
   * (`tiles`), fetching from the service with the screen's token. Absent: maps draw no tiles.
   */
  tileUrlTemplate?: string;
  tiles?: { useService(service: MediaService | null): void };
}

/** What talks to the service: made once the agent has a service and a credential (at start, or by pairing). */
interface Session {
  credential: Credential;
  client: ServiceClient;
  heartbeats: DeviceHeartbeats;
  sync: Sync;
  commands: CommandRunner;
}

/**
 * The device agent: registers, keeps its state in step with the service (sync.ts), keeps that
 * state and the disk's copy (state-store.ts), caches media (media-prefetch.ts), delivers
 * notifications with their sounds (notification-delivery.ts), beats its heart (heartbeat.ts),
 * and plays on from the last good state when the service is away. Started without a service or
 * a token, it first finds one and pairs (pairing.ts). It is the renderer's bridge host: it tells
 * the renderer every change and hears what is on screen.
 */
export class DeviceAgent implements BridgeHost {
  private readonly listeners = new Set<(message: BridgeMessage) => void>();
  private readonly state: StateStore;
  /** What is on screen, its size and what failed: outlives sessions, read by each one's heartbeats. */
  private readonly screen: ScreenStatus;
  private readonly media: MediaPrefetch;
  private readonly notifications: NotificationDelivery;
  private readonly enrolment: Enrolment;
  /** Proof of play: kept across sessions and restarts until the service has it. */
  private readonly plays: PlayLog;
  /** The schedule and power windows, played on the device itself: outlives sessions, needs no service. */
  private readonly schedule: SchedulePlayer;
  /** Whether pages let themselves be framed, kept a few minutes per page. */
  private readonly framing: FramingCheck;
  /** What the app around the agent does for remote commands (useControls). */
  private controls: Partial<DeviceControls> = {};
  private readonly tell: (message: BridgeMessage) => void;
  private session: Session | null = null;
  /** Recoveries recorded before a session could report them (the shell's, from before a restart). */
  private readonly earlyRecoveries: string[] = [];
  private stopped = false;

  constructor(
    private readonly deps: AgentDeps,
    private readonly config: ClientConfig,
  ) {
    const emit = (message: BridgeMessage) => {
      if (message.kind === 'state') {
        // Back online after a catch-up: a heartbeat at once (the socket's loss may have turned it offline).
        this.session?.heartbeats.connected(message.state.online);
        this.schedule.observe(message.state);
      }
      for (const listener of this.listeners) listener(message);
    };
    this.schedule = new SchedulePlayer({
      clock: deps.clock,
      log: deps.log,
      systemTimeZone: deps.systemTimeZone ?? systemTimeZone,
      controls: () => this.controls,
      current: () => this.state.get(),
      refresh: () => this.state.set(this.state.get()),
    });
    const view = (state: PlayerState) => this.schedule.view(state);
    this.state = new StateStore({ ...deps, view }, { tag: config.tag, name: config.name }, emit);
    this.screen = new ScreenStatus(deps.clock);
    this.media = new MediaPrefetch({ ...deps, screen: this.screen }, this.state);
    const media = this.media;
    this.notifications = new NotificationDelivery({ ...deps, localUrl: (url) => media.localUrl(url) }, emit);
    this.enrolment = new Enrolment(deps, config, (setup) => this.showSetup(setup));
    this.plays = new PlayLog(deps);
    this.framing = new FramingCheck({ fetch: deps.pageFetch ?? deps.fetch, clock: deps.clock });
    this.tell = emit;
  }

  /** What the app does itself for remote commands (reload, restart, screenshot); set before start. */
  useControls(controls: Partial<DeviceControls>): void {
    this.controls = controls;
  }

  /**
   * Plays the last good state, then syncs; without a credential it first finds a service and
   * pairs, in the background (the renderer shows the code meanwhile), and plays once claimed.
   */
  async start(): Promise<void> {
    await this.state.restore();
    // A face saved with the state (an old code, a refusal) is not this start's: it is found anew.
    if (this.state.get().setup) this.showSetup(null);
    await this.deps.media
      .load()
      .catch((error: unknown) => this.deps.log.warn(`media cache: ${String(error)}`));
    await this.plays.restore();
    const credential = credentialOf(this.config);
    if (credential) return this.open(credential);
    this.enrolment.run().then(
      (paired) => this.open(paired),
      (error: unknown) => {
        if (!this.stopped) this.deps.log.error(`pairing ended: ${(error as Error).message}`);
      },
    );
  }

  /** Says goodbye to the service (best effort) and stops every timer and connection. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.enrolment.stop();
    const session = this.session;
    session?.sync.stop();
    session?.heartbeats.stop();
    session?.commands.stop();
    await this.plays.stop();
    this.schedule.stop();
    this.media.stop();
    await this.state.close();
    await this.deps.media.flush().catch(() => undefined);
    if (session?.sync.isRegistered) {
      await session.client.goingOffline(session.credential.tag).catch(() => undefined);
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
    this.screen.reportShowing(report);
  }

  /** The renderer could not show an item (it logged why too); reported until the item works. */
  reportFailure(report: FailureReport): void {
    this.screen.recordFailure(report.item, report.reason);
  }

  log(entry: RendererLog): void {
    this.deps.log[entry.level](`renderer: ${entry.message}`);
  }

  /**
   * An item the renderer showed, for proof of play. In a power window nothing plays: a report
   * then (a renderer that did not stop) is not counted.
   */
  reportPlay(report: PlayReport): void {
    if (this.state.get().display?.off) return;
    this.plays.record(report);
  }

  /** The page's answer to a `screenshot` message. */
  screenshotTaken(answer: ScreenshotTaken): void {
    this.session?.commands.screenshotTaken(answer);
  }

  /** Whether a page lets itself be shown in the renderer's frame, from its headers as this screen gets them. */
  checkFraming(request: { url: string }): Promise<Framing> {
    return this.framing.check(request.url);
  }

  /** A full-screen web page for the shell to draw in its own view; `shown: false` when it cannot. */
  async showWebPage(request: WebPageRequest): Promise<{ shown: boolean }> {
    if (!this.deps.webPages) return { shown: false };
    return { shown: await this.deps.webPages.show(request) };
  }

  /** The service this screen talks to, or pairs with; null while it is still looking for one. */
  serviceUrl(): string | null {
    return this.session?.credential.server ?? this.enrolment.server;
  }

  chooseService(choice: { id: string }): void {
    this.enrolment.choose(choice.id);
  }

  /** A recovery (renderer reload, GPU fallback...) to report in the next heartbeat. */
  recordRecovery(what: string): void {
    if (this.session) this.session.heartbeats.recordRecovery(what);
    else this.earlyRecoveries.push(what);
    this.deps.log.warn(`recovered: ${what}`);
  }

  /** Makes what talks to the service for this credential, and starts syncing. */
  private open(credential: Credential): void {
    if (this.stopped) return;
    const { deps } = this;
    const device = { tag: credential.tag, name: this.config.name };
    deps.media.useService({ server: credential.server, token: credential.token });
    deps.tiles?.useService({ server: credential.server, token: credential.token });
    // Pairing may have given another tag: the state kept for the old one is not this device's.
    const current = this.state.get();
    this.state.set(current.device.tag === device.tag ? { ...current, setup: null } : emptyState(device));
    const client = new ServiceClient(deps.fetch, credential.server, credential.token, (status) => {
      if (status === 401) this.tokenRefused(credential, true);
      else if (status >= 200 && status < 300) this.tokenRefused(credential, false);
    });
    const heartbeats = new DeviceHeartbeats(
      { ...deps, client, screen: this.screen, power: () => this.schedule.heartbeat(this.state.get()) },
      { tag: credential.tag, intervalMs: this.config.heartbeatSeconds * 1000 },
      () => sync.deviceForgotten(),
    );
    const media = this.media;
    const sync: Sync = new Sync(deps, credential, this.state, {
      register: async () => {
        await ensureRegistered(client, deps.store, deps.log, {
          ...device,
          description: `Wallboard client ${deps.appVersion}`,
        });
        heartbeats.start();
      },
      fetchState: () =>
        fetchPlayerState(
          {
            client,
            log: deps.log,
            now: () => deps.clock.now(),
            mediaMap: (state) => media.mediaMap(state),
            screen: this.screen,
            tileUrlTemplate: deps.tileUrlTemplate,
          },
          device,
        ),
      notification: (notification) => this.notifications.deliver(notification),
      synced: (state) => void media.prefetch(state),
      refused: () => this.tokenRefused(credential, true),
      command: (command) => commands.receive(command),
      caughtUp: () => {
        void commands.caughtUp();
        this.plays.flush();
      },
    });
    // Without a restart of the app's own (the web player), a restart renews the session.
    const controls = (): DeviceControls => ({ restart: () => this.restartSession(), ...this.controls });
    const wake = () => this.schedule.wake(this.state.get());
    const commands = new CommandRunner({ ...deps, emit: this.tell, controls, wake }, client, {
      tag: credential.tag,
      name: () => this.state.get().device.name,
    });
    this.plays.connect(async (batch) => void (await client.postPlays(credential.tag, batch)));
    this.session = { credential, client, heartbeats, sync, commands };
    for (const what of this.earlyRecoveries.splice(0)) heartbeats.recordRecovery(what);
    sync.start();
  }

  /**
   * A restart without a new process (the web player's): the session ends and a new one opens, with
   * a new connection and the whole state fetched again, and the renderer reloads. The media cache
   * and the plays waiting for the service are kept.
   */
  private restartSession(): void {
    const session = this.session;
    if (!session || this.stopped) return;
    session.sync.stop();
    session.heartbeats.stop();
    session.commands.stop();
    this.session = null;
    this.state.lastEventId = null;
    this.tell({ kind: 'reload', reason: 'the player restarts' });
    this.open(session.credential);
  }

  /**
   * The service's word on this screen's token: refused (401, or the socket turned away) or
   * taken again. A refusal replaces whatever is on screen by a face that says so; the agent keeps
   * trying, slowly, and plays again as soon as the token is taken.
   */
  private tokenRefused(credential: Credential, refused: boolean): void {
    const showing = this.state.get().setup?.kind === 'refused';
    if (refused === showing) return;
    if (refused) {
      this.deps.log.error(
        `the service ${credential.server} refused this screen's token; give it a valid one (--token), or remove the stored one to pair again`,
      );
    } else {
      this.deps.log.info(`the service ${credential.server} takes this screen's token again`);
    }
    this.showSetup(refused ? { kind: 'refused', service_url: credential.server } : null);
  }

  private showSetup(setup: Setup | null): void {
    this.state.set({ ...this.state.get(), setup });
  }
}
