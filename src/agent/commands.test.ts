import { beforeEach, describe, expect, it } from 'vitest';
import { solidPng } from '../../service/testing/png';
import type { BridgeMessage } from '../shared/bridge';
import type { Command, CommandResult, CommandType } from '../shared/command';
import { DeviceAgent } from './agent';
import {
  CommandRunner,
  RESTART_KEY,
  SCREENSHOT_TIMEOUT_MS,
  type CommandService,
  type DeviceControls,
} from './commands';
import { ServiceError } from './service-client';
import { FakeService } from './testing/fake-service';
import {
  agentDeps,
  FakeClock,
  FakeSocket,
  lobbyConfig,
  MemoryStore,
  recordingLogger,
  settle,
} from './testing/fakes';

/** The command routes of a service, in memory: statuses move as the real one's do. */
class FakeCommands implements CommandService {
  readonly commands = new Map<string, Command>();
  readonly reports: { id: string; result: CommandResult }[] = [];
  readonly screenshots: Uint8Array[] = [];
  down = false;
  private seq = 0;

  add(type: CommandType, tag = 'lobby'): Command {
    const id = `cmd_${++this.seq}`;
    const command: Command = {
      id,
      device_tag: tag,
      type,
      status: 'queued',
      reason: null,
      created_at: '2026-11-21T08:00:00.000Z',
      updated_at: '2026-11-21T08:00:00.000Z',
      expires_at: '2026-11-21T09:00:00.000Z',
    };
    this.commands.set(id, command);
    return command;
  }

  status(id: string): { status: string; reason: string | null } | undefined {
    const command = this.commands.get(id);
    return command && { status: command.status, reason: command.reason };
  }

  async queuedCommands(tag: string): Promise<Command[]> {
    if (this.down) throw new ServiceError(0, 'unreachable');
    return [...this.commands.values()].filter((c) => c.device_tag === tag && c.status === 'queued');
  }

  async reportCommand(_tag: string, id: string, result: CommandResult): Promise<Command> {
    if (this.down) throw new ServiceError(0, 'unreachable');
    const command = this.commands.get(id);
    if (!command) throw new ServiceError(404, 'not found');
    if (command.status === 'done' || (command.status === 'failed' && result.status !== 'failed')) {
      throw new ServiceError(409, `command ${id} is ${command.status}`);
    }
    this.reports.push({ id, result });
    const next = { ...command, status: result.status, reason: result.reason ?? null };
    this.commands.set(id, next);
    return next;
  }

  async putScreenshot(_tag: string, png: Uint8Array): Promise<unknown> {
    if (this.down) throw new ServiceError(0, 'unreachable');
    this.screenshots.push(png);
    return {};
  }
}

let clock: FakeClock;
let store: MemoryStore;
let service: FakeCommands;
let messages: BridgeMessage[];
let controls: DeviceControls;
let restarts: number;
let log: ReturnType<typeof recordingLogger>;

function runner(): CommandRunner {
  return new CommandRunner(
    {
      clock,
      random: () => 0.5,
      log,
      store,
      emit: (message) => messages.push(message),
      controls: () => controls,
    },
    service,
    { tag: 'lobby', name: () => 'Lobby screen' },
  );
}

beforeEach(() => {
  clock = new FakeClock();
  store = new MemoryStore();
  service = new FakeCommands();
  messages = [];
  restarts = 0;
  controls = { restart: () => void restarts++ };
  log = recordingLogger();
});

describe('running commands', () => {
  it('identifies the device on screen and reports delivered, then done', async () => {
    const commands = runner();
    const command = service.add('identify');
    commands.receive(command);
    await settle();
    expect(messages).toEqual([{ kind: 'identify', name: 'Lobby screen', tag: 'lobby', seconds: 10 }]);
    expect(service.reports.map((r) => r.result.status)).toEqual(['delivered', 'done']);
  });

  it('runs a command once, however it arrives (pushed, listed, replayed)', async () => {
    const commands = runner();
    const command = service.add('reload');
    commands.receive(command);
    commands.receive(command);
    await commands.caughtUp();
    await settle();
    expect(messages).toEqual([{ kind: 'reload', reason: `remote command ${command.id}` }]);
  });

  it('reloads through the controls when the app has its own', async () => {
    let reloads = 0;
    controls = { ...controls, reload: () => void reloads++ };
    runner().receive(service.add('reload'));
    await settle();
    expect(reloads).toBe(1);
    expect(messages).toEqual([]);
  });

  it('does not run a command the service no longer has open (expired, or replayed from long ago)', async () => {
    const command = service.add('identify');
    service.commands.set(command.id, { ...command, status: 'failed', reason: 'expired' });
    // The fake refuses delivered after failed, as the service does.
    runner().receive(command);
    await settle();
    expect(messages).toEqual([]);
  });

  it('fetches what waited while the device was away once it is caught up, in order', async () => {
    const first = service.add('identify');
    const second = service.add('reload');
    await runner().caughtUp();
    await settle();
    expect(messages.map((m) => m.kind)).toEqual(['identify', 'reload']);
    expect(service.status(first.id)?.status).toBe('done');
    expect(service.status(second.id)?.status).toBe('done');
  });

  it('runs a pushed command while the service is out of reach, and reports it later, with backoff', async () => {
    const command = service.add('identify');
    service.down = true;
    runner().receive(command);
    await settle();
    expect(messages.map((m) => m.kind)).toEqual(['identify']);
    expect(service.status(command.id)?.status).toBe('queued');
    service.down = false;
    await clock.advance(60_000);
    expect(service.reports.map((r) => r.result.status)).toEqual(['delivered', 'done']);
    expect(service.status(command.id)?.status).toBe('done');
  });
});

describe('screenshots', () => {
  it('stores what the controls capture', async () => {
    const png = solidPng(64, 48);
    controls = { ...controls, screenshot: async () => png };
    const command = service.add('screenshot');
    runner().receive(command);
    await settle();
    expect(service.screenshots).toEqual([png]);
    expect(service.status(command.id)).toEqual({ status: 'done', reason: null });
  });

  it('asks the page when the app cannot capture itself, and stores its answer', async () => {
    const commands = runner();
    const command = service.add('screenshot');
    commands.receive(command);
    await settle();
    const ask = messages.find((m) => m.kind === 'screenshot');
    expect(ask).toEqual({ kind: 'screenshot', request_id: expect.any(String) });
    const png = solidPng(1920, 1080);
    commands.screenshotTaken({ request_id: 'someone-else', png_base64: 'AAAA' });
    commands.screenshotTaken({
      request_id: (ask as { request_id: string }).request_id,
      png_base64: png.toString('base64'),
    });
    await settle();
    expect(Buffer.from(service.screenshots[0] as Uint8Array).equals(png)).toBe(true);
    expect(service.status(command.id)?.status).toBe('done');
  });

  it('fails with a reason when no page answers, when the page fails, or when it is no PNG', async () => {
    const commands = runner();
    const silent = service.add('screenshot');
    commands.receive(silent);
    await clock.advance(SCREENSHOT_TIMEOUT_MS);
    expect(service.status(silent.id)).toEqual({
      status: 'failed',
      reason: 'no page answered within 30 s: is a browser showing the player?',
    });

    const failing = service.add('screenshot');
    commands.receive(failing);
    await settle();
    const ask = messages.filter((m) => m.kind === 'screenshot').at(-1) as { request_id: string };
    commands.screenshotTaken({ request_id: ask.request_id, error: 'tainted canvas' });
    await settle();
    expect(service.status(failing.id)?.reason).toBe('the page could not capture itself: tainted canvas');

    controls = { ...controls, screenshot: async () => new Uint8Array([1, 2, 3]) };
    const garbage = service.add('screenshot');
    commands.receive(garbage);
    await settle();
    expect(service.status(garbage.id)?.reason).toBe('the capture is not a PNG image');
    expect(service.screenshots).toEqual([]);
  });
});

describe('restart', () => {
  it('is remembered before the app ends and reported done by the app started anew', async () => {
    const command = service.add('restart');
    runner().receive(command);
    await settle();
    expect(restarts).toBe(1);
    expect(await store.read(RESTART_KEY)).toBe(command.id);
    expect(service.status(command.id)?.status).toBe('delivered');

    // The new app: caught up with the service, it says the restart is done, and does not run it again.
    await runner().caughtUp();
    await settle();
    expect(service.status(command.id)?.status).toBe('done');
    expect(restarts).toBe(1);
    expect(await store.read(RESTART_KEY)).toBeNull();
  });
});

describe('restart in the web player (no restart of the app its own)', () => {
  it('renews the session: the page reloads, a new connection syncs the whole state, and the restart is done', async () => {
    const fake = new FakeService(() => clock.now());
    fake.addDevice('lobby');
    const fetch = async (url: string, init?: RequestInit): Promise<Response> => {
      const path = new URL(url).pathname;
      if (path === '/devices/lobby/commands') return Response.json(await service.queuedCommands('lobby'));
      const result = /^\/devices\/lobby\/commands\/([^/]+)\/result$/.exec(path);
      if (result) {
        return Response.json(
          await service.reportCommand('lobby', result[1] as string, JSON.parse(String(init?.body))),
        );
      }
      return fake.fetch(url, init);
    };
    const sockets: FakeSocket[] = [];
    const agent = new DeviceAgent(
      agentDeps({
        fetch,
        connectRealtime: () => {
          const socket = new FakeSocket((last) => ({ resync: last === null, events: [], last_event_id: 5 }));
          sockets.push(socket);
          return socket;
        },
        clock,
        store,
        log,
      }),
      lobbyConfig,
    );
    agent.onMessage((message) => messages.push(message));
    await agent.start();
    sockets[0]?.fire('connect');
    await clock.advance(0);
    expect(sockets[0]?.hellos).toHaveLength(1);

    const command = service.add('restart');
    sockets[0]?.push({ id: 6, type: 'command.created', command });
    await clock.advance(0);
    expect(sockets[0]?.closed).toBe(true);
    expect(messages.filter((m) => m.kind === 'reload')).toEqual([
      { kind: 'reload', reason: 'the player restarts' },
    ]);
    expect(service.status(command.id)?.status).toBe('delivered');

    sockets[1]?.fire('connect');
    await clock.advance(0);
    // The new session starts afresh: though the last one had seen event 6, its hello asks for the whole state.
    expect(sockets[1]?.hellos).toEqual([{ tag: 'lobby', lastEventId: null }]);
    expect(service.status(command.id)?.status).toBe('done');
    await agent.stop();
  });
});
