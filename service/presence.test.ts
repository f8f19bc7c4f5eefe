import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { heartbeatSchema } from '../src/shared/device';
import { recordHeartbeat, sweepPresence } from './actions/devices';
import type { ServiceContext } from './context';
import { sweepIntervalMs } from './jobs/service-jobs';
import { SOCKET_GRACE_MS } from './realtime/presence';
import { eventsAfter, lastEventId as lastLoggedId, startTestService, type TestService } from './test-support';
import { startAgentProcess } from './testing/agent-process';
import { FakeClock } from './testing/fake-clock';
import { clientsOf, cut, hello, listen, type Client } from './testing/realtime-clients';
import { sampleHeartbeat } from '../src/shared/testing/device-fixtures';

const heartbeat = heartbeatSchema.parse(sampleHeartbeat('waiting'));

const SECOND = 1000;

let service: TestService;
/** The app's own clock: never moved here, so its sweep job never runs during these tests. */
const appClock = new FakeClock('2026-11-21T07:00:00.000Z');

beforeAll(async () => {
  service = await startTestService({ clock: appClock });
});
afterAll(() => service.close());

const lastEventId = (target: TestService) => lastLoggedId(target.db);
const eventsSince = (target: TestService, mark: number, type?: string) => eventsAfter(target.db, mark, type);

async function online(target: TestService, tag: string): Promise<boolean> {
  return (await target.call('GET', `/devices/${tag}`)).json().online;
}

/**
 * The sweep as a function: a context of the app with a clock of the test's own, which heartbeats
 * and sweeps read while the app's job sleeps.
 */
describe('presence sweep', () => {
  const clock = new FakeClock('2026-11-21T07:00:00.000Z');
  let ctx: ServiceContext;
  beforeAll(() => {
    ctx = { ...service.app.wallboard, clock };
  });

  async function deviceWithHeartbeat(tag: string): Promise<void> {
    expect((await service.call('POST', '/devices', { tag })).statusCode).toBe(201);
    expect(await recordHeartbeat(ctx, tag, heartbeat, '127.0.0.1')).toMatchObject({ online: true });
  }

  it('turns a silent device offline after the grace period, not before, and publishes it', async () => {
    await deviceWithHeartbeat('silent');
    const mark = await lastEventId(service);

    await clock.advance(89 * SECOND);
    expect(await sweepPresence(ctx)).toEqual([]);
    await clock.advance(SECOND);
    // Exactly the grace period: still within it.
    expect(await sweepPresence(ctx)).toEqual([]);
    expect(await online(service, 'silent')).toBe(true);
    expect(await eventsSince(service, mark)).toEqual([]);

    await clock.advance(SECOND);
    expect(await sweepPresence(ctx)).toEqual(['silent']);
    expect((await service.call('GET', '/devices/silent')).json()).toMatchObject({
      online: false,
      last_seen_date: '2026-11-21T07:00:00.000Z',
    });
    expect(await eventsSince(service, mark)).toEqual([
      { type: 'device.changed', rooms: ['device:silent'], payload: { device_tag: 'silent' } },
    ]);
    // Already offline: a later sweep leaves it, and says nothing more.
    await clock.advance(600 * SECOND);
    expect(await sweepPresence(ctx)).toEqual([]);
    expect(await eventsSince(service, mark)).toHaveLength(1);
  });

  it('keeps a device that beats within the grace period online, and brings a swept one back', async () => {
    await deviceWithHeartbeat('steady');
    for (let i = 0; i < 5; i++) {
      await clock.advance(60 * SECOND);
      expect(await sweepPresence(ctx)).toEqual([]);
      await recordHeartbeat(ctx, 'steady', heartbeat, '127.0.0.1');
    }
    expect(await online(service, 'steady')).toBe(true);

    await clock.advance(120 * SECOND);
    expect(await sweepPresence(ctx)).toEqual(['steady']);
    const mark = await lastEventId(service);
    const back = await recordHeartbeat(ctx, 'steady', heartbeat, '127.0.0.1');
    expect(back).toMatchObject({ online: true, last_seen_date: clock.now().toISOString() });
    expect(await eventsSince(service, mark)).toEqual([
      { type: 'device.changed', rooms: ['device:steady'], payload: { device_tag: 'steady' } },
    ]);
    expect((await service.call('POST', '/devices/steady/offline')).json().online).toBe(false);
  });

  it('leaves devices that never sent a heartbeat alone, and sweeps several at once', async () => {
    expect((await service.call('POST', '/devices', { tag: 'never-seen' })).statusCode).toBe(201);
    await deviceWithHeartbeat('pair-b');
    await deviceWithHeartbeat('pair-a');
    await clock.advance(91 * SECOND);
    expect(await sweepPresence(ctx)).toEqual(['pair-a', 'pair-b']);
    expect(await online(service, 'never-seen')).toBe(false);
  });
});

describe('the presence sweep job', () => {
  it('runs three times per grace period, at most once a second', () => {
    expect(sweepIntervalMs(90)).toBe(30_000);
    expect(sweepIntervalMs(3)).toBe(1000);
    expect(sweepIntervalMs(1)).toBe(1000);
  });

  it('is started by the app, sweeps on the clock, and stops with the app', async () => {
    const clock = new FakeClock('2026-11-21T12:00:00.000Z');
    const own = await startTestService({ clock, config: { offlineAfterSeconds: 90 } });
    try {
      expect((await own.call('POST', '/devices', { tag: 'auto' })).statusCode).toBe(201);
      expect((await own.call('POST', '/devices/auto/heartbeat', heartbeat)).statusCode).toBe(200);
      // Sweeps at 30, 60 and 90 s find it within its grace period (90 s exactly is within).
      await clock.advance(90 * SECOND);
      expect(await online(own, 'auto')).toBe(true);
      // The sweep at 120 s finds it silent for longer.
      await clock.advance(30 * SECOND);
      expect(await online(own, 'auto')).toBe(false);
      expect(clock.pending).toBeGreaterThan(0);
    } finally {
      await own.close();
    }
    // No job is left waiting on the clock.
    expect(clock.pending).toBe(0);
  });
});

describe('presence that follows the socket', () => {
  const clock = new FakeClock('2026-11-21T09:00:00.000Z');
  let own: TestService;
  let url: string;
  const clients = clientsOf(() => url);

  beforeAll(async () => {
    own = await startTestService({ clock });
    url = await listen(own);
  });
  afterEach(() => clients.closeAll());
  afterAll(() => own.close());

  /** A device with a heartbeat and a socket that said hello as it. */
  async function playing(tag: string): Promise<Client> {
    expect((await own.call('POST', '/devices', { tag })).statusCode).toBe(201);
    expect((await own.call('POST', `/devices/${tag}/heartbeat`, heartbeat)).statusCode).toBe(200);
    const client = clients.open();
    expect((await hello(client, null, tag)).error).toBeUndefined();
    return client;
  }

  /** The `device.changed` events of `tag` since `mark` (other tests' devices come and go meanwhile). */
  async function changesOf(tag: string, mark: number) {
    const events = await eventsSince(own, mark, 'device.changed');
    return events.filter((event) => event.payload.device_tag === tag);
  }

  /** Waits until the service has `count` sockets of `tag`: one that went has started its grace. */
  async function socketsOf(tag: string, count: number): Promise<void> {
    await vi.waitFor(async () => {
      const sockets = await own.app.realtime.fetchSockets();
      expect(sockets.filter((socket) => socket.data.deviceTag === tag)).toHaveLength(count);
    });
  }

  it('turns a device whose socket is cut offline after the grace, not before, and publishes it', async () => {
    const client = await playing('cut');
    const mark = await lastEventId(own);
    cut(client);
    await socketsOf('cut', 0);

    await clock.advance(SOCKET_GRACE_MS - 1);
    expect(await online(own, 'cut')).toBe(true);
    expect(await changesOf('cut', mark)).toEqual([]);

    await clock.advance(1);
    expect(await online(own, 'cut')).toBe(false);
    expect(await changesOf('cut', mark)).toEqual([
      { type: 'device.changed', rooms: ['device:cut'], payload: { device_tag: 'cut' } },
    ]);
    // The status keeps the last thing it said; a heartbeat brings it back.
    expect((await own.call('GET', '/devices/cut/status')).statusCode).toBe(200);
    expect((await own.call('POST', '/devices/cut/heartbeat', heartbeat)).json().online).toBe(true);
  });

  it('keeps a device that reconnects within the grace online, and says nothing', async () => {
    const client = await playing('blip');
    const mark = await lastEventId(own);
    cut(client);
    await socketsOf('blip', 0);
    await clock.advance(SOCKET_GRACE_MS / 2);
    expect((await hello(clients.open(), null, 'blip')).error).toBeUndefined();
    await clock.advance(SOCKET_GRACE_MS * 2);
    expect(await online(own, 'blip')).toBe(true);
    expect(await changesOf('blip', mark)).toEqual([]);
  });

  it('keeps online a device that sent a heartbeat after its socket went', async () => {
    const client = await playing('http-only');
    const mark = await lastEventId(own);
    cut(client);
    await socketsOf('http-only', 0);
    await clock.advance(1000);
    expect((await own.call('POST', '/devices/http-only/heartbeat', heartbeat)).statusCode).toBe(200);
    await clock.advance(SOCKET_GRACE_MS);
    expect(await online(own, 'http-only')).toBe(true);
    expect(await changesOf('http-only', mark)).toEqual([]);
  });

  it('waits for the last socket of a device', async () => {
    const first = await playing('twice');
    const second = clients.open();
    expect((await hello(second, null, 'twice')).error).toBeUndefined();
    const mark = await lastEventId(own);
    cut(first);
    await socketsOf('twice', 1);
    await clock.advance(SOCKET_GRACE_MS * 2);
    expect(await online(own, 'twice')).toBe(true);
    expect(await changesOf('twice', mark)).toEqual([]);

    cut(second);
    await socketsOf('twice', 0);
    await clock.advance(SOCKET_GRACE_MS);
    expect(await online(own, 'twice')).toBe(false);
  });

  it('turns nothing offline when the service closes, and leaves no timer behind', async () => {
    const closingClock = new FakeClock('2026-11-21T10:00:00.000Z');
    const closing = await startTestService({ clock: closingClock });
    const closingUrl = await listen(closing);
    const sockets = clientsOf(() => closingUrl);
    try {
      expect((await closing.call('POST', '/devices', { tag: 'stays' })).statusCode).toBe(201);
      expect((await closing.call('POST', '/devices/stays/heartbeat', heartbeat)).statusCode).toBe(200);
      expect((await hello(sockets.open(), null, 'stays')).error).toBeUndefined();
      const mark = await lastEventId(closing);
      await closing.app.close();
      expect(closingClock.pending).toBe(0);
      expect(await eventsSince(closing, mark)).toEqual([]);
    } finally {
      sockets.closeAll();
      await closing.close();
    }
  });
});

describe('presence after kill -9', () => {
  let own: TestService;
  let dir: string;
  beforeAll(async () => {
    // The real clock: a real process is killed, and its socket goes when the kernel closes it.
    own = await startTestService();
    dir = await mkdtemp(join(tmpdir(), 'wallboard-presence-'));
  });
  afterAll(async () => {
    await own.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('sees a device whose process is killed offline within 15 s, long before its heartbeats would', async () => {
    const url = await listen(own);
    // Heartbeats every 60 s and the sweep's 90 s: only the socket can tell within 15 s.
    const { child, output } = startAgentProcess(url, dir, 'killed');
    try {
      // A cold start of its own process (TypeScript compiled on the fly), maybe on a busy machine.
      await vi.waitFor(
        async () => {
          expect(await online(own, 'killed'), `not online; the device said:\n${output()}`).toBe(true);
          expect(await own.app.realtime.fetchSockets()).toHaveLength(1);
        },
        { timeout: 60_000, interval: 100 },
      );
      child.kill('SIGKILL');
      const killedAt = Date.now();
      await vi.waitFor(async () => expect(await online(own, 'killed')).toBe(false), {
        timeout: 20_000,
        interval: 100,
      });
      const seconds = (Date.now() - killedAt) / 1000;
      expect(seconds).toBeLessThan(15);
      expect(seconds).toBeGreaterThanOrEqual(SOCKET_GRACE_MS / 1000 - 0.5);
    } finally {
      child.kill('SIGKILL');
    }
  }, 120_000);
});
