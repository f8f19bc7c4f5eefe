import { beforeEach, describe, expect, it } from 'vitest';
import { playerStateSchema, type BridgeMessage } from '../shared/bridge';
import type { HelloAck } from '../shared/events';
import { DeviceAgent } from './agent';
import type { MediaStore } from './ports';
import { FakeService, sampleBoard, samplePlaylist } from './testing/fake-service';
import {
  agentDeps,
  FakeClock,
  FakeSocket,
  lobbyConfig,
  MemoryStore,
  noMedia,
  notificationWithSound,
  recordingLogger,
} from './testing/fakes';

const config = lobbyConfig;

let clock: FakeClock;
let service: FakeService;
let store: MemoryStore;
let socket: FakeSocket;
let log: ReturnType<typeof recordingLogger>;
let messages: BridgeMessage[];
let random: number;

const resyncAck = (id = 10): HelloAck => ({ resync: true, events: [], last_event_id: id });

function makeAgent(media: MediaStore = noMedia): DeviceAgent {
  const agent = new DeviceAgent(
    agentDeps({
      fetch: service.fetch,
      connectRealtime: () => socket,
      clock,
      store,
      media,
      log,
      random: () => random,
    }),
    config,
  );
  agent.onMessage((message) => messages.push(message));
  return agent;
}

/** The device "lobby" playing p1 (one board, b1, whose value widget shows flow "cpu"), synced. */
async function startWithOneBoard(): Promise<DeviceAgent> {
  service.addDevice('lobby', 'p1');
  service.playlists.set('p1', samplePlaylist('p1', ['b1']));
  service.exports.set('b1', sampleBoard('One', 'cpu', 1));
  const agent = makeAgent();
  await agent.start();
  socket.fire('connect');
  await clock.advance(0);
  return agent;
}

beforeEach(() => {
  clock = new FakeClock();
  clock.current = Date.parse('2026-11-21T08:00:00Z');
  service = new FakeService(() => clock.now());
  store = new MemoryStore();
  socket = new FakeSocket(() => resyncAck());
  log = recordingLogger();
  messages = [];
  random = 0.5;
});

describe('registration', () => {
  it('creates the device when the service does not know its tag, and stores the identity', async () => {
    const agent = makeAgent();
    await agent.start();
    socket.fire('connect');
    await clock.advance(0);
    expect(service.count('POST', '/devices')).toBeGreaterThanOrEqual(1);
    expect(service.calls.find((c) => c.method === 'POST' && c.path === '/devices')?.body).toMatchObject({
      tag: 'lobby',
      name: 'Lobby',
    });
    expect(await store.read('identity')).toEqual({ tag: 'lobby', id: 'dev_lobby' });
    await agent.stop();
  });

  it('finds itself by tag when it exists, without creating anything', async () => {
    service.addDevice('lobby');
    const agent = makeAgent();
    await agent.start();
    socket.fire('connect');
    await clock.advance(0);
    expect(service.calls.filter((c) => c.method === 'POST' && c.path === '/devices')).toEqual([]);
    expect(socket.hellos).toEqual([{ tag: 'lobby', lastEventId: null }]);
    await agent.stop();
  });
});

describe('heartbeats', () => {
  it('beats at once, then every interval with jitter', async () => {
    service.addDevice('lobby');
    const agent = makeAgent();
    const start = clock.now();
    await agent.start();
    socket.fire('connect');
    random = 0; // the shortest jitter: 90% of the interval
    await clock.advance(100_000);
    const beats = service.calls.filter((c) => c.path === '/devices/lobby/heartbeat').map((c) => c.at - start);
    expect(beats).toEqual([0, 27_000, 54_000, 81_000]);
    expect(service.calls.find((c) => c.path === '/devices/lobby/heartbeat')?.body).toMatchObject({
      app_version: '1.2.3',
      os: 'Test OS 1',
      // No renderer has reported yet: nothing is on screen, and its size is unknown.
      display: null,
      cache: { bytes: 0, items: 0 },
      showing: 'no renderer',
      failures: [],
    });
    await agent.stop();
  });

  it('carries what is on screen and the recoveries since the last beat, once', async () => {
    service.addDevice('lobby');
    const agent = makeAgent();
    await agent.start();
    socket.fire('connect');
    agent.reportShowing({ showing: 'board:b1', display: { width: 1280, height: 720 } });
    agent.recordRecovery('renderer reloaded after a crash');
    await clock.advance(30_000);
    await clock.advance(30_000);
    const bodies = service.calls.filter((c) => c.path.endsWith('/heartbeat')).map((c) => c.body);
    expect(bodies[0]).toMatchObject({
      showing: 'board:b1',
      display: { width: 1280, height: 720 },
      recoveries: ['renderer reloaded after a crash'],
    });
    expect(bodies[1]).toMatchObject({ showing: 'board:b1', recoveries: [] });
    await agent.stop();
  });

  it('carries what the renderer could not show until it shows, with the reason and time', async () => {
    service.addDevice('lobby');
    const agent = makeAgent();
    await agent.start();
    socket.fire('connect');
    await clock.advance(0);
    agent.reportFailure({ item: 'image:https://cdn.test/a.png', reason: 'the image could not be decoded' });
    await clock.advance(30_000);
    agent.reportShowing({ showing: 'image:https://cdn.test/a.png' });
    await clock.advance(30_000);
    const bodies = service.calls.filter((c) => c.path.endsWith('/heartbeat')).map((c) => c.body);
    expect(bodies.map((body) => (body as { failures: unknown }).failures)).toEqual([
      [],
      [
        {
          item: 'image:https://cdn.test/a.png',
          reason: 'the image could not be decoded',
          at: '2026-11-21T08:00:00.000Z',
        },
      ],
      [],
    ]);
    await agent.stop();
  });

  it('beats at once when it is back after a lost connection', async () => {
    const agent = await startWithOneBoard();
    const beats = () => service.calls.filter((c) => c.path.endsWith('/heartbeat')).map((c) => c.at);
    const start = clock.now();
    await clock.advance(10_000);
    socket.fire('disconnect', 'transport close');
    await clock.advance(3000);
    socket.fire('connect');
    await clock.advance(0);
    expect(beats()).toEqual([start, start + 13_000]);
    await agent.stop();
  });

  it('beats at once when what is on screen changes kind (off, nothing, another playlist), not at each item', async () => {
    const agent = await startWithOneBoard();
    const beats = () => service.calls.filter((c) => c.path.endsWith('/heartbeat'));
    const start = clock.now();
    const told = () => beats().map((c) => [c.at - start, (c.body as { showing: string }).showing]);
    // A renderer's first report is news: told 5 s after the first beat, not at 30 s.
    agent.reportShowing({ showing: 'board:b1' });
    await clock.advance(10_000);
    // The playlist's items taking turns are not.
    agent.reportShowing({ showing: 'image:https://cdn.test/a.png' });
    agent.reportShowing({ showing: 'board:b1' });
    await clock.advance(0);
    expect(told()).toEqual([
      [0, 'no renderer'],
      [5_000, 'board:b1'],
    ]);
    // The screen going off is, at once.
    agent.reportShowing({ showing: 'off' });
    await clock.advance(0);
    expect(told()[2]).toEqual([10_000, 'off']);
    // At most one beat per 5 s: a change 1 s later is told 5 s after the last beat.
    await clock.advance(1_000);
    agent.reportShowing({ showing: 'waiting' });
    await clock.advance(3_999);
    expect(told()).toHaveLength(3);
    await clock.advance(1);
    expect(told()[3]).toEqual([15_000, 'waiting']);
    await agent.stop();
  });

  it('says it is going offline when stopped', async () => {
    service.addDevice('lobby');
    const agent = makeAgent();
    await agent.start();
    socket.fire('connect');
    await clock.advance(0);
    await agent.stop();
    expect(service.count('POST', '/devices/lobby/offline')).toBe(1);
    expect(socket.closed).toBe(true);
  });
});

describe('catching up', () => {
  it('retries with growing, capped delays while the service fails', async () => {
    service.failWith = 503;
    const agent = makeAgent();
    await agent.start();
    random = 1;
    socket.fire('connect');
    await clock.advance(200_000);
    const starts = service.calls
      .filter((c) => c.method === 'GET' && c.path === '/devices/lobby')
      .map((c) => c.at);
    const gaps = starts.slice(1).map((at, i) => at - (starts[i] as number));
    expect(gaps.slice(0, 6)).toEqual([1000, 2000, 4000, 8000, 16_000, 32_000]);
    expect(Math.max(...gaps)).toBe(60_000);
    service.failWith = null;
    service.addDevice('lobby');
    await clock.advance(60_000);
    expect(agent.getState().online).toBe(true);
    await agent.stop();
  });

  it('syncs the playlist and its boards when told to resync', async () => {
    service.addDevice('lobby', 'p1');
    service.playlists.set('p1', samplePlaylist('p1', ['b1', 'b2', 'b1']));
    service.exports.set('b1', sampleBoard('One', 'cpu', 1));
    service.exports.set('b2', sampleBoard('Two', 'mem', 2));
    const agent = makeAgent();
    await agent.start();
    socket.fire('connect');
    await clock.advance(0);
    const state = agent.getState();
    expect(state).toMatchObject({ online: true, stale: false, playlist: { id: 'p1' } });
    expect(Object.keys(state.boards).sort()).toEqual(['b1', 'b2']);
    expect(service.count('GET', '/boards/b1/export')).toBe(1);
    expect(messages.at(-1)).toMatchObject({ kind: 'state' });
    await agent.stop();
  });

  it('applies metrics events to the boards and forwards them, ignoring repeats', async () => {
    const agent = await startWithOneBoard();
    socket.push({ id: 11, type: 'metrics.changed', flow_id: 'f', flow_tag: 'cpu', data: { value: 42 } });
    socket.push({ id: 11, type: 'metrics.changed', flow_id: 'f', flow_tag: 'cpu', data: { value: 0 } });
    expect(agent.getState().boards.b1?.widgets[0]?.flow.data).toEqual({ value: 42 });
    await clock.advance(50);
    expect(messages.filter((m) => m.kind === 'metricsBatch')).toEqual([
      { kind: 'metricsBatch', flows: [{ flow_tag: 'cpu', data: { value: 42 } }] },
    ]);
    await agent.stop();
  });

  it('resyncs once after a burst of structural events', async () => {
    const agent = await startWithOneBoard();
    service.playlists.set('p1', samplePlaylist('p1', ['b1', 'b2']));
    service.exports.set('b2', sampleBoard('Two', 'mem', 2));
    socket.push({ id: 11, type: 'playlist.changed', playlist_id: 'p1' });
    socket.push({ id: 12, type: 'board.changed', board_id: 'b1' });
    await clock.advance(1000);
    expect(service.count('GET', '/playlists/p1')).toBe(2);
    expect(Object.keys(agent.getState().boards).sort()).toEqual(['b1', 'b2']);
    await agent.stop();
  });

  it('keeps the last good state when the service answers something invalid', async () => {
    const agent = await startWithOneBoard();
    service.exports.set('b1', { name: 'broken', widgets: 'nope' });
    socket.push({ id: 11, type: 'board.changed', board_id: 'b1' });
    await clock.advance(1000);
    expect(agent.getState().boards.b1?.name).toBe('One');
    expect(log.lines.some((l) => l.includes('does not fit the contract'))).toBe(true);
    await agent.stop();
  });

  it('drops a realtime event or a hello answer that does not fit the contract, resyncs, and keeps a state it can restore', async () => {
    const agent = await startWithOneBoard();
    const playlistGets = service.count('GET', '/playlists/p1');
    socket.push({ id: 11, type: 'metrics.changed', flow_id: 'f', flow_tag: 'cpu', data: 'broken' } as never);
    socket.push({ id: 12, type: 'metrics.changed', flow_id: 'f', flow_tag: 'not a tag!', data: {} } as never);
    expect(playerStateSchema.safeParse(agent.getState()).success).toBe(true);
    expect(log.lines.filter((l) => l.includes('realtime event does not fit the contract'))).toHaveLength(2);
    await clock.advance(1000);
    expect(service.count('GET', '/playlists/p1')).toBe(playlistGets + 1);

    // A reconnection whose answer replays a bad event: the answer is not trusted, the state is fetched.
    socket.answer = () =>
      ({
        resync: false,
        last_event_id: 13,
        events: [{ id: 13, type: 'metrics.changed', flow_id: 'f', flow_tag: 'cpu', data: 5 }],
      }) as never;
    socket.fire('connect');
    await clock.advance(0);
    expect(log.lines.some((l) => l.includes('the hello answer does not fit the contract'))).toBe(true);
    expect(service.count('GET', '/playlists/p1')).toBe(playlistGets + 2);
    expect(agent.getState().boards.b1?.widgets[0]?.flow.data).not.toBe(5);
    await agent.stop();

    // What it kept plays after a restart with the service down.
    service.down = true;
    socket = new FakeSocket(() => resyncAck());
    const restarted = makeAgent();
    await restarted.start();
    expect(restarted.getState()).toMatchObject({ stale: true, playlist: { id: 'p1' } });
    expect(restarted.getState().boards.b1?.name).toBe('One');
    await restarted.stop();
  });

  it('replays missed events after a reconnection instead of resyncing', async () => {
    const agent = await startWithOneBoard();
    socket.fire('disconnect', 'transport close');
    expect(agent.getState()).toMatchObject({ online: false, stale: true });
    const notification = {
      id: 'n1',
      channel_id: 'ch_default',
      title: 'Missed',
      message: 'while away',
      icon: null,
      duration: 10,
      sound_url: null,
      created_at: '2026-11-21T08:00:00.000Z',
    };
    socket.answer = () => ({
      resync: false,
      last_event_id: 12,
      events: [
        { id: 11, type: 'notification.created', notification },
        { id: 12, type: 'metrics.changed', flow_id: 'f', flow_tag: 'cpu', data: { value: 7 } },
      ],
    });
    socket.fire('connect');
    await clock.advance(0);
    expect(socket.hellos.at(-1)).toEqual({ tag: 'lobby', lastEventId: 10 });
    expect(messages.some((m) => m.kind === 'notification' && m.notification.title === 'Missed')).toBe(true);
    expect(agent.getState()).toMatchObject({ online: true, stale: false });
    expect(agent.getState().boards.b1?.widgets[0]?.flow.data).toEqual({ value: 7 });
    expect(service.count('GET', '/playlists/p1')).toBe(1);
    await agent.stop();
  });
});

describe('notification sounds', () => {
  const notification = notificationWithSound;

  it("caches a notification's own sound and delivers it with the notification, in the order of arrival", async () => {
    service.addDevice('lobby');
    const cached = new Set<string>();
    let finish: () => void = () => undefined;
    const media: MediaStore = {
      ...noMedia,
      has: (url) => cached.has(url),
      nameOf: () => 'abc.mp3',
      ensure: (url) =>
        new Promise((resolve) => {
          finish = () => {
            cached.add(url);
            resolve('abc.mp3');
          };
        }),
    };
    const agent = makeAgent(media);
    await agent.start();
    socket.fire('connect');
    await clock.advance(0);
    const before = messages.length;
    socket.push({
      id: 11,
      type: 'notification.created',
      notification: notification('first', 'https://x.test/a.mp3'),
    });
    socket.push({ id: 12, type: 'notification.created', notification: notification('second', 'default') });
    await clock.advance(0);
    expect(messages.slice(before)).toEqual([]);
    finish();
    await clock.advance(0);
    // No state goes before them: the renderer needs none to play the sound.
    expect(
      messages
        .slice(before)
        .map((m) => (m.kind === 'notification' ? [m.notification.title, m.sound] : m.kind)),
    ).toEqual([
      ['first', { kind: 'cached', url: '/media/abc.mp3' }],
      ['second', { kind: 'default' }],
    ]);
    await agent.stop();
  });

  it('delivers the notification with the default sound when its own is not cached in time', async () => {
    service.addDevice('lobby');
    const agent = makeAgent({ ...noMedia, ensure: () => new Promise(() => undefined) });
    await agent.start();
    socket.fire('connect');
    await clock.advance(0);
    socket.push({
      id: 11,
      type: 'notification.created',
      notification: notification('slow', 'https://x.test/b.mp3'),
    });
    await clock.advance(4999);
    expect(messages.some((m) => m.kind === 'notification')).toBe(false);
    await clock.advance(1);
    expect(messages.filter((m) => m.kind === 'notification')).toEqual([
      {
        kind: 'notification',
        notification: notification('slow', 'https://x.test/b.mp3'),
        sound: { kind: 'default' },
      },
    ]);
    expect(log.lines.some((l) => l.includes('plays the default sound'))).toBe(true);
    await agent.stop();
  });
});

describe('offline', () => {
  it('plays the last good state from its store when the service is unreachable at start', async () => {
    const first = await startWithOneBoard();
    await first.stop();

    service.down = true;
    socket = new FakeSocket(() => resyncAck());
    messages = [];
    const second = makeAgent();
    await second.start();
    expect(second.getState()).toMatchObject({ online: false, stale: true, playlist: { id: 'p1' } });
    expect(second.getState().boards.b1?.name).toBe('One');
    expect(messages[0]).toMatchObject({ kind: 'state', state: { stale: true } });
    await second.stop();
  });
});
