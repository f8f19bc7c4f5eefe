// The script time budget of each account, on a clock the test moves: seconds counted, runs
// refused counted, and when the sliding hour gives time back.
import { describe, expect, it } from 'vitest';
import { RunBudget } from './run-budget';

describe('the script time budget', () => {
  it('counts run time over a sliding hour, refuses past it and says when it frees', () => {
    let now = Date.parse('2026-11-21T07:00:00Z');
    const budget = new RunBudget(600_000, () => now);
    budget.charge('a', 400_000);
    now += 20 * 60_000;
    budget.charge('a', 150_000);
    budget.charge('b', 599_000);
    expect(budget.use('a')).toEqual({ spentMs: 550_000, refused: 0 });
    expect(budget.retryAfterSeconds('a')).toBeNull();
    // Runs under way count with the ended ones. Time leaves the window in 10 s slices, whole.
    expect(budget.retryAfterSeconds('a', 60_000)).toBe(40 * 60 + 10);
    expect(budget.retryAfterSeconds('b')).toBeNull();

    budget.charge('a', 50_000);
    expect(budget.use('a').spentMs).toBe(600_000);
    // The first 400 s leave the window an hour after they were charged.
    expect(budget.retryAfterSeconds('a')).toBe(40 * 60 + 10);
    budget.refuse('a');
    budget.refuse('a');
    expect(budget.use('a')).toEqual({ spentMs: 600_000, refused: 2 });

    now += 40 * 60_000 + 10_000;
    expect(budget.use('a')).toEqual({ spentMs: 200_000, refused: 2 });
    expect(budget.retryAfterSeconds('a')).toBeNull();
    now += 20 * 60_000;
    expect(budget.use('a')).toEqual({ spentMs: 0, refused: 0 });
    expect(budget.use('b')).toEqual({ spentMs: 0, refused: 0 });
  });
});
