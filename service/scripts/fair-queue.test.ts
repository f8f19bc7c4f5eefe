// The order in which the run slots are granted between accounts, measured grant by grant.
import { describe, expect, it } from 'vitest';
import { FairQueue } from './fair-queue';

interface Run {
  account: string;
  script: string;
}

/** Fills `slots` free slots, then frees the oldest and fills again until nothing waits: the grants in order. */
function grants(queue: FairQueue<Run>, slots: number, running: Run[] = []): string[] {
  const order: string[] = [];
  const busy = (run: Run) => running.some((other) => other.script === run.script);
  const fill = () => {
    while (running.length < slots) {
      const next = queue.take((run) => !busy(run));
      if (!next) return;
      running.push(next.item);
      order.push(next.item.script);
    }
  };
  fill();
  while (running.length) {
    const done = running.shift() as Run;
    queue.release(done.account);
    fill();
  }
  return order;
}

const runs = (account: string, count: number, from = 1): Run[] =>
  Array.from({ length: count }, (_, index) => ({ account, script: `${account}${from + index}` }));

describe('the fair queue', () => {
  it('grants in turn between accounts, whatever order their runs came in', () => {
    const queue = new FairQueue<Run>();
    for (const run of [...runs('b', 6), ...runs('a', 2), ...runs('c', 1)]) queue.push(run.account, run);
    expect(grants(queue, 2)).toEqual(['b1', 'a1', 'c1', 'b2', 'a2', 'b3', 'b4', 'b5', 'b6']);
    expect(queue.size).toBe(0);
  });

  it('lets an account hold more than one slot only while nobody else waits', () => {
    const queue = new FairQueue<Run>();
    for (const run of runs('b', 4)) queue.push(run.account, run);
    const first = [queue.take(() => true), queue.take(() => true)];
    expect(first.map((grant) => grant?.item.script)).toEqual(['b1', 'b2']);
    expect(queue.held('b')).toBe(2);

    // Another account arrives while b holds both slots: the next free slot is its, and b is
    // back to one slot as long as a waits.
    for (const run of runs('a', 3)) queue.push(run.account, run);
    queue.release('b');
    expect(queue.take(() => true)?.item.script).toBe('a1');
    queue.release('b');
    expect(queue.take(() => true)?.item.script).toBe('b3');
    expect([queue.held('a'), queue.held('b')]).toEqual([1, 1]);
    queue.release('a');
    expect(queue.take(() => true)?.item.script).toBe('a2');
    queue.release('b');
    expect(queue.take(() => true)?.item.script).toBe('b4');
    // b has nothing left: a takes every free slot.
    queue.release('b');
    expect(queue.take(() => true)?.item.script).toBe('a3');
    expect(queue.held('a')).toBe(2);
  });

  it('gives the slot to the account holding fewest, with more slots than accounts', () => {
    const queue = new FairQueue<Run>();
    for (const run of [...runs('b', 5), ...runs('a', 2)]) queue.push(run.account, run);
    const taken = Array.from({ length: 4 }, () => queue.take(() => true)?.item.script);
    expect(taken).toEqual(['b1', 'a1', 'b2', 'a2']);
    expect([queue.held('a'), queue.held('b')]).toEqual([2, 2]);
  });

  it('passes over a run that may not start yet, keeping the rest of its account in order', () => {
    const queue = new FairQueue<Run>();
    queue.push('a', { account: 'a', script: 'same' });
    queue.push('a', { account: 'a', script: 'same' });
    queue.push('a', { account: 'a', script: 'other' });
    const running = new Set<string>();
    const take = () => {
      const next = queue.take((run) => !running.has(run.script));
      if (next) running.add(next.item.script);
      return next?.item.script ?? null;
    };
    expect([take(), take(), take()]).toEqual(['same', 'other', null]);
    running.delete('same');
    queue.release('a');
    expect(take()).toBe('same');
  });

  it('gives everything waiting back when drained', () => {
    const queue = new FairQueue<Run>();
    for (const run of [...runs('a', 2), ...runs('b', 1)]) queue.push(run.account, run);
    expect(
      queue
        .drain()
        .map((run) => run.script)
        .sort(),
    ).toEqual(['a1', 'a2', 'b1']);
    expect(queue.size).toBe(0);
    expect(queue.take(() => true)).toBeNull();
  });
});
