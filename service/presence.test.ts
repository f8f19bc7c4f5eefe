import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { heartbeatSchema } from '../src/shared/device';
import { recordHeartbeat, sweepPresence } from './actions/devices';
import type { ServiceContext } from './context';
import { sweepIntervalMs } from './jobs/service-jobs';
import { eventsAfter, lastEventId as lastLoggedId, startTestService, type TestService } from './test-support';
import { FakeClock } from './testing/fake-clock';

const heartbeat = heartbeatSchema.parse({
  app_version: '1.4.0',
  os: 'Debian 13',
  cpu_load: 3,
  memory: { total_bytes: 4096, used_bytes: 1024 },
  uptime_seconds: 60,
  display: { width: 1920, height: 1080 },
  cache: { bytes: 0, items: 0 },
  showing: 'waiting',
});

const SECOND = 1000;

let service: TestService;
/** The app's own clock: never moved here, so its sweep job never runs during these tests. */
const appClock = new FakeClock('2026-11-21T07:00:00.000Z');

beforeAll(async () => {
  service = await startTestService({ clock: appClock });
});
afterAll(() => service.close());

const lastEventId = (target: TestService) => lastLoggedId(target.db);
const eventsSince = (target: TestService, mark: number) => eventsAfter(target.db, mark);

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
