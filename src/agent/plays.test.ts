import { beforeEach, describe, expect, it } from 'vitest';
import type { PlayReport, PlayUpload } from '../shared/play';
import { DeviceAgent } from './agent';
import {
  PERSIST_DELAY_MS,
  PlayLog,
  PLAYS_BATCH,
  PLAYS_KEPT_MAX,
  PLAYS_KEY,
  UPLOAD_DELAY_MS,
  type UploadPlays,
} from './plays';
import { ServiceError } from './service-client';
import { FakeService, sampleBoard, samplePlaylist } from './testing/fake-service';
import { agentDeps, FakeClock, FakeSocket, lobbyConfig, MemoryStore, recordingLogger } from './testing/fakes';

/** The plays route of a service: each id kept once. `loseAnswers` stores a batch but fails the call. */
class FakePlays {
  readonly kept = new Map<string, PlayUpload>();
  readonly batches: number[] = [];
  down = false;
  loseAnswers = 0;

  readonly upload: UploadPlays = async (plays) => {
    if (this.down) throw new ServiceError(0, 'the service cannot be reached');
    this.batches.push(plays.length);
    for (const play of plays) if (!this.kept.has(play.id)) this.kept.set(play.id, play);
    if (this.loseAnswers > 0) {
      this.loseAnswers -= 1;
      throw new ServiceError(0, 'the connection dropped before the answer');
    }
  };
}

let clock: FakeClock;
let store: MemoryStore;
let service: FakePlays;
let log: ReturnType<typeof recordingLogger>;
let writes: number;

function playLog(): PlayLog {
  return new PlayLog({ clock, random: () => 0.5, log, store });
}

/** A board's turn of 10 s, the `n`th since 08:00. */
function turn(n: number): PlayReport {
  const start = Date.parse('2026-11-21T08:00:00Z') + n * 10_000;
  return {
    type: 'board',
    board_id: `brd_${n % 3}`,
    url: null,
    channel_id: 'ch_default',
    started_at: new Date(start).toISOString(),
    ended_at: new Date(start + 10_000).toISOString(),
  };
}

const startsOf = (plays: Iterable<PlayUpload>) => [...plays].map((play) => play.started_at).sort();

beforeEach(() => {
  clock = new FakeClock();
  store = new MemoryStore();
  writes = 0;
  const write = store.write.bind(store);
  store.write = (key, value) => {
    if (key === PLAYS_KEY) writes += 1;
    return write(key, value);
  };
  service = new FakePlays();
  log = recordingLogger();
});

describe('proof of play on the device', () => {
  it('uploads the plays of a few turns together, and writes nothing to disk while online', async () => {
    const plays = playLog();
    plays.connect(service.upload);
    for (let n = 0; n < 3; n++) plays.record(turn(n));
    await clock.advance(UPLOAD_DELAY_MS);
    expect(service.batches).toEqual([3]);
    await clock.advance(PERSIST_DELAY_MS);
    expect(writes).toBe(0);
    expect(plays.size).toBe(0);
  });

  it('keeps what it records while the service is away and uploads it all once after, nothing twice', async () => {
    const plays = playLog();
    plays.connect(service.upload);
    service.down = true;
    // Ten minutes away: a turn every 10 s, 60 plays.
    for (let n = 0; n < 60; n++) {
      plays.record(turn(n));
      await clock.advance(10_000);
    }
    expect(service.kept.size).toBe(0);
    expect(plays.size).toBe(60);
    expect(((await store.read(PLAYS_KEY)) as unknown[]).length).toBeGreaterThan(50);

    // Back: the first batch is stored, but its answer is lost, so it goes again.
    service.down = false;
    service.loseAnswers = 1;
    plays.flush();
    await clock.advance(120_000);
    expect(service.kept.size).toBe(60);
    expect(startsOf(service.kept.values())).toEqual(
      startsOf([...Array(60).keys()].map((n) => ({ id: '', ...turn(n) }))),
    );
    expect(plays.size).toBe(0);
    await clock.advance(PERSIST_DELAY_MS);
    expect(await store.read(PLAYS_KEY)).toEqual([]);
  });

  it('keeps its plays across a restart of the device', async () => {
    const before = playLog();
    before.connect(async () => {
      throw new ServiceError(503, 'unavailable');
    });
    for (let n = 0; n < 5; n++) before.record(turn(n));
    await before.stop();

    const after = playLog();
    await after.restore();
    expect(after.size).toBe(5);
    after.connect(service.upload);
    await clock.advance(0);
    expect(startsOf(service.kept.values())).toEqual(
      startsOf([...Array(5).keys()].map((n) => ({ id: '', ...turn(n) }))),
    );
  });

  it(`uploads in batches of ${PLAYS_BATCH} and keeps at most ${PLAYS_KEPT_MAX}, the newest`, async () => {
    const plays = playLog();
    plays.connect(service.upload);
    service.down = true;
    for (let n = 0; n < PLAYS_KEPT_MAX + 50; n++) plays.record(turn(n));
    expect(plays.size).toBe(PLAYS_KEPT_MAX);
    expect(log.lines.filter((line) => line.includes('dropping the oldest'))).toHaveLength(1);
    service.down = false;
    plays.flush();
    await clock.advance(0);
    expect(service.batches.every((size) => size <= PLAYS_BATCH)).toBe(true);
    expect(service.kept.size).toBe(PLAYS_KEPT_MAX);
    expect(startsOf(service.kept.values())[0]).toBe(turn(50).started_at);
  });

  it('drops a batch the service refuses as wrong (400) rather than holding up the rest', async () => {
    const plays = playLog();
    let calls = 0;
    plays.connect(async (batch) => {
      calls += 1;
      if (calls === 1) throw new ServiceError(400, 'invalid');
      await service.upload(batch);
    });
    for (let n = 0; n < PLAYS_BATCH + 1; n++) plays.record(turn(n));
    await clock.advance(UPLOAD_DELAY_MS);
    expect(service.kept.size).toBe(1);
    expect(log.lines.some((line) => line.startsWith(`error the service refused ${PLAYS_BATCH} plays`))).toBe(
      true,
    );
  });

  it('drops stored records that are damaged, and keeps the others', async () => {
    await store.write(PLAYS_KEY, [
      { id: 'not-a-uuid', ...turn(0) },
      { id: crypto.randomUUID(), ...turn(1) },
    ]);
    const plays = playLog();
    await plays.restore();
    expect(plays.size).toBe(1);
    expect(log.lines).toContain('warn dropped 1 damaged proof-of-play records');
  });
});

describe('the agent across an offline period', () => {
  it('records what the renderer reports while the service is away, and uploads it all once it is back', async () => {
    const fake = new FakeService(() => clock.now());
    fake.addDevice('lobby', 'p1');
    fake.playlists.set('p1', samplePlaylist('p1', ['b1']));
    fake.exports.set('b1', sampleBoard('One', 'cpu', 1));
    // The plays and commands routes, on top of what the fake service answers.
    const fetch = async (url: string, init?: RequestInit): Promise<Response> => {
      const path = new URL(url).pathname;
      if (path === '/devices/lobby/commands') return Response.json([]);
      if (path !== '/devices/lobby/plays') return fake.fetch(url, init);
      await service.upload(JSON.parse(String(init?.body)) as PlayUpload[]);
      return Response.json({ received: 0, stored: 0 });
    };
    const socket = new FakeSocket(() => ({ resync: true, events: [], last_event_id: 1 }));
    const agent = new DeviceAgent(
      agentDeps({
        fetch,
        connectRealtime: () => socket,
        clock,
        store,
        log,
      }),
      lobbyConfig,
    );
    await agent.start();
    socket.fire('connect');
    await clock.advance(0);
    agent.reportPlay(turn(0));
    await clock.advance(UPLOAD_DELAY_MS);
    expect(service.kept.size).toBe(1);

    // The service goes away for five minutes; the screen plays on.
    socket.fire('disconnect', 'transport close');
    fake.down = true;
    service.down = true;
    for (let n = 1; n <= 30; n++) {
      agent.reportPlay(turn(n));
      await clock.advance(10_000);
    }
    expect(service.kept.size).toBe(1);

    // Back: the reconnection's catch-up sends what waited at once, not after the backoff.
    fake.down = false;
    service.down = false;
    socket.fire('connect');
    await clock.advance(0);
    expect(service.kept.size).toBe(31);
    expect(startsOf(service.kept.values())).toEqual(
      startsOf([...Array(31).keys()].map((n) => ({ id: '', ...turn(n) }))),
    );
    await agent.stop();
    expect(await store.read(PLAYS_KEY)).toEqual([]);
  });
});
