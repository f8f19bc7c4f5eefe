import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startPresenceSweeper, sweepIntervalMs, sweepPresence } from './devices/presence';
import { eventsAfter, lastEventId as lastLoggedId, startTestService, type TestService } from './test-support';

const heartbeat = {
  app_version: '1.4.0',
  os: 'Debian 13',
  cpu_load: 3,
  memory: { total_bytes: 4096, used_bytes: 1024 },
  uptime_seconds: 60,
  display: { width: 1920, height: 1080 },
  cache: { bytes: 0, items: 0 },
  showing: 'waiting',
};

/** A clock the test moves by hand. */
function fakeClock(start: string) {
  let current = new Date(start);
  return {
    now: () => current,
    advance(seconds: number) {
      current = new Date(current.getTime() + seconds * 1000);
    },
  };
}

const clock = fakeClock('2026-11-21T07:00:00.000Z');
let service: TestService;

beforeAll(async () => {
  // The default grace period of 90 s: its sweeper ticks every 30 real seconds, never during a test.
  service = await startTestService({ clock });
});
afterAll(() => service.close());
afterEach(() => {
  vi.useRealTimers();
});

const lastEventId = (target: TestService) => lastLoggedId(target.db);
const eventsSince = (target: TestService, mark: number) => eventsAfter(target.db, mark);

async function deviceWithHeartbeat(target: TestService, tag: string): Promise<void> {
  expect((await target.call('POST', '/devices', { tag })).statusCode).toBe(201);
  expect((await target.call('POST', `/devices/${tag}/heartbeat`, heartbeat)).statusCode).toBe(200);
}

async function online(target: TestService, tag: string): Promise<boolean> {
  return (await target.call('GET', `/devices/${tag}`)).json().online;
}

describe('presence sweep', () => {
  it('turns a silent device offline after the grace period, not before, and publishes it', async () => {
    await deviceWithHeartbeat(service, 'silent');
    const ctx = service.app.wallboard;
    const mark = await lastEventId(service);

    clock.advance(89);
    expect(await sweepPresence(ctx)).toEqual([]);
    clock.advance(1);
    // Exactly the grace period: still within it.
    expect(await sweepPresence(ctx)).toEqual([]);
    expect(await online(service, 'silent')).toBe(true);
    expect(await eventsSince(service, mark)).toEqual([]);

    clock.advance(1);
    expect(await sweepPresence(ctx)).toEqual(['silent']);
    expect((await service.call('GET', '/devices/silent')).json()).toMatchObject({
      online: false,
      last_seen_date: '2026-11-21T07:00:00.000Z',
    });
    expect(await eventsSince(service, mark)).toEqual([
      { type: 'device.changed', rooms: ['device:silent'], payload: { device_tag: 'silent' } },
    ]);
    // Already offline: a later sweep leaves it, and says nothing more.
    clock.advance(600);
    expect(await sweepPresence(ctx)).toEqual([]);
    expect(await eventsSince(service, mark)).toHaveLength(1);
  });

  it('keeps a device that beats within the grace period online, and brings a swept one back', async () => {
    await deviceWithHeartbeat(service, 'steady');
    const ctx = service.app.wallboard;
    for (let i = 0; i < 5; i++) {
      clock.advance(60);
      expect(await sweepPresence(ctx)).toEqual([]);
      await service.call('POST', '/devices/steady/heartbeat', heartbeat);
    }
    expect(await online(service, 'steady')).toBe(true);

    clock.advance(120);
    expect(await sweepPresence(ctx)).toEqual(['steady']);
    const mark = await lastEventId(service);
    const back = await service.call('POST', '/devices/steady/heartbeat', heartbeat);
    expect(back.json()).toMatchObject({ online: true, last_seen_date: clock.now().toISOString() });
    expect(await eventsSince(service, mark)).toEqual([
      { type: 'device.changed', rooms: ['device:steady'], payload: { device_tag: 'steady' } },
    ]);
    expect((await service.call('POST', '/devices/steady/offline')).json().online).toBe(false);
  });

  it('leaves devices that never sent a heartbeat alone, and sweeps several at once', async () => {
    expect((await service.call('POST', '/devices', { tag: 'never-seen' })).statusCode).toBe(201);
    await deviceWithHeartbeat(service, 'pair-b');
    await deviceWithHeartbeat(service, 'pair-a');
    clock.advance(91);
    expect(await sweepPresence(service.app.wallboard)).toEqual(['pair-a', 'pair-b']);
    expect(await online(service, 'never-seen')).toBe(false);
  });
});

describe('presence sweeper', () => {
  it('runs three times per grace period, at most once a second', () => {
    expect(sweepIntervalMs(90)).toBe(30_000);
    expect(sweepIntervalMs(3)).toBe(1000);
    expect(sweepIntervalMs(1)).toBe(1000);
  });

  it('sweeps on its timer until stopped', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const ctx = service.app.wallboard;
    await deviceWithHeartbeat(service, 'timed');
    const stop = startPresenceSweeper(ctx);

    clock.advance(91);
    await vi.advanceTimersByTimeAsync(30_000);
    await vi.waitFor(async () => expect(await online(service, 'timed')).toBe(false));

    await stop();
    await service.call('POST', '/devices/timed/heartbeat', heartbeat);
    clock.advance(91);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(await online(service, 'timed')).toBe(true);
  });

  it('is started by the app and turns devices offline by itself', async () => {
    const ownClock = fakeClock('2026-11-21T12:00:00.000Z');
    const fast = await startTestService({ clock: ownClock, config: { offlineAfterSeconds: 3 } });
    try {
      await deviceWithHeartbeat(fast, 'auto');
      ownClock.advance(2);
      await new Promise((resolve) => setTimeout(resolve, 1300));
      expect(await online(fast, 'auto')).toBe(true);
      ownClock.advance(2);
      await vi.waitFor(async () => expect(await online(fast, 'auto')).toBe(false), {
        timeout: 3000,
        interval: 100,
      });
    } finally {
      await fast.close();
    }
  });
});
