import { beforeEach, describe, expect, it } from 'vitest';
import type { Heartbeat } from '../shared/device';
import { DeviceHeartbeats } from './heartbeat';
import { ServiceError } from './service-client';
import { FakeClock, fixedSystem, recordingLogger } from './testing/fakes';

let clock: FakeClock;
let log: ReturnType<typeof recordingLogger>;
let beats: { tag: string; at: number; beat: Heartbeat }[];
let failWith: Error | null;
let forgotten: number;
let random: number;
let heartbeats: DeviceHeartbeats;

beforeEach(() => {
  clock = new FakeClock();
  log = recordingLogger();
  beats = [];
  failWith = null;
  forgotten = 0;
  random = 0.5;
  heartbeats = new DeviceHeartbeats(
    {
      clock,
      log,
      system: fixedSystem,
      random: () => random,
      appVersion: '1.2.3',
      media: { usage: () => ({ bytes: 10, items: 1 }) },
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

  it('carry the machine, what is on screen, the cache, and each recovery once', async () => {
    heartbeats.reportShowing('board:b1');
    heartbeats.recordRecovery('renderer reloaded after a crash');
    heartbeats.start();
    await clock.advance(0);
    heartbeats.reportShowing('image:https://cdn.test/a.png');
    await clock.advance(30_000);
    expect(beats.map((b) => b.tag)).toEqual(['lobby', 'lobby']);
    expect(beats[0]?.beat).toEqual({
      app_version: '1.2.3',
      ...(await fixedSystem.snapshot()),
      showing: 'board:b1',
      cache: { bytes: 10, items: 1 },
      recoveries: ['renderer reloaded after a crash'],
    });
    expect(beats[1]?.beat).toMatchObject({ showing: 'image:https://cdn.test/a.png', recoveries: [] });
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
