import { describe, expect, it } from 'vitest';
import { FakeClock } from '../testing/fake-clock';
import { every, Jobs } from './jobs';

function recordingLog() {
  const lines: string[] = [];
  return { lines, error: (_details: { err: unknown }, message: string) => void lines.push(message) };
}

/** Lets every promise chain that can move on do so. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('a periodic job', () => {
  it('runs its pass every period from the end of the previous one, and goes on after a failure', async () => {
    const clock = new FakeClock();
    const log = recordingLog();
    const passes: number[] = [];
    const job = every({ clock, log }, 'counting', 1000, async () => {
      passes.push(clock.now().getTime());
      if (passes.length === 2) throw new Error('the store went away');
    });
    job.start();
    await clock.advance(999);
    expect(passes).toHaveLength(0);
    await clock.advance(2001);
    expect(passes).toHaveLength(3);
    expect(passes[1]! - passes[0]!).toBe(1000);
    expect(log.lines).toEqual(['counting failed']);
    await job.stop();
    expect(clock.pending).toBe(0);
  });

  it('waits for the pass under way when stopped, and starts no other', async () => {
    const clock = new FakeClock();
    let release: () => void = () => undefined;
    let passes = 0;
    const job = every({ clock, log: recordingLog() }, 'slow', 1000, () => {
      passes += 1;
      return new Promise<void>((resolve) => (release = resolve));
    });
    job.start();
    const advancing = clock.advance(1000);
    expect(passes).toBe(1);
    let stopped = false;
    const stopping = job.stop().then(() => (stopped = true));
    await settle();
    expect(stopped).toBe(false);
    release();
    await stopping;
    await advancing;
    await clock.advance(10_000);
    expect(passes).toBe(1);
    expect(clock.pending).toBe(0);
  });
});

describe('the jobs', () => {
  it('start in order, stop together, and a second stop waits for the first', async () => {
    const events: string[] = [];
    const jobs = new Jobs();
    for (const name of ['a', 'b']) {
      jobs.add({
        name,
        start: () => void events.push(`start ${name}`),
        stop: async () => void events.push(`stop ${name}`),
      });
    }
    await jobs.start();
    const first = jobs.stop();
    expect(jobs.stop()).toBe(first);
    await first;
    expect(events).toEqual(['start a', 'start b', 'stop a', 'stop b']);
  });
});
