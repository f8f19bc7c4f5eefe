import { describe, expect, it } from 'vitest';
import { allToggled, headerState, kept, runBulk, summary, toggled } from './bulk';

describe('selecting many rows', () => {
  it('toggles one row in and out', () => {
    const one = toggled(new Set(), 'a');
    expect([...one]).toEqual(['a']);
    expect([...toggled(one, 'a')]).toEqual([]);
  });

  it('selects every row shown, then clears them, leaving rows hidden by a search as they were', () => {
    const hidden = new Set(['z']);
    const all = allToggled(hidden, ['a', 'b']);
    expect([...all].sort()).toEqual(['a', 'b', 'z']);
    expect(headerState(all, ['a', 'b'])).toEqual({ checked: true, indeterminate: false });
    expect([...allToggled(all, ['a', 'b'])]).toEqual(['z']);
    // Some selected: the header shows it, and selects the rest.
    expect(headerState(new Set(['a']), ['a', 'b'])).toEqual({ checked: false, indeterminate: true });
    expect([...allToggled(new Set(['a']), ['a', 'b'])].sort()).toEqual(['a', 'b']);
    expect(headerState(new Set(), [])).toEqual({ checked: false, indeterminate: false });
  });

  it('forgets rows that are gone', () => {
    expect([...kept(new Set(['a', 'b']), ['b', 'c'])]).toEqual(['b']);
  });
});

describe('bulk work', () => {
  it('runs on each in turn, goes on past a refusal and counts both', async () => {
    const order: string[] = [];
    const progress: number[] = [];
    const outcome = await runBulk(
      ['a', 'b', 'c'],
      (id) => `Screen ${id}`,
      async (id) => {
        order.push(id);
        if (id === 'b') throw new Error('the screen is gone');
      },
      (finished) => progress.push(finished),
    );
    expect(order).toEqual(['a', 'b', 'c']);
    expect(progress).toEqual([1, 2, 3]);
    expect(outcome).toEqual({
      total: 3,
      done: ['Screen a', 'Screen c'],
      failed: [{ name: 'Screen b', reason: 'the screen is gone' }],
    });
    expect(summary(outcome, 'Assigned', 'screen')).toBe('Assigned 2 of 3 screens; 1 failed.');
    expect(summary({ total: 1, done: ['x'], failed: [] }, 'Deleted', 'media file')).toBe(
      'Deleted 1 media file.',
    );
  });
});
