import { WEEK_DAYS, type WeekDay, type WeeklyWindow } from '../../../../src/shared/schedule';

export const DAY_LABELS: Record<WeekDay, string> = {
  mon: 'Mon',
  tue: 'Tue',
  wed: 'Wed',
  thu: 'Thu',
  fri: 'Fri',
  sat: 'Sat',
  sun: 'Sun',
};

const minutes = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** A stretch of one day of the week, in minutes from midnight: what the week view draws. */
export interface DayStretch {
  day: number;
  from: number;
  to: number;
}

/**
 * Where a weekly window lies in the week: on each of its days from `from` to `to`, or, when it
 * crosses midnight, from `from` to the day's end and on into the next day (Sunday's into Monday).
 */
export function stretchesOf(window: WeeklyWindow): DayStretch[] {
  const [from, to] = [minutes(window.from), minutes(window.to)];
  return window.days.flatMap((name) => {
    const day = WEEK_DAYS.indexOf(name);
    if (to > from) return [{ day, from, to }];
    return [{ day, from, to: 1440 }, ...(to > 0 ? [{ day: (day + 1) % 7, from: 0, to }] : [])];
  });
}

/** "Mon–Fri 08:00–18:00", "Sat, Sun 22:00–06:00 (next day)". */
export function describeWindow(window: WeeklyWindow): string {
  const days = window.days.map((day) => DAY_LABELS[day]).join(', ');
  const crosses = minutes(window.to) <= minutes(window.from) ? ' (next day)' : '';
  return `${days} ${window.from}–${window.to}${crosses}`;
}
