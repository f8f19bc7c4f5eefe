// The report's days, in the operator's own time zone: the browser's, which the totals are asked in
// (`time_zone`), so that "today" on the page is the operator's today and the chart's days are theirs.

export type Preset = 'today' | '7' | '30' | 'custom';

/** The presets, and the shorter words that fit a phone's width side by side. */
export const PRESETS: readonly { value: Preset; label: string; short: string }[] = [
  { value: 'today', label: 'Today', short: 'Today' },
  { value: '7', label: 'Last 7 days', short: '7 days' },
  { value: '30', label: 'Last 30 days', short: '30 days' },
  { value: 'custom', label: 'Dates…', short: 'Dates…' },
];

/** Days as the date inputs and the service write them: `YYYY-MM-DD`. */
export interface DayRange {
  first: string;
  last: string;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A local date as `YYYY-MM-DD`. */
export function dayOf(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The local midnight that starts `day`, `days` later. */
function midnight(day: string, days = 0): Date {
  const [year = 1970, month = 1, date = 1] = day.split('-').map(Number);
  return new Date(year, month - 1, date + days);
}

/** The days a preset covers, ending today. */
export function presetDays(preset: Exclude<Preset, 'custom'>, now: Date): DayRange {
  const last = dayOf(now);
  const back = preset === 'today' ? 0 : Number(preset) - 1;
  return { first: dayOf(midnight(last, -back)), last };
}

/** The instants the service is asked for: from the first day's midnight to the one after the last. */
export function instantsOf(range: DayRange): { from: string; to: string } {
  return { from: midnight(range.first).toISOString(), to: midnight(range.last, 1).toISOString() };
}

/** Every day of the range, in order: the chart's x axis, a day with no plays included. */
export function daysOf(range: DayRange): string[] {
  const days: string[] = [];
  for (let day = range.first; day <= range.last && days.length < 400; day = dayOf(midnight(day, 1))) {
    days.push(day);
  }
  return days;
}

/** The local midnight of a day, in seconds since the epoch: where the chart puts it. */
export function secondsOf(day: string): number {
  return midnight(day).getTime() / 1000;
}

/** The browser's zone, which its midnights are of. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** Time on screen as people say it: "45 s", "12 min 5 s", "3 h 20 min". */
export function durationWords(seconds: number): string {
  const whole = Math.round(seconds);
  if (whole < 60) return `${whole} s`;
  const minutes = Math.floor(whole / 60);
  if (minutes < 60) return whole % 60 ? `${minutes} min ${whole % 60} s` : `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
}

/** A day as the table says it: "Fri 20 Nov 2026". */
export function dayWords(day: string): string {
  return midnight(day).toLocaleDateString(undefined, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
  });
}
