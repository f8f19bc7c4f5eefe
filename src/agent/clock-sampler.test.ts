import { describe, expect, it } from 'vitest';
import { ClockSampler } from './clock-sampler';
import { FakeClock } from './testing/fakes';

/** A service whose clock is `ahead` ms ahead, answering after `up` ms and heard `down` ms later. */
function service(clock: FakeClock, ahead: number, up: number, down: number) {
  const pings: number[] = [];
  return {
    pings,
    ping: () =>
      new Promise<unknown>((resolve) => {
        pings.push(clock.now());
        clock.setTimeout(() => {
          const answer = { now: clock.now() + ahead };
          clock.setTimeout(() => resolve(answer), down);
        }, up);
      }),
  };
}

async function run(clock: FakeClock, ms: number, step = 10) {
  for (let passed = 0; passed < ms; passed += step) await clock.advance(step);
}

describe('ClockSampler', () => {
  it('reads the service clock within half a round trip, a burst at the connection then every 5 s', async () => {
    const clock = new FakeClock();
    const remote = service(clock, 3000, 40, 40);
    const sampler = new ClockSampler({ clock, ping: remote.ping, wanted: () => true });
    expect(sampler.serviceNow()).toBeNull();
    sampler.connect();
    await run(clock, 5000);
    expect(Math.abs((sampler.serviceNow() ?? 0) - (clock.now() + 3000))).toBeLessThanOrEqual(1);
    const burst = remote.pings.length;
    expect(burst).toBeGreaterThanOrEqual(8);
    await run(clock, 20_000, 100);
    // Steady: about one every 5 s (plus the round trip) after the burst.
    expect(remote.pings.length - burst).toBeGreaterThanOrEqual(3);
    expect(remote.pings.length - burst).toBeLessThanOrEqual(5);
    sampler.disconnect();
  });

  it('sends nothing while the screen is in no sync group, and starts within a second once it is', async () => {
    const clock = new FakeClock();
    const remote = service(clock, -500, 5, 5);
    let wanted = false;
    const sampler = new ClockSampler({ clock, ping: remote.ping, wanted: () => wanted });
    sampler.connect();
    await run(clock, 10_000, 100);
    expect(remote.pings).toEqual([]);
    wanted = true;
    await run(clock, 1100, 10);
    expect(remote.pings.length).toBeGreaterThan(0);
    expect(sampler.serviceNow()).not.toBeNull();
    sampler.disconnect();
  });

  it('keeps its estimate when the connection is lost, and a lost answer costs one sample', async () => {
    const clock = new FakeClock();
    let fail = true;
    const remote = service(clock, 250, 10, 10);
    const ping = () => (fail ? Promise.reject(new Error('timeout')) : remote.ping());
    const sampler = new ClockSampler({ clock, ping, wanted: () => true });
    sampler.connect();
    await run(clock, 600);
    expect(sampler.serviceNow()).toBeNull();
    fail = false;
    await run(clock, 600);
    const known = sampler.serviceNow();
    expect(known).not.toBeNull();
    sampler.disconnect();
    await run(clock, 1000);
    expect(sampler.serviceNow()).toBeCloseTo(clock.now() + 250, 0);
  });
});
