import { describe, expect, it } from 'vitest';
import { ClockEstimator } from './sync-clock';
import { aroundLoop, playbackRateFor, turnAt, videoPositionAt } from './sync-timeline';

/** A remote clock `offset` ahead; the request takes `up` ms, the answer `down` ms. */
const exchange = (sent: number, offset: number, up: number, down: number) => ({
  sent,
  remote: sent + up + offset,
  received: sent + up + down,
});

describe('ClockEstimator', () => {
  it('reads a remote clock ahead or behind from symmetric round trips', () => {
    for (const offset of [3000, -3000, 0, 12.5]) {
      const estimator = new ClockEstimator();
      estimator.add(exchange(1000, offset, 40, 40));
      expect(estimator.estimate()?.offsetMs).toBeCloseTo(offset, 6);
      expect(estimator.remoteAt(5000)).toBeCloseTo(5000 + offset, 6);
    }
  });

  it('is off by half the asymmetry of the sample it trusts, never more', () => {
    const estimator = new ClockEstimator();
    // 80 ms one way only (a delayed uplink): the estimate is off by 40 ms, half the round trip.
    estimator.add(exchange(0, 500, 80, 0));
    const estimate = estimator.estimate();
    expect(estimate?.offsetMs).toBeCloseTo(540, 6);
    expect(Math.abs((estimate?.offsetMs ?? 0) - 500)).toBeLessThanOrEqual((estimate?.roundTripMs ?? 0) / 2);
  });

  it('trusts the shortest round trip among jittered samples', () => {
    const estimator = new ClockEstimator();
    // Queueing adds to one direction or the other: every long sample is off, the short one is not.
    const jitter = [
      [90, 5],
      [5, 70],
      [60, 60],
      [3, 4],
      [120, 2],
      [2, 150],
    ];
    jitter.forEach(([up = 0, down = 0], step) => estimator.add(exchange(step * 1000, -2000, up, down)));
    const estimate = estimator.estimate();
    expect(estimate?.roundTripMs).toBe(7);
    expect(Math.abs((estimate?.offsetMs ?? 0) + 2000)).toBeLessThanOrEqual(0.5);
  });

  it('forgets samples past the last N, so a better path found earlier ages out', () => {
    const estimator = new ClockEstimator(4);
    estimator.add(exchange(0, 100, 1, 1)); // the best, but old
    for (let step = 1; step <= 4; step++) estimator.add(exchange(step * 1000, 250, 20, 20));
    expect(estimator.estimate()).toEqual({ offsetMs: 250, roundTripMs: 40, samples: 4 });
  });

  it('drops a sample answered before it was asked, or not finite', () => {
    const estimator = new ClockEstimator();
    expect(estimator.add({ sent: 10, remote: 5, received: 9 })).toBe(false);
    expect(estimator.add({ sent: 10, remote: Number.NaN, received: 11 })).toBe(false);
    expect(estimator.estimate()).toBeNull();
    expect(estimator.remoteAt(0)).toBeNull();
  });
});

describe('the shared timeline', () => {
  const items = [{ duration: 10 }, { duration: null }, { duration: 5 }];

  it('places the turn on screen and the next from the epoch, looping, without untimed items', () => {
    expect(turnAt(items, 1000, 1000)).toEqual({
      current: { index: 0, startsAt: 1000, endsAt: 11_000 },
      next: { index: 2, startsAt: 11_000, endsAt: 16_000 },
    });
    expect(turnAt(items, 1000, 15_999)?.current).toEqual({ index: 2, startsAt: 11_000, endsAt: 16_000 });
    // Three loops of 15 s later, and before the epoch too.
    expect(turnAt(items, 1000, 1000 + 45_000 + 12_000)?.current.index).toBe(2);
    expect(turnAt(items, 1000, 1000 - 1000)?.current).toEqual({ index: 2, startsAt: -4000, endsAt: 1000 });
  });

  it('has no turn when nothing has a duration', () => {
    expect(turnAt([{ duration: null }], 0, 5)).toBeNull();
    expect(turnAt([], 0, 5)).toBeNull();
  });

  it('puts a looping video where shared time says and nudges its rate gently', () => {
    expect(videoPositionAt(12_500, 10)).toBeCloseTo(2.5, 9);
    expect(aroundLoop(2.9, 3)).toBeCloseTo(-0.1, 9);
    expect(aroundLoop(-2.9, 3)).toBeCloseTo(0.1, 9);
    expect(aroundLoop(0.4, 3)).toBeCloseTo(0.4, 9);
    expect(playbackRateFor(0.001)).toBe(1);
    expect(playbackRateFor(0.004)).toBeCloseTo(1.008, 9);
    expect(playbackRateFor(-0.01)).toBeCloseTo(0.98, 9);
    expect(playbackRateFor(-0.5)).toBeCloseTo(0.95, 9);
    expect(playbackRateFor(0.9)).toBeCloseTo(1.05, 9);
  });
});
