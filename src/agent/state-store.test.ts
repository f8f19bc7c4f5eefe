import { beforeEach, describe, expect, it } from 'vitest';
import type { BridgeMessage, PlayerState } from '../shared/bridge';
import { emptyState } from './player-state';
import { StateStore } from './state-store';
import { sampleBoard, samplePlaylist } from './testing/fake-service';
import { FakeClock, MemoryStore, recordingLogger } from './testing/fakes';

const device = { tag: 'lobby', name: 'Lobby' };
const synced: PlayerState = {
  ...emptyState(device),
  online: true,
  stale: false,
  playlist: samplePlaylist('p1', ['b1']),
  boards: { b1: sampleBoard('One', 'cpu', 1) },
};

let clock: FakeClock;
let disk: MemoryStore;
let log: ReturnType<typeof recordingLogger>;
let messages: BridgeMessage[];

function makeStore(): StateStore {
  return new StateStore({ store: disk, clock, log }, device, (message) => messages.push(message));
}

/** The times the state is written at from now on, in ms after the start. */
function recordWrites(): number[] {
  const times: number[] = [];
  const write = disk.write.bind(disk);
  disk.write = async (key, value) => {
    times.push(clock.now());
    await write(key, value);
  };
  return times;
}

beforeEach(() => {
  clock = new FakeClock();
  disk = new MemoryStore();
  log = recordingLogger();
  messages = [];
});

describe('the state store', () => {
  it('starts empty and offline, and tells the renderer every new state', () => {
    const store = makeStore();
    expect(store.get()).toEqual(emptyState(device));
    store.set(synced);
    expect(store.get()).toBe(synced);
    expect(messages).toEqual([{ kind: 'state', state: synced }]);
  });

  it('writes metrics into the boards and tells the renderer the metrics alone, within 50 ms', async () => {
    const store = makeStore();
    store.set(synced);
    store.applyMetrics('cpu', { value: 42 });
    expect(store.get().boards.b1?.widgets[0]?.flow.data).toEqual({ value: 42 });
    await clock.advance(50);
    expect(messages.at(-1)).toEqual({
      kind: 'metricsBatch',
      flows: [{ flow_tag: 'cpu', data: { value: 42 } }],
    });
  });

  it('sends no metrics the state it sends next carries already', async () => {
    const store = makeStore();
    store.set(synced);
    store.applyMetrics('cpu', { value: 42 });
    store.set(store.get());
    await clock.advance(1000);
    expect(messages.map((message) => message.kind)).toEqual(['state', 'state']);
  });

  it('restores the last good state of this device, stale and offline, with its last event id', async () => {
    const first = makeStore();
    first.set(synced);
    first.lastEventId = 12;
    await first.close();

    messages = [];
    const second = makeStore();
    await second.restore();
    expect(second.get()).toEqual({ ...synced, online: false, stale: true });
    expect(second.lastEventId).toBe(12);
    expect(messages).toEqual([{ kind: 'state', state: second.get() }]);
  });

  it("ignores a stored state that does not fit the contract, or is another device's", async () => {
    await disk.write('player-state', { state: { ...synced, stale: 'no' }, last_event_id: 3 });
    const broken = makeStore();
    await broken.restore();
    expect(broken.get()).toEqual(emptyState(device));
    expect(broken.lastEventId).toBeNull();

    await disk.write('player-state', { state: { ...synced, device: { tag: 'hall', name: 'Hall' } } });
    const other = makeStore();
    await other.restore();
    expect(other.get()).toEqual(emptyState(device));
    expect(messages).toEqual([]);
  });

  it('saves within 2 s of a change, once a minute while only metrics change, and at once on close', async () => {
    const writes = recordWrites();
    const store = makeStore();
    store.schedulePersist('metrics');
    store.schedulePersist('metrics');
    await clock.advance(59_999);
    expect(writes).toEqual([]);
    await clock.advance(1);
    expect(writes).toEqual([60_000]);

    store.schedulePersist('metrics');
    await clock.advance(1000);
    store.schedulePersist(); // a change of the state brings the metrics' save forward
    store.schedulePersist('metrics'); // and a later one does not push it back
    await clock.advance(2000);
    expect(writes).toEqual([60_000, 63_000]);

    store.schedulePersist();
    await store.close();
    await clock.advance(5000);
    expect(writes).toEqual([60_000, 63_000, 63_000]);
  });

  it('logs a failed save and goes on', async () => {
    disk.write = () => Promise.reject(new Error('disk full'));
    await makeStore().persist();
    expect(log.lines).toEqual(['error cannot save the state: Error: disk full']);
  });
});
