import { beforeEach, describe, expect, it } from 'vitest';
import { FakeClock, settle } from '../agent/testing/fakes';
import { HEALING_DEFAULTS, SelfHealing, type HealingActions } from './self-healing';

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
const MB = 1024 * 1024;

function setup(options: { gpuDisabled?: boolean } = {}) {
  const clock = new FakeClock();
  const done = {
    reloads: 0,
    crashes: 0,
    restarts: [] as { reason: string; extraArgs: string[] }[],
    gpuDisabled: false,
    records: [] as string[],
    memory: null as number | null,
  };
  const actions: HealingActions = {
    reload: () => (done.reloads += 1),
    crashRenderer: () => (done.crashes += 1),
    restartApp: (reason, extraArgs = []) => done.restarts.push({ reason, extraArgs }),
    disableGpu: async () => {
      done.gpuDisabled = true;
    },
    rendererMemoryBytes: () => done.memory,
    record: (what) => done.records.push(what),
  };
  const healing = new SelfHealing(clock, actions, quiet, options);
  return { clock, done, healing };
}

let t: ReturnType<typeof setup>;
beforeEach(() => {
  t = setup();
});

describe('a renderer that goes away', () => {
  it('is reloaded, and the crash loop restarts the app once the budget is spent', async () => {
    t.healing.rendererGone('crashed');
    await t.clock.advance(60_000);
    t.healing.rendererGone('oom');
    expect(t.done.reloads).toBe(2);
    expect(t.done.restarts).toEqual([]);
    expect(t.done.records).toEqual([
      'the renderer went away (crashed); reloaded it',
      'the renderer went away (oom); reloaded it',
    ]);
    await t.clock.advance(60_000);
    t.healing.rendererGone('crashed');
    expect(t.done.reloads).toBe(2);
    expect(t.done.restarts).toHaveLength(1);
    expect(t.done.restarts[0]?.reason).toMatch(/3 times within 5 min/);
    expect(t.done.records.at(-1)).toMatch(/restarting the app$/);
    // Restarting: nothing more is healed in this process.
    t.healing.rendererGone('crashed');
    expect(t.done.reloads).toBe(2);
  });

  it('forgets crashes older than the window', async () => {
    for (let i = 0; i < 5; i += 1) {
      t.healing.rendererGone('crashed');
      await t.clock.advance(HEALING_DEFAULTS.crashWindowMs / 2);
    }
    expect(t.done.reloads).toBe(5);
    expect(t.done.restarts).toEqual([]);
  });
});

describe('an unresponsive renderer', () => {
  it('is killed after the grace period, then reloaded by its render-process-gone', async () => {
    t.healing.unresponsive();
    await t.clock.advance(HEALING_DEFAULTS.unresponsiveMs - 1);
    expect(t.done.crashes).toBe(0);
    await t.clock.advance(1);
    expect(t.done.crashes).toBe(1);
    expect(t.done.records).toEqual(['the renderer was unresponsive for 30 s; killed and reloaded it']);
    t.healing.rendererGone('killed');
    expect(t.done.reloads).toBe(1);
    // One recovery, not two: the kill was ours.
    expect(t.done.records).toHaveLength(1);
  });

  it('is left alone when it answers again in time', async () => {
    t.healing.unresponsive();
    await t.clock.advance(10_000);
    t.healing.responsive();
    await t.clock.advance(HEALING_DEFAULTS.unresponsiveMs);
    expect(t.done.crashes).toBe(0);
    expect(t.done.records).toEqual([]);
  });
});

describe('GPU process crashes', () => {
  it('turn hardware acceleration off and restart with --disable-gpu after the budget', async () => {
    t.healing.childProcessGone('GPU', 'crashed');
    t.healing.childProcessGone('Utility', 'crashed');
    t.healing.childProcessGone('GPU', 'clean-exit');
    t.healing.childProcessGone('GPU', 'crashed');
    await settle();
    expect(t.done.restarts).toEqual([]);
    t.healing.childProcessGone('GPU', 'abnormal-exit');
    await settle();
    expect(t.done.gpuDisabled).toBe(true);
    expect(t.done.restarts).toEqual([
      { reason: expect.stringMatching(/GPU process went away 3 times/), extraArgs: ['--disable-gpu'] },
    ]);
    expect(t.done.records.at(-1)).toMatch(/restarting without hardware acceleration/);
  });

  it('do not restart in a loop once acceleration is off', async () => {
    t = setup({ gpuDisabled: true });
    for (let i = 0; i < 3; i += 1) t.healing.childProcessGone('GPU', 'crashed');
    await settle();
    expect(t.done.restarts).toEqual([]);
    expect(t.done.records).toEqual([expect.stringMatching(/acceleration already off/)]);
  });
});

describe('the memory watch', () => {
  it('recycles a renderer above the limit at the next change of what is shown', async () => {
    t.healing.start();
    t.done.memory = 500 * MB;
    await t.clock.advance(HEALING_DEFAULTS.memoryCheckMs);
    t.healing.showingChanged();
    expect(t.done.reloads).toBe(0);

    t.done.memory = 1100 * MB;
    await t.clock.advance(HEALING_DEFAULTS.memoryCheckMs);
    expect(t.done.reloads).toBe(0);
    t.healing.showingChanged();
    expect(t.done.reloads).toBe(1);
    expect(t.done.records).toEqual([
      'the renderer grew past 1024 MB; reloaded it between two playlist items',
    ]);
    // Once recycled, a change of board alone does not reload again.
    t.healing.showingChanged();
    expect(t.done.reloads).toBe(1);
  });

  it('recycles anyway when nothing changes on screen for a long time', async () => {
    t.healing.start();
    t.done.memory = 2000 * MB;
    await t.clock.advance(HEALING_DEFAULTS.memoryCheckMs);
    await t.clock.advance(HEALING_DEFAULTS.recycleFallbackMs - 1);
    expect(t.done.reloads).toBe(0);
    await t.clock.advance(1);
    expect(t.done.reloads).toBe(1);
    expect(t.done.records[0]).toMatch(/after waiting 15 min for a change of board/);
  });

  it('stops watching when stopped', async () => {
    t.healing.start();
    t.healing.stop();
    t.done.memory = 2000 * MB;
    await t.clock.advance(HEALING_DEFAULTS.memoryCheckMs * 3);
    t.healing.showingChanged();
    t.healing.rendererGone('crashed');
    expect(t.done.reloads).toBe(0);
  });
});
