import { beforeEach, describe, expect, it } from 'vitest';
import type { BridgeMessage, PlayerState } from '../shared/bridge';
import type { HelloAck } from '../shared/events';
import type { Notification } from '../shared/notification';
import { emptyState } from './player-state';
import { UnknownDeviceError } from './registration';
import { StateStore } from './state-store';
import { Sync } from './sync';
import { sampleBoard, samplePlaylist } from './testing/fake-service';
import { FakeClock, FakeSocket, MemoryStore, recordingLogger } from './testing/fakes';

const device = { tag: 'lobby', name: 'Lobby' };
const fetched: PlayerState = {
  ...emptyState(device),
  online: true,
  stale: false,
  playlist: samplePlaylist('p1', ['b1']),
  boards: { b1: sampleBoard('One', 'cpu', 1) },
};
const note: Notification = {
  id: 'n1',
  channel_id: 'ch_default',
  title: 'Hello',
  message: 'there',
  icon: null,
  duration: 10,
  sound_url: null,
  created_at: '2026-11-21T08:00:00.000Z',
};
const later: Notification = { ...note, id: 'n2', title: 'Later' };

let clock: FakeClock;
let socket: FakeSocket;
let log: ReturnType<typeof recordingLogger>;
let store: StateStore;
let messages: BridgeMessage[];
let steps: {
  registrations: number;
  fetches: number;
  fetchError: Error | null;
  /** Runs while the whole state is fetched. */
  duringFetch: (() => void) | null;
  notifications: Notification[];
  synced: PlayerState[];
};
let sync: Sync;

const resyncAck = (id = 10): HelloAck => ({ resync: true, events: [], last_event_id: id });

beforeEach(() => {
  clock = new FakeClock();
  socket = new FakeSocket(() => resyncAck());
  log = recordingLogger();
  messages = [];
  store = new StateStore({ store: new MemoryStore(), clock, log }, device, (m) => messages.push(m));
  steps = {
    registrations: 0,
    fetches: 0,
    fetchError: null,
    duringFetch: null,
    notifications: [],
    synced: [],
  };
  sync = new Sync(
    { connectRealtime: () => socket, clock, random: () => 0.5, log },
    { server: 'http://service.test', token: 'secret', tag: 'lobby' },
    store,
    {
      register: async () => void steps.registrations++,
      fetchState: async () => {
        steps.fetches += 1;
        steps.duringFetch?.();
        if (steps.fetchError) throw steps.fetchError;
        return fetched;
      },
      notification: (n) => steps.notifications.push(n),
      synced: (state) => steps.synced.push(state),
      refused: () => undefined,
    },
  );
});

/** Started and connected, after a first full sync. */
async function connected(): Promise<void> {
  sync.start();
  socket.fire('connect');
  await clock.advance(0);
}

describe('sync', () => {
  it('registers once, says hello, and takes the whole state when the service asks for a resync', async () => {
    await connected();
    expect(steps.registrations).toBe(1);
    expect(socket.hellos).toEqual([{ tag: 'lobby', lastEventId: null }]);
    expect(store.get()).toBe(fetched);
    expect(store.lastEventId).toBe(10);
    expect(steps.synced).toEqual([fetched]);
    socket.fire('connect');
    await clock.advance(0);
    expect(steps.registrations).toBe(1);
    expect(socket.hellos.at(-1)).toEqual({ tag: 'lobby', lastEventId: 10 });
  });

  it('replays missed events in order after a reconnection, and ignores those it has seen', async () => {
    await connected();
    socket.fire('disconnect', 'transport close');
    expect(store.get()).toMatchObject({ online: false, stale: true });
    socket.answer = () => ({
      resync: false,
      last_event_id: 12,
      events: [
        { id: 9, type: 'metrics.changed', flow_id: 'f', flow_tag: 'cpu', data: { value: 0 } },
        { id: 11, type: 'notification.created', notification: note },
        { id: 12, type: 'metrics.changed', flow_id: 'f', flow_tag: 'cpu', data: { value: 7 } },
      ],
    });
    socket.fire('connect');
    await clock.advance(0);
    expect(steps.notifications).toEqual([note]);
    expect(store.get().boards.b1?.widgets[0]?.flow.data).toEqual({ value: 7 });
    expect(store.get()).toMatchObject({ online: true, stale: false });
    expect(store.lastEventId).toBe(12);
    expect(steps.fetches).toBe(1);
  });

  it('applies live events heard before the hello is answered after its replay, losing none of it', async () => {
    await connected();
    socket.fire('disconnect', 'transport close');
    // The service joined the socket to its rooms, then read the replay: live events came first.
    socket.answer = () => {
      socket.push({ id: 14, type: 'notification.created', notification: later });
      socket.push({ id: 12, type: 'metrics.changed', flow_id: 'f', flow_tag: 'cpu', data: { value: 7 } });
      return {
        resync: false,
        last_event_id: 12,
        events: [
          { id: 11, type: 'notification.created', notification: note },
          { id: 12, type: 'metrics.changed', flow_id: 'f', flow_tag: 'cpu', data: { value: 7 } },
        ],
      };
    };
    socket.fire('connect');
    await clock.advance(0);
    expect(steps.notifications).toEqual([note, later]);
    expect(store.get().boards.b1?.widgets[0]?.flow.data).toEqual({ value: 7 });
    expect(store.lastEventId).toBe(14);
  });

  it('holds live events back while it fetches the whole state, then applies them in order', async () => {
    await connected();
    socket.fire('disconnect', 'transport close');
    socket.answer = () => {
      socket.push({ id: 21, type: 'notification.created', notification: note });
      return resyncAck(20);
    };
    steps.duringFetch = () => socket.push({ id: 22, type: 'notification.created', notification: later });
    socket.fire('connect');
    await clock.advance(0);
    expect(steps.fetches).toBe(2);
    expect(steps.notifications).toEqual([note, later]);
    expect(store.lastEventId).toBe(22);
  });

  it('drops live events heard during a hello that failed: the next hello asks for them again', async () => {
    await connected();
    socket.fire('disconnect', 'transport close');
    socket.answer = () => {
      socket.push({ id: 12, type: 'notification.created', notification: note });
      return {
        resync: true,
        events: [],
        last_event_id: 0,
        error: 'the service could not answer the hello; try again',
      };
    };
    socket.fire('connect');
    await clock.advance(0);
    expect(steps.notifications).toEqual([]);
    expect(store.lastEventId).toBe(10);
    socket.answer = () => ({
      resync: false,
      last_event_id: 12,
      events: [{ id: 12, type: 'notification.created', notification: note }],
    });
    await clock.advance(60_000);
    expect(socket.hellos.at(-1)).toEqual({ tag: 'lobby', lastEventId: 10 });
    expect(steps.notifications).toEqual([note]);
  });

  it('resyncs once, debounced, after a burst of structural events', async () => {
    await connected();
    socket.push({ id: 11, type: 'playlist.changed', playlist_id: 'p1' });
    socket.push({ id: 12, type: 'board.changed', board_id: 'b1' });
    await clock.advance(199);
    expect(steps.fetches).toBe(1);
    await clock.advance(1);
    expect(steps.fetches).toBe(2);
  });

  it('drops an event that does not fit the contract, logs it and resyncs', async () => {
    await connected();
    socket.push({ id: 11, type: 'metrics.changed', flow_id: 'f', flow_tag: 'cpu', data: 'broken' } as never);
    expect(store.lastEventId).toBe(10);
    expect(log.lines.filter((l) => l.includes('realtime event does not fit the contract'))).toHaveLength(1);
    await clock.advance(200);
    expect(steps.fetches).toBe(2);
  });

  it('does not trust a hello answer that does not fit the contract: it fetches the whole state', async () => {
    socket.answer = () => ({ resync: false, last_event_id: 'x', events: [] }) as never;
    await connected();
    expect(steps.fetches).toBe(1);
    expect(store.lastEventId).toBeNull();
    expect(log.lines.some((l) => l.includes('the hello answer does not fit the contract'))).toBe(true);
  });

  it('keeps the last good state when a resync fails, and catches up again with backoff', async () => {
    await connected();
    steps.fetchError = new Error('503 failing');
    socket.push({ id: 11, type: 'board.changed', board_id: 'b1' });
    await clock.advance(200);
    expect(store.get()).toBe(fetched);
    expect(log.lines.some((l) => l.includes('resync failed, keeping the last good state'))).toBe(true);
    // The first retry comes after 0.5 to 1 s: 0.75 s with this random.
    await clock.advance(749);
    expect(socket.hellos).toHaveLength(1);
    await clock.advance(1);
    expect(socket.hellos).toHaveLength(2);
    steps.fetchError = null;
    await clock.advance(1500);
    expect(socket.hellos).toHaveLength(3);
  });

  it('registers again when the service forgot the device', async () => {
    await connected();
    steps.fetchError = new UnknownDeviceError('lobby');
    socket.push({ id: 11, type: 'board.changed', board_id: 'b1' });
    await clock.advance(200);
    steps.fetchError = null;
    await clock.advance(1000);
    expect(steps.registrations).toBe(2);
    expect(sync.isRegistered).toBe(true);

    sync.deviceForgotten();
    expect(sync.isRegistered).toBe(false);
    await clock.advance(0);
    expect(steps.registrations).toBe(3);
  });

  it('stops its timers and its socket', async () => {
    await connected();
    socket.push({ id: 11, type: 'board.changed', board_id: 'b1' });
    sync.stop();
    await clock.advance(10_000);
    expect(steps.fetches).toBe(1);
    expect(socket.closed).toBe(true);
  });
});
