import { describe, expect, it } from 'vitest';
import { weeklyWindowSchema, type WeeklyWindow } from '../../../../src/shared/schedule';
import { entryErrors } from './schedule-editor';
import { describeWindow, stretchesOf } from './windows';

const window = (days: WeeklyWindow['days'], from: string, to: string): WeeklyWindow =>
  weeklyWindowSchema.parse({ days, from, to });

describe('where a weekly window lies in the week view', () => {
  it('draws a daytime window on each of its days, in minutes from midnight', () => {
    expect(stretchesOf(window(['mon', 'wed'], '08:00', '18:30'))).toEqual([
      { day: 0, from: 480, to: 1110 },
      { day: 2, from: 480, to: 1110 },
    ]);
  });

  it('splits a window that crosses midnight over its day and the next, Sunday into Monday', () => {
    expect(stretchesOf(window(['fri', 'sun'], '22:00', '06:15'))).toEqual([
      { day: 4, from: 1320, to: 1440 },
      { day: 5, from: 0, to: 375 },
      { day: 6, from: 1320, to: 1440 },
      { day: 0, from: 0, to: 375 },
    ]);
  });

  it('draws nothing on the next day for a window that ends exactly at midnight', () => {
    expect(stretchesOf(window(['sat'], '20:00', '00:00'))).toEqual([{ day: 5, from: 1200, to: 1440 }]);
  });

  it('draws a whole day, 00:00 to 24:00, as one stretch', () => {
    expect(stretchesOf(window(['tue'], '00:00', '24:00'))).toEqual([{ day: 1, from: 0, to: 1440 }]);
  });
});

describe('how a weekly window is described', () => {
  it('names its days and times', () => {
    expect(describeWindow(window(['mon', 'tue', 'wed', 'thu', 'fri'], '08:00', '18:00'))).toBe(
      'Mon, Tue, Wed, Thu, Fri 08:00–18:00',
    );
  });

  it('says when it ends on the next day, including at midnight', () => {
    expect(describeWindow(window(['sat', 'sun'], '22:00', '06:00'))).toBe('Sat, Sun 22:00–06:00 (next day)');
    expect(describeWindow(window(['sun'], '18:00', '00:00'))).toBe('Sun 18:00–00:00 (next day)');
    expect(describeWindow(window(['sun'], '00:00', '24:00'))).toBe('Sun 00:00–24:00');
  });
});

describe("an entry's problems on its fields", () => {
  it('puts each problem of the entry on its field, and one of the whole entry on the card', () => {
    const problems = {
      'entries.0.from': 'must be a time of day',
      'entries.1.to': 'must differ from the start time',
      'entries.1': 'must end after it starts',
    };
    expect(entryErrors(problems, 0)).toEqual({ from: 'must be a time of day' });
    expect(entryErrors(problems, 1)).toEqual({
      to: 'must differ from the start time',
      entry: 'must end after it starts',
    });
    expect(entryErrors(problems, 2)).toEqual({});
  });

  it('keeps the first problem of a field, e.g. of one of its days', () => {
    expect(entryErrors({ 'entries.0.days.1': 'must be one of mon…', 'entries.0.days': 'twice' }, 0)).toEqual({
      days: 'must be one of mon…',
    });
  });

  it('names entries in messages as the page numbers them, from 1', () => {
    expect(entryErrors({ 'entries.3': 'overlaps entries.0 at the same priority' }, 3)).toEqual({
      entry: 'overlaps entry 1 at the same priority',
    });
  });

  it("never shows the problems of entry 11 on entry 2's card", () => {
    const problems = { 'entries.10.from': 'must be a time of day', 'entries.12': 'wrong' };
    expect(entryErrors(problems, 1)).toEqual({});
    expect(entryErrors(problems, 10)).toEqual({ from: 'must be a time of day' });
  });
});
