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
import type { AgentDeps } from './agent-deps';
import { tellRenderer, TypedEvents, type AgentEvents } from './agent-events';
import type { BridgeHost } from './bridge-host';
import type { DeviceControls } from './commands';
import { credentialOf, type ClientConfig, type Credential } from './config';
import { MediaPrefetch } from './media-prefetch';
import { NotificationDelivery } from './notification-delivery';
import { Enrolment } from './pairing';
import { emptyState } from './player-state';
import { PlayLog } from './plays';
import { SchedulePlayer, systemTimeZone } from './schedule-player';
import { NO_RENDERER, ScreenStatus, showingMode } from './screen-status';
import { Session } from './session';
import { StateStore } from './state-store';
import { UpdateCoordinator } from './updates';
import { FramingCheck } from './web-framing';

export type { AgentDeps } from './agent-deps';

/**
 * The device agent: registers, keeps its state in step with the service (sync.ts), keeps that
 * state and the disk's copy (state-store.ts), caches media (media-prefetch.ts), delivers
 * notifications with their sounds (notification-delivery.ts), beats its heart (heartbeat.ts),
 * and plays on from the last good state when the service is away. Started without a service or
 * a token, it first finds one and pairs (pairing.ts). It is the renderer's bridge host: it tells
 * the renderer every change and hears what is on screen. It holds what outlives a credential;
 * what talks to the service is a session (session.ts), and the two hear each other through
 * typed events (agent-events.ts).
 */
export class DeviceAgent implements BridgeHost {
  /** What the parts tell each other across sessions, and the renderer's messages. */
  private readonly events = new TypedEvents<AgentEvents>();
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
  /** Applies the releases the service offers, at moments the screen allows (updates.ts). */
  private readonly updates: UpdateCoordinator;
  /** What the app around the agent does for remote commands (useControls). */
  private controls: Partial<DeviceControls> = {};
  private session: Session | null = null;
  /** The kind of thing last reported on screen (`showingMode`): at first, no renderer. */
  private shownMode = showingMode(NO_RENDERER, null);
  /** Recoveries recorded before a session could report them (the shell's, from before a restart). */
  private readonly earlyRecoveries: string[] = [];
  private stopped = false;

  constructor(
    private readonly deps: AgentDeps,
    private readonly config: ClientConfig,
  ) {
    const { events } = this;
    const tell = (message: BridgeMessage) => tellRenderer(events, message);
    this.screen = new ScreenStatus(deps.clock);
    // The one pair that needs each other: the store keeps every state as the schedule views it, and
    // the schedule's timer looks at the store's state again (reached once the store exists).
    this.schedule = new SchedulePlayer({
      clock: deps.clock,
      log: deps.log,
      systemTimeZone: deps.systemTimeZone ?? systemTimeZone,
      controls: () => this.controls,
      current: () => this.state.get(),
      refresh: () => this.state.set(this.state.get()),
    });
    const schedule = this.schedule;
    const view = (state: PlayerState) => schedule.view(state);
    this.state = new StateStore({ ...deps, view }, { tag: config.tag, name: config.name }, tell);
    this.media = new MediaPrefetch({ ...deps, screen: this.screen }, this.state);
    const media = this.media;
    this.notifications = new NotificationDelivery({ ...deps, localUrl: (url) => media.localUrl(url) }, tell);
    this.enrolment = new Enrolment(deps, config, (setup) => this.showSetup(setup));
    this.plays = new PlayLog(deps);
    this.framing = new FramingCheck({ fetch: deps.pageFetch ?? deps.fetch, clock: deps.clock });
    this.updates = new UpdateCoordinator(deps, deps.updateTargets ?? []);
    const updates = this.updates;
    events.on('state', (state) => schedule.observe(state));
    events.on('state', (state) => updates.observe(state));
    events.on('token', ({ server, refused }) => this.tokenRefused(server, refused));
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
    // First: the offers that failed before must be known when the restored state shows them.
    await this.updates.restore();
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
    session?.stop();
    await this.plays.stop();
    await this.updates.stop();
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
    return this.events.on('message', listener);
  }

  reportShowing(report: ShowingReport): void {
    this.screen.reportShowing(report);
    this.updates.showing(report.showing);
    const mode = showingMode(report.showing, this.state.get().playlist?.id ?? null);
    if (mode !== this.shownMode) this.session?.heartbeats.beatForNews();
    this.shownMode = mode;
  }

  /** The renderer could not show an item (it logged why too); reported until the item works. */
  reportFailure(report: FailureReport): void {
    this.screen.recordFailure(report.item, report.reason);
  }

  log(entry: RendererLog): void {
    this.deps.log[entry.level](`renderer: ${entry.message}`);
  }

  /**
   * An item the renderer showed, for proof of play. In a power window nothing plays, and under an
   * emergency override nothing of the playlist is seen: a report then (a renderer that did not
   * stop) is not counted.
   */
  reportPlay(report: PlayReport): void {
    this.updates.itemEnded();
    const state = this.state.get();
    if (state.display?.off || state.override) return;
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

  /** The service's time as this screen estimates it, for the renderer's own estimate (docs/sync.md). */
  serviceTime(): { now: number | null } {
    return { now: this.session?.sync.serviceNow() ?? null };
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

  /** Makes what talks to the service for this credential (session.ts), and starts syncing. */
  private open(credential: Credential): void {
    if (this.stopped) return;
    const { deps } = this;
    const device = { tag: credential.tag, name: this.config.name };
    deps.media.useService({ server: credential.server, token: credential.token });
    deps.tiles?.useService({ server: credential.server, token: credential.token });
    // Pairing may have given another tag: the state kept for the old one is not this device's.
    const current = this.state.get();
    this.state.set(current.device.tag === device.tag ? { ...current, setup: null } : emptyState(device));
    // Without a restart of the app's own (the web player), a restart renews the session.
    const controls = (): DeviceControls => ({ restart: () => this.restartSession(), ...this.controls });
    const { events, state, screen, media, notifications, plays, schedule, config } = this;
    const session = new Session(
      { agent: deps, config, events, state, screen, media, notifications, plays, schedule, controls },
      credential,
    );
    this.session = session;
    this.updates.connect({ server: credential.server, token: credential.token }, (report) =>
      session.client.reportUpdate(credential.tag, report),
    );
    for (const what of this.earlyRecoveries.splice(0)) session.heartbeats.recordRecovery(what);
    session.start();
  }

  /**
   * A restart without a new process (the web player's): the session ends and a new one opens, with
   * a new connection and the whole state fetched again, and the renderer reloads. The media cache
   * and the plays waiting for the service are kept.
   */
  private restartSession(): void {
    const session = this.session;
    if (!session || this.stopped) return;
    session.stop();
    this.session = null;
    this.state.lastEventId = null;
    tellRenderer(this.events, { kind: 'reload', reason: 'the player restarts' });
    this.open(session.credential);
  }

  /**
   * The service's word on this screen's token: refused (401, or the socket turned away) or
   * taken again. A refusal replaces whatever is on screen by a face that says so; the agent keeps
   * trying, slowly, and plays again as soon as the token is taken.
   */
  private tokenRefused(server: string, refused: boolean): void {
    const showing = this.state.get().setup?.kind === 'refused';
    if (refused === showing) return;
    if (refused) {
      this.deps.log.error(
        `the service ${server} refused this screen's token; give it a valid one (--token), or remove the stored one to pair again`,
      );
    } else {
      this.deps.log.info(`the service ${server} takes this screen's token again`);
    }
    this.showSetup(refused ? { kind: 'refused', service_url: server } : null);
  }

  private showSetup(setup: Setup | null): void {
    this.state.set({ ...this.state.get(), setup });
  }
}
