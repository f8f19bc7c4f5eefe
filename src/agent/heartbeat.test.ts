import { beforeEach, describe, expect, it } from 'vitest';
import type { Heartbeat } from '../shared/device';
import { DeviceHeartbeats, MIN_BEAT_GAP_MS } from './heartbeat';
import { NO_RENDERER, ScreenStatus } from './screen-status';
import { ServiceError } from './service-client';
import { FakeClock, fixedSystem, recordingLogger } from './testing/fakes';

let clock: FakeClock;
let log: ReturnType<typeof recordingLogger>;
let beats: { tag: string; at: number; beat: Heartbeat }[];
let failWith: Error | null;
let forgotten: number;
let random: number;
let screen: ScreenStatus;
let heartbeats: DeviceHeartbeats;

beforeEach(() => {
  clock = new FakeClock();
  log = recordingLogger();
  beats = [];
  failWith = null;
  forgotten = 0;
  random = 0.5;
  screen = new ScreenStatus(clock);
  heartbeats = new DeviceHeartbeats(
    {
      clock,
      log,
      system: fixedSystem,
      random: () => random,
      appVersion: '1.2.3',
      media: { usage: () => ({ bytes: 10, items: 1 }) },
      screen,
      client: {
        heartbeat: async (tag, beat) => {
          beats.push({ tag, at: clock.now(), beat });
          if (failWith) throw failWith;
        },
      },
    },
    { tag: 'lobby', intervalMs: 30_000 },
    () => forgotten++,
  );
});

describe('device heartbeats', () => {
  it('beat at once, then every interval with ±10% jitter, until stopped', async () => {
    random = 0; // the shortest jitter: 90% of the interval
    heartbeats.start();
    heartbeats.start();
    await clock.advance(100_000);
    expect(beats.map((b) => b.at)).toEqual([0, 27_000, 54_000, 81_000]);
    heartbeats.stop();
    await clock.advance(100_000);
    expect(beats).toHaveLength(4);
  });

  it('carry the process, what is on screen and its size, the cache, each recovery once, and failures', async () => {
    screen.reportShowing({ showing: 'board:b1', display: { width: 3840, height: 2160 } });
    screen.recordFailure('media:https://cdn.test/b.png', 'download of b.png failed: HTTP 404');
    heartbeats.recordRecovery('renderer reloaded after a crash');
    heartbeats.start();
    await clock.advance(0);
    screen.reportShowing({ showing: 'image:https://cdn.test/a.png', display: { width: 1920, height: 1080 } });
    await clock.advance(30_000);
    expect(beats.map((b) => b.tag)).toEqual(['lobby', 'lobby']);
    expect(beats[0]?.beat).toEqual({
      app_version: '1.2.3',
      ...(await fixedSystem.snapshot()),
      showing: 'board:b1',
      display: { width: 3840, height: 2160 },
      cache: { bytes: 10, items: 1 },
      recoveries: ['renderer reloaded after a crash'],
      failures: [
        {
          item: 'media:https://cdn.test/b.png',
          reason: 'download of b.png failed: HTTP 404',
          at: new Date(0).toISOString(),
        },
      ],
    });
    expect(beats[1]?.beat).toMatchObject({
      showing: 'image:https://cdn.test/a.png',
      display: { width: 1920, height: 1080 },
      recoveries: [],
      failures: [{ item: 'media:https://cdn.test/b.png' }],
    });
  });

  it('say "no renderer", with no display, until a renderer reports', async () => {
    heartbeats.start();
    await clock.advance(0);
    expect(beats[0]?.beat).toMatchObject({ showing: NO_RENDERER, display: null, failures: [] });
  });

  it('beat at once when the connection comes back, unless one was just sent', async () => {
    random = 0.5; // no jitter: every 30 s
    heartbeats.start();
    heartbeats.connected(true);
    await clock.advance(0);
    expect(beats.map((b) => b.at)).toEqual([0]);

    await clock.advance(10_000);
    heartbeats.connected(false);
    heartbeats.connected(false);
    await clock.advance(2000);
    heartbeats.connected(true);
    heartbeats.connected(true);
    await clock.advance(0);
    // The interval starts again from the beat on reconnection.
    await clock.advance(30_000);
    expect(beats.map((b) => b.at)).toEqual([0, 12_000, 42_000]);

    heartbeats.connected(false);
    await clock.advance(MIN_BEAT_GAP_MS - 1000);
    heartbeats.connected(true);
    await clock.advance(0);
    expect(beats).toHaveLength(3);
  });

  it('beat once more right after a beat under way when the connection comes back meanwhile', async () => {
    let answer: () => void = () => undefined;
    const slow = new DeviceHeartbeats(
      {
        clock,
        log,
        system: fixedSystem,
        random: () => 0.5,
        appVersion: '1.2.3',
        media: { usage: () => ({ bytes: 0, items: 0 }) },
        screen,
        client: {
          heartbeat: (tag, beat) => {
            beats.push({ tag, at: clock.now(), beat });
            // The first beat hangs (the network is down) until the test answers it.
            return beats.length === 1
              ? new Promise<void>((resolve) => (answer = resolve))
              : Promise.resolve();
          },
        },
      },
      { tag: 'lobby', intervalMs: 30_000 },
      () => forgotten++,
    );
    slow.start();
    await clock.advance(10_000);
    slow.connected(true);
    await clock.advance(2000);
    answer();
    await clock.advance(0);
    // One loop only: the beat after the hanging one, then every 30 s from it.
    await clock.advance(60_000);
    expect(beats.map((b) => b.at)).toEqual([0, 12_000, 42_000, 72_000]);
    slow.stop();
  });

  it('keep beating through failures, and say when the service forgot the device', async () => {
    failWith = new ServiceError(0, 'unreachable');
    heartbeats.start();
    await clock.advance(30_000);
    expect(beats).toHaveLength(2);
    expect(forgotten).toBe(0);
    expect(log.lines[0]).toBe('warn heartbeat not sent: unreachable');
    failWith = new ServiceError(404, 'not found');
    await clock.advance(30_000);
    expect(forgotten).toBe(1);
  });
});
