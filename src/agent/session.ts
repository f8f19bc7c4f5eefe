import type { Unsubscribe } from '../shared/bridge';
import type { AgentDeps } from './agent-deps';
import { tellRenderer, TypedEvents, type AgentEvents } from './agent-events';
import { CommandRunner, type DeviceControls } from './commands';
import type { ClientConfig, Credential } from './config';
import { fetchPlayerState } from './fetch-state';
import { DeviceHeartbeats } from './heartbeat';
import type { MediaPrefetch } from './media-prefetch';
import type { NotificationDelivery } from './notification-delivery';
import type { PlayLog } from './plays';
import { ensureRegistered } from './registration';
import type { SchedulePlayer } from './schedule-player';
import type { ScreenStatus } from './screen-status';
import { ServiceClient } from './service-client';
import type { StateStore } from './state-store';
import { Sync } from './sync';

/** What a session uses of the agent around it: the parts that outlive sessions. */
export interface SessionDeps {
  agent: AgentDeps;
  config: Pick<ClientConfig, 'name' | 'heartbeatSeconds'>;
  events: TypedEvents<AgentEvents>;
  state: StateStore;
  screen: ScreenStatus;
  media: MediaPrefetch;
  notifications: NotificationDelivery;
  plays: PlayLog;
  schedule: SchedulePlayer;
  /** What the app does for remote commands, a restart included. */
  controls(): DeviceControls;
}

/** What the parts of one session tell each other; heard by nothing once it stops. */
interface SessionEvents {
  /** The service forgot the device (a heartbeat answered 404): it registers again. */
  forgotten: undefined;
  /** Caught up after a connection: what waited while the device was away goes now. */
  caughtUp: undefined;
}

/**
 * What talks to the service for one credential (at start, after pairing, or after a restart
 * without a new process): the client, then the commands and heartbeats it serves, then the sync
 * that drives them, each built after what it needs. Parts that react to the same thing, or that
 * need each other both ways (the heartbeats and the sync), hear it as an event.
 */
export class Session {
  readonly client: ServiceClient;
  readonly commands: CommandRunner;
  readonly heartbeats: DeviceHeartbeats;
  readonly sync: Sync;
  private readonly subscriptions: Unsubscribe[];

  constructor(
    deps: SessionDeps,
    readonly credential: Credential,
  ) {
    const { agent, events, state, schedule } = deps;
    const own = new TypedEvents<SessionEvents>();
    const device = { tag: credential.tag, name: deps.config.name };
    const token = (refused: boolean) => events.emit('token', { server: credential.server, refused });
    const client = new ServiceClient(agent.fetch, credential.server, credential.token, (status) => {
      if (status === 401) token(true);
      else if (status >= 200 && status < 300) token(false);
    });
    const commands = new CommandRunner(
      {
        ...agent,
        emit: (message) => tellRenderer(events, message),
        controls: deps.controls,
        wake: () => schedule.wake(state.get()),
      },
      client,
      { tag: credential.tag, name: () => state.get().device.name },
    );
    const heartbeats = new DeviceHeartbeats(
      { ...agent, client, screen: deps.screen, power: () => schedule.heartbeat(state.get()) },
      { tag: credential.tag, intervalMs: deps.config.heartbeatSeconds * 1000 },
      () => own.emit('forgotten'),
    );
    const sync = new Sync(agent, credential, state, {
      register: async () => {
        await ensureRegistered(client, agent.store, agent.log, {
          ...device,
          description: `Wallboard client ${agent.appVersion}`,
        });
        heartbeats.start();
      },
      fetchState: () =>
        fetchPlayerState(
          {
            client,
            log: agent.log,
            now: () => agent.clock.now(),
            mediaMap: (shown) => deps.media.mediaMap(shown),
            screen: deps.screen,
            tileUrlTemplate: agent.tileUrlTemplate,
          },
          device,
        ),
      notification: (notification) => deps.notifications.deliver(notification),
      synced: (shown) => void deps.media.prefetch(shown),
      refused: () => token(true),
      command: (command) => commands.receive(command),
      caughtUp: () => own.emit('caughtUp'),
    });
    own.on('forgotten', () => sync.deviceForgotten());
    own.on('caughtUp', () => void commands.caughtUp());
    own.on('caughtUp', () => deps.plays.flush());
    // Back online after a catch-up: a heartbeat at once (the socket's loss may have turned it offline).
    this.subscriptions = [events.on('state', (shown) => heartbeats.connected(shown.online))];
    deps.plays.connect(async (batch) => void (await client.postPlays(credential.tag, batch)));
    this.client = client;
    this.commands = commands;
    this.heartbeats = heartbeats;
    this.sync = sync;
  }

  start(): void {
    this.sync.start();
  }

  /** Stops syncing, beating and running commands; what its parts still tell is heard by no one. */
  stop(): void {
    for (const unsubscribe of this.subscriptions.splice(0)) unsubscribe();
    this.sync.stop();
    this.heartbeats.stop();
    this.commands.stop();
  }
}
