import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  powerScheduleSchema,
  scheduleEntrySchema,
  scheduleSchema,
  WEEK_DAYS,
  type PowerSchedule,
  type Schedule,
  type WeekDay,
} from './schedule';
import { entryAt, isOff, localTime, nextChange, playlistAt, scheduleProblems } from './schedule-rules';

/** An entry as written, its days possibly `as const`. */
type EntryInput = Omit<z.input<typeof scheduleEntrySchema>, 'days'> & { days: readonly WeekDay[] };

const MINUTE = 60_000;
const DAY = 86_400_000;
const at = (iso: string) => Date.parse(iso);
const iso = (instant: number | null) => (instant === null ? null : new Date(instant).toISOString());
const scheduleOf = (entries: EntryInput[], default_playlist_id: string | null = null): Schedule =>
  scheduleSchema.parse({
    entries: entries.map((entry) => ({ ...entry, days: [...entry.days] })),
    default_playlist_id,
  });
const playing = (schedule: Schedule, instant: string, zone = 'UTC') =>
  playlistAt(schedule, null, at(instant), zone).playlist_id;

/** Every change from `start` up to `until`, walking nextChange. */
function walk(
  schedule: Schedule | null,
  power: PowerSchedule | null,
  start: number,
  until: number,
  zone: string,
) {
  const changes: number[] = [];
  for (let t = nextChange(schedule, power, start, zone); t !== null && t <= until;) {
    changes.push(t);
    t = nextChange(schedule, power, t, zone);
  }
  return changes;
}

const allDay = { days: WEEK_DAYS, from: '00:00', to: '24:00' } as const;
const dates = (start_date: string, end_date = start_date) => ({ start_date, end_date });

// 2026-06-01 is a Monday.
describe('the entry in force', () => {
  it('is the highest priority, whatever the order', () => {
    const schedule = scheduleOf([
      { playlist_id: 'always', ...allDay },
      { playlist_id: 'lunch', days: ['mon'], from: '12:00', to: '13:00', priority: 1 },
      { playlist_id: 'office', days: ['mon'], from: '08:00', to: '18:00', priority: 5 },
    ]);
    expect(playing(schedule, '2026-06-01T07:59:59Z')).toBe('always');
    expect(playing(schedule, '2026-06-01T08:00:00Z')).toBe('office');
    expect(playing(schedule, '2026-06-01T12:30:00Z')).toBe('office');
    expect(playing(schedule, '2026-06-01T18:00:00Z')).toBe('always');
    expect(entryAt(schedule, at('2026-06-01T12:30:00Z'), 'UTC')?.index).toBe(2);
  });

  it('goes, among equal priorities, to a date range, then the shorter range, then fewer minutes, then the earlier entry', () => {
    const undated = { playlist_id: 'undated', days: ['mon'], from: '08:00', to: '09:00' } as const;
    const year = { playlist_id: 'year', ...allDay, ...dates('2026-01-01', '2026-12-31') };
    const june = { ...year, playlist_id: 'june', start_date: '2026-06-01', end_date: '2026-06-30' };
    const since = { ...year, playlist_id: 'since', end_date: null };
    const juneMornings = { ...june, playlist_id: 'june-mornings', from: '06:00', to: '12:00' };
    const when = '2026-06-01T08:30:00Z';
    expect(playing(scheduleOf([undated, year]), when)).toBe('year');
    expect(playing(scheduleOf([undated, since]), when)).toBe('since');
    expect(playing(scheduleOf([since, year]), when)).toBe('year');
    expect(playing(scheduleOf([year, june]), when)).toBe('june');
    expect(playing(scheduleOf([june, juneMornings]), when)).toBe('june-mornings');
    expect(playing(scheduleOf([june, { ...june, playlist_id: 'twin' }]), when)).toBe('june');
    expect(playing(scheduleOf([{ ...june, priority: 1 }, juneMornings]), when)).toBe('june');
  });

  it('crosses midnight, into the day after the last listed day', () => {
    const schedule = scheduleOf([
      { playlist_id: 'friday-night', days: ['fri'], from: '22:00', to: '06:00' },
      { playlist_id: 'sunday-night', days: ['sun'], from: '23:00', to: '01:30' },
      { playlist_id: 'evening', days: ['tue'], from: '18:00', to: '24:00' },
    ]);
    expect(playing(schedule, '2026-06-05T21:59:59Z')).toBeNull();
    expect(playing(schedule, '2026-06-05T22:00:00Z')).toBe('friday-night');
    expect(playing(schedule, '2026-06-06T05:59:59Z')).toBe('friday-night');
    expect(playing(schedule, '2026-06-06T06:00:00Z')).toBeNull();
    expect(playing(schedule, '2026-06-04T23:00:00Z')).toBeNull(); // Thursday night
    expect(playing(schedule, '2026-06-06T23:00:00Z')).toBeNull(); // Saturday night
    expect(playing(schedule, '2026-06-08T01:29:00Z')).toBe('sunday-night'); // Monday, the next week
    expect(playing(schedule, '2026-06-08T01:30:00Z')).toBeNull();
    expect(playing(schedule, '2026-06-02T23:59:59Z')).toBe('evening');
    expect(playing(schedule, '2026-06-03T00:00:00Z')).toBeNull();
  });

  it('keeps to its dates, both included, by the day an occurrence starts', () => {
    const june = { playlist_id: 'june', ...allDay, ...dates('2026-06-01', '2026-06-30') };
    const schedule = scheduleOf([june]);
    expect(playing(schedule, '2026-05-31T23:59:59Z')).toBeNull();
    expect(playing(schedule, '2026-06-01T00:00:00Z')).toBe('june');
    expect(playing(schedule, '2026-06-30T23:59:59Z')).toBe('june');
    expect(playing(schedule, '2026-07-01T00:00:00Z')).toBeNull();

    const night = { playlist_id: 'night', days: ['fri'], from: '22:00', to: '06:00' } as const;
    const endsFriday = scheduleOf([{ ...night, end_date: '2026-06-05' }]);
    expect(playing(endsFriday, '2026-06-06T05:00:00Z')).toBe('night'); // past end_date: began Friday
    expect(playing(endsFriday, '2026-06-12T23:00:00Z')).toBeNull();
    const startsSaturday = scheduleOf([{ ...night, days: ['fri', 'sat'], start_date: '2026-06-06' }]);
    expect(playing(startsSaturday, '2026-06-06T05:00:00Z')).toBeNull(); // began Friday, before start_date
    expect(playing(startsSaturday, '2026-06-06T23:00:00Z')).toBe('night');
    expect(playing(startsSaturday, '2026-06-07T05:00:00Z')).toBe('night');
  });
});

describe('what plays', () => {
  const office = { playlist_id: 'office', days: ['mon'], from: '08:00', to: '18:00' } as const;
  const night = '2026-06-01T20:00:00Z';

  it('is the entry in force, else the schedule default, else the screen playlist, else nothing', () => {
    const answer = (schedule: Schedule | null, fallback: string | null, instant: string) =>
      Object.values(playlistAt(schedule, fallback, at(instant), 'UTC'));
    expect(answer(scheduleOf([office], 'idle'), 'own', '2026-06-01T09:00:00Z')).toEqual([
      'office',
      'entry',
      0,
    ]);
    expect(answer(scheduleOf([office], 'idle'), 'own', night)).toEqual(['idle', 'schedule-default', null]);
    expect(answer(scheduleOf([], 'idle'), 'own', night)).toEqual(['idle', 'schedule-default', null]);
    expect(answer(scheduleOf([]), 'own', night)).toEqual(['own', 'playlist', null]);
    expect(answer(null, 'own', night)).toEqual(['own', 'playlist', null]);
    expect(answer(scheduleOf([office]), null, night)).toEqual([null, 'none', null]);
    expect(answer(null, null, night)).toEqual([null, 'none', null]);
  });
});

describe('power', () => {
  const power = powerScheduleSchema.parse({
    off: [
      { days: ['sat'], from: '20:00', to: '07:00' },
      { days: ['sun'], from: '22:00', to: '06:00' },
    ],
  });

  it('is off inside windows that cross midnight, into the day after', () => {
    const when = (instant: string) => isOff(power, at(instant), 'UTC');
    expect(when('2026-06-06T19:59:59Z')).toBe(false);
    expect(['2026-06-06T23:00:00Z', '2026-06-07T06:59:59Z', '2026-06-07T22:00:00Z'].map(when)).toEqual([
      true,
      true,
      true,
    ]);
    expect(when('2026-06-08T05:59:59Z')).toBe(true); // Monday: the day after the last listed day
    expect(['2026-06-07T07:00:00Z', '2026-06-08T06:00:00Z'].map(when)).toEqual([false, false]);
    expect(isOff(null, at('2026-06-07T23:00:00Z'), 'UTC')).toBe(false);
    expect(isOff({ off: [] }, at('2026-06-07T23:00:00Z'), 'UTC')).toBe(false);
  });

  it('follows the wall clock of the zone', () => {
    expect(isOff(power, at('2026-06-07T04:30:00Z'), 'Europe/Paris')).toBe(true); // 06:30
    expect(isOff(power, at('2026-06-07T05:30:00Z'), 'Europe/Paris')).toBe(false); // 07:30
  });
});

describe('daylight saving, on the wall clock', () => {
  it('starts an entry in a skipped hour when the clock jumps past it (spring forward, Paris)', () => {
    // 2026-03-29: at 01:00 UTC, Paris goes from 02:00 (CET) to 03:00 (CEST).
    const schedule = scheduleOf([
      { playlist_id: 'skipped', days: ['sun'], from: '02:00', to: '02:30' },
      { playlist_id: 'early', days: ['sun'], from: '02:30', to: '04:00' },
    ]);
    const zone = 'Europe/Paris';
    expect(playlistAt(schedule, null, at('2026-03-29T00:59:59.999Z'), zone).playlist_id).toBeNull();
    expect(playlistAt(schedule, null, at('2026-03-29T01:00:00Z'), zone).playlist_id).toBe('early');
    expect(localTime(at('2026-03-29T01:00:00Z'), zone)).toEqual({
      date: '2026-03-29',
      day: 'sun',
      minute: 180,
    });
    const changes = walk(schedule, null, at('2026-03-28T12:00:00Z'), at('2026-03-30T00:00:00Z'), zone);
    expect(changes.map(iso)).toEqual(['2026-03-29T01:00:00.000Z', '2026-03-29T02:00:00.000Z']);
  });

  it('starts an entry in a skipped hour when the clock jumps past it (spring forward, New York)', () => {
    // 2026-03-08: at 07:00 UTC, New York goes from 02:00 (EST) to 03:00 (EDT).
    const schedule = scheduleOf([{ playlist_id: 'early', days: ['sun'], from: '02:30', to: '03:30' }]);
    const changes = walk(
      schedule,
      null,
      at('2026-03-07T12:00:00Z'),
      at('2026-03-09T00:00:00Z'),
      'America/New_York',
    );
    expect(changes.map(iso)).toEqual(['2026-03-08T07:00:00.000Z', '2026-03-08T07:30:00.000Z']);
  });

  it('counts the repeated hour as it comes (fall back, Paris)', () => {
    // 2026-10-25: at 01:00 UTC, Paris goes from 03:00 (CEST) back to 02:00 (CET).
    const zone = 'Europe/Paris';
    const whole = scheduleOf([{ playlist_id: 'whole', days: ['sun'], from: '02:00', to: '03:00' }]);
    const from = at('2026-10-24T12:00:00Z');
    const until = at('2026-10-26T00:00:00Z');
    expect(walk(whole, null, from, until, zone).map(iso)).toEqual([
      '2026-10-25T00:00:00.000Z',
      '2026-10-25T02:00:00.000Z',
    ]);
    expect(playlistAt(whole, null, at('2026-10-25T01:00:00Z'), zone).playlist_id).toBe('whole');
    const half = scheduleOf([{ playlist_id: 'half', days: ['sun'], from: '02:30', to: '03:00' }]);
    expect(walk(half, null, from, until, zone).map(iso)).toEqual([
      '2026-10-25T00:30:00.000Z',
      '2026-10-25T01:00:00.000Z',
      '2026-10-25T01:30:00.000Z',
      '2026-10-25T02:00:00.000Z',
    ]);
  });

  it('counts the repeated hour as it comes (fall back, New York), also across midnight', () => {
    // 2026-11-01: at 06:00 UTC, New York goes from 02:00 (EDT) back to 01:00 (EST).
    const zone = 'America/New_York';
    const from = at('2026-10-31T12:00:00Z');
    const until = at('2026-11-02T00:00:00Z');
    const whole = scheduleOf([{ playlist_id: 'whole', days: ['sun'], from: '01:00', to: '02:00' }]);
    expect(walk(whole, null, from, until, zone).map(iso)).toEqual([
      '2026-11-01T05:00:00.000Z',
      '2026-11-01T07:00:00.000Z',
    ]);
    const power = powerScheduleSchema.parse({ off: [{ days: ['sat'], from: '22:00', to: '06:00' }] });
    expect(walk(null, power, from, until, zone).map(iso)).toEqual([
      '2026-11-01T02:00:00.000Z',
      '2026-11-01T11:00:00.000Z',
    ]);
    expect(isOff(power, at('2026-11-01T10:59:59.999Z'), zone)).toBe(true);
  });
});

describe('zones far from UTC', () => {
  const instant = at('2026-05-31T12:00:00Z');

  it('reads the local date, day and minute', () => {
    expect(localTime(instant, 'Pacific/Kiritimati')).toEqual({ date: '2026-06-01', day: 'mon', minute: 120 });
    expect(localTime(instant, 'Pacific/Pago_Pago')).toEqual({ date: '2026-05-31', day: 'sun', minute: 60 });
    expect(localTime(instant, 'Asia/Kathmandu')).toEqual({
      date: '2026-05-31',
      day: 'sun',
      minute: 17 * 60 + 45,
    });
  });

  it('schedules by the local day and dates', () => {
    const schedule = scheduleOf([
      { playlist_id: 'monday', days: ['mon'], from: '08:00', to: '09:00', priority: 1 },
      { playlist_id: 'first', ...allDay, ...dates('2026-06-01') },
    ]);
    expect(playlistAt(schedule, null, instant, 'Pacific/Kiritimati').playlist_id).toBe('first');
    expect(playlistAt(schedule, null, instant, 'Pacific/Pago_Pago').playlist_id).toBeNull();
    expect(iso(nextChange(schedule, null, instant, 'Pacific/Kiritimati'))).toBe('2026-05-31T18:00:00.000Z');
    expect(iso(nextChange(schedule, null, instant, 'Pacific/Pago_Pago'))).toBe('2026-06-01T11:00:00.000Z');
    expect(iso(nextChange(schedule, null, at('2026-06-01T11:00:00Z'), 'Pacific/Pago_Pago'))).toBe(
      '2026-06-01T19:00:00.000Z',
    );
  });
});

describe('the next change', () => {
  it('visits each edge of a week, and only those', () => {
    const schedule = scheduleOf([
      { playlist_id: 'day', days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '08:00', to: '18:00' },
      { playlist_id: 'lunch', days: ['wed'], from: '12:00', to: '13:00', priority: 1 },
      { playlist_id: 'late', days: ['fri'], from: '22:00', to: '02:00' },
      { playlist_id: 'all-week', ...allDay, priority: 2, start_date: '2026-06-20' },
    ]);
    const power = powerScheduleSchema.parse({ off: [{ days: ['sat', 'sun'], from: '03:00', to: '07:00' }] });
    const start = at('2026-06-01T00:00:00Z');
    const hours = walk(schedule, power, start, start + 7 * DAY, 'UTC').map((t) => (t - start) / 3_600_000);
    const weekday = (day: number) => [day * 24 + 8, day * 24 + 18];
    expect(hours).toEqual([
      ...[0, 1].flatMap(weekday),
      ...[56, 60, 61, 66],
      ...[3, 4].flatMap(weekday),
      ...[4 * 24 + 22, 5 * 24 + 2, 5 * 24 + 3, 5 * 24 + 7, 6 * 24 + 3, 6 * 24 + 7],
    ]);
  });

  it('is null when nothing changes within eight days', () => {
    const always = scheduleOf([{ playlist_id: 'a', ...allDay }]);
    const later = scheduleOf([
      { playlist_id: 'a', days: ['mon'], from: '08:00', to: '09:00', start_date: '2027-01-01' },
    ]);
    const now = at('2026-06-01T10:00:00Z');
    expect(nextChange(always, null, now, 'Europe/Paris')).toBeNull();
    expect(nextChange(later, { off: [] }, now, 'UTC')).toBeNull();
    expect(nextChange(null, null, now, 'UTC')).toBeNull();
    expect(iso(nextChange(later, null, at('2026-12-30T10:00:00Z'), 'UTC'))).toBe('2027-01-04T08:00:00.000Z');
  });

  /** A small seeded generator (mulberry32): the same schedules on every run. */
  function random(seed: number) {
    let state = seed;
    return (below: number) => {
      state = (state + 0x6d2b79f5) | 0;
      let t = Math.imul(state ^ (state >>> 15), 1 | state);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * below);
    };
  }

  function randomWindow(next: (below: number) => number) {
    const time = (minutes: number) =>
      `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
    const from = next(96) * 15;
    let to = (1 + next(96)) * 15;
    if (to === from) to = from === 1440 - 15 ? 1440 : from + 15;
    return { days: WEEK_DAYS.filter(() => next(2) === 0), from: time(from), to: time(to) };
  }

  const cases = [
    { zone: 'Europe/Paris', start: '2026-03-25T00:00:00Z' },
    { zone: 'Europe/Paris', start: '2026-10-21T00:00:00Z' },
    { zone: 'America/New_York', start: '2026-03-04T00:00:00Z' },
    { zone: 'America/New_York', start: '2026-10-28T00:00:00Z' },
    { zone: 'Pacific/Kiritimati', start: '2026-06-01T00:00:00Z' },
    { zone: 'Pacific/Pago_Pago', start: '2026-06-01T00:00:00Z' },
    { zone: 'Asia/Kathmandu', start: '2026-06-01T00:00:00Z' },
  ];

  it.each(cases.map((fields, seed) => ({ ...fields, seed })))(
    'changes exactly when the answer does, across a week ($zone from $start)',
    ({ zone, start, seed }) => {
      const next = random(seed + 1);
      const first = at(start);
      const date = (days: number) => new Date(first + days * DAY).toISOString().slice(0, 10);
      const entries = Array.from({ length: 12 }, (_, index) => {
        const window = randomWindow(next);
        const dated = next(3) === 0 ? { start_date: date(next(9) - 2), end_date: date(next(3) + 7) } : {};
        return {
          ...window,
          days: window.days.length ? window.days : ['sun' as const],
          playlist_id: `p${index}`,
          priority: next(3),
          ...dated,
        };
      });
      const schedule = scheduleOf(entries, 'default');
      const power = powerScheduleSchema.parse({
        off: Array.from({ length: 3 }, () => randomWindow(next)).filter((window) => window.days.length),
      });
      const state = (t: number) =>
        `${playlistAt(schedule, null, t, zone).entry_index} ${isOff(power, t, zone)}`;

      const end = first + 7 * DAY;
      const changes = walk(schedule, power, first, end, zone);
      // Offsets here are whole minutes: the answer holds through each minute, so minutes show every change.
      const expected: number[] = [];
      let previous = state(first);
      for (let t = first + MINUTE; t <= end; t += MINUTE) {
        const now = state(t);
        if (now !== previous) expected.push(t);
        previous = now;
      }
      expect(changes.map(iso)).toEqual(expected.map(iso));
      for (const t of changes) expect(state(t - 1)).not.toBe(state(t));
      expect(changes.length).toBeGreaterThan(10);
    },
  );
});

describe('schedule problems', () => {
  const problems = (entries: EntryInput[]) => scheduleProblems(scheduleOf(entries));
  const office = { playlist_id: 'office', days: ['mon'], from: '08:00', to: '18:00' } as const;

  it('names the earlier entry on the later one when nothing decides between them', () => {
    expect(
      problems([
        office,
        { ...office, days: ['tue'] },
        { playlist_id: 'late', days: ['mon'], from: '17:00', to: '03:00' },
      ]),
    ).toEqual([
      {
        path: 'entries.2',
        message:
          'overlaps entries.0 (mon 08:00-18:00) with the same priority and specificity; give one a higher priority',
      },
    ]);
  });

  it('finds overlaps across midnight, and none between windows that only touch', () => {
    const night = { playlist_id: 'night', days: ['sun'], from: '22:00', to: '02:00' } as const;
    expect(
      problems([night, { playlist_id: 'early', days: ['mon'], from: '01:00', to: '05:00' }]),
    ).toHaveLength(1);
    expect(problems([night, { playlist_id: 'early', days: ['mon'], from: '02:00', to: '06:00' }])).toEqual(
      [],
    );
    expect(problems([office, { ...office, from: '18:00', to: '04:00' }])).toEqual([]);
  });

  it('accepts overlaps that the priority or the specificity decides', () => {
    expect(problems([office, { ...office, priority: 1 }])).toEqual([]);
    expect(problems([office, { ...office, start_date: '2026-06-01' }])).toEqual([]);
    expect(problems([office, { ...office, to: '17:00' }])).toEqual([]);
  });

  it('compares dates, by the day each occurrence starts', () => {
    const friday = {
      playlist_id: 'f',
      days: ['fri'],
      from: '22:00',
      to: '06:00',
      ...dates('2026-06-05'),
    } as const;
    const saturday = {
      playlist_id: 's',
      days: ['sat'],
      from: '05:00',
      to: '13:00',
      ...dates('2026-06-06'),
    } as const;
    const [problem] = problems([friday, saturday]);
    expect(problem?.message).toContain('entries.0 (fri 22:00-06:00, 2026-06-05 to 2026-06-05)');
    expect(problems([friday, { ...saturday, ...dates('2026-06-13') }])).toEqual([]);
    // Two quarters of the same length: sharing a Tuesday, Monday entries never meet; sharing a Monday, they do.
    const first = { ...office, start_date: '2026-01-01', end_date: '2026-03-31' };
    expect(problems([first, { ...office, start_date: '2026-03-31', end_date: '2026-06-28' }])).toEqual([]);
    expect(
      problems([
        { ...first, end_date: '2026-03-30' },
        { ...office, start_date: '2026-03-30', end_date: '2026-06-26' },
      ]),
    ).toHaveLength(1);
  });

  it('lets the schema refuse an empty window and dates in the wrong order', () => {
    expect(scheduleEntrySchema.safeParse({ ...office, to: '08:00' }).error?.issues).toMatchObject([
      { path: ['to'], message: 'must differ from the start time (a whole day is 00:00 to 24:00)' },
    ]);
    expect(
      scheduleEntrySchema.safeParse({ ...office, start_date: '2026-06-02', end_date: '2026-06-01' }).error
        ?.issues,
    ).toMatchObject([{ path: ['end_date'], message: 'must not be before start_date' }]);
    expect(
      powerScheduleSchema.safeParse({ off: [{ days: ['mon'], from: '00:00', to: '00:00' }] }).error?.issues[0]
        ?.path,
    ).toEqual(['off', 0, 'to']);
    expect(
      scheduleEntrySchema.safeParse({
        ...office,
        from: '00:00',
        to: '24:00',
        start_date: '2026-06-01',
        end_date: '2026-06-01',
      }).success,
    ).toBe(true);
  });
});
