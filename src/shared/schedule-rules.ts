/**
 * The schedule rules, pure: which entry of a schedule is in force at an instant in a time zone,
 * whether a power schedule has the screen off, the next instant either answer may change (the
 * device sets one timer on it, so a change at 18:00 happens with the service down), and the
 * overlaps the API refuses because no rule would decide between them.
 *
 * Wall-clock semantics: a window is a set of local times (a day of the week and a minute of the
 * day), and it matches at an instant when the zone's clock then reads one of them. So across a
 * daylight-saving change:
 * - Spring forward: the skipped local times never happen. An entry from 02:30 on that day starts
 *   when the clock jumps past 02:30 (at 03:00 in Paris or New York); an entry from 02:00 to 02:30
 *   does not play that day at all.
 * - Fall back: the repeated hour counts as it comes, each pass. An entry from 01:00 to 02:00 in
 *   New York plays through both passes, until the clock reads 02:00 (07:00 UTC); one from 01:30
 *   to 02:00 plays twice, stopping while the clock reads 01:00 to 01:29 the second time.
 * A window whose `to` is not after its `from` crosses midnight, and a schedule entry's dates
 * (inclusive) apply to the local day an occurrence starts on. Offsets and the instants they change
 * come from Temporal (temporal-polyfill, which reads the runtime's time zone database through Intl
 * and gives way to a native Temporal); the rules themselves count days and minutes.
 */
import { Temporal } from 'temporal-polyfill';
import {
  WEEK_DAYS,
  type PowerSchedule,
  type Schedule,
  type ScheduleEntry,
  type WeekDay,
  type WeeklyWindow,
} from './schedule';

const MINUTE = 60_000;
const DAY = 86_400_000;
const MINUTES_A_DAY = 1440;
/** How far ahead nextChange looks: past a whole week, so a weekly schedule always shows its next edge. */
export const NEXT_CHANGE_HORIZON = 8 * DAY;
/** Offsets lie within UTC-12 and UTC+14: a local time is this close to its instant. */
const MAX_OFFSET = 15 * 60 * MINUTE;
const NANOSECONDS_A_MS = 1_000_000;

// ---- Zones ------------------------------------------------------------------------------------

/** Floored: Temporal refuses a fraction of a millisecond, and zones change offset on whole ones. */
function zonedAt(instant: number, timeZone: string): Temporal.ZonedDateTime {
  return Temporal.Instant.fromEpochMilliseconds(Math.floor(instant)).toZonedDateTimeISO(timeZone);
}

/** The offset from UTC of a zoned time, in ms: its wall clock reads `instant + offset`. */
function offsetOf(zoned: Temporal.ZonedDateTime): number {
  return zoned.offsetNanoseconds / NANOSECONDS_A_MS;
}

/** The zone's offsets over a span: each from the instant it starts (sorted), the first from -∞. */
interface Segment {
  start: number;
  offset: number;
}

/** Temporal's transitions: each instant in (from, to] where the offset changes, to the millisecond. */
function segmentsOf(timeZone: string, from: number, to: number): Segment[] {
  let zoned = zonedAt(from, timeZone);
  const segments: Segment[] = [{ start: -Infinity, offset: offsetOf(zoned) }];
  for (;;) {
    const next = zoned.getTimeZoneTransition('next');
    if (!next || next.epochMilliseconds > to) return segments;
    segments.push({ start: next.epochMilliseconds, offset: offsetOf(next) });
    zoned = next;
  }
}

function offsetIn(segments: Segment[], instant: number): number {
  let offset = NaN;
  for (const segment of segments) {
    if (segment.start > instant) break;
    offset = segment.offset;
  }
  return offset;
}

/** The instants at which the clock reads a local time: none when skipped, two when repeated. */
function instantsOf(segments: Segment[], local: number): number[] {
  const instants: number[] = [];
  segments.forEach(({ start, offset }, index) => {
    const instant = local - offset;
    const end = segments[index + 1]?.start ?? Infinity;
    if (instant >= start && instant < end) instants.push(instant);
  });
  return instants;
}

/** A local time as days since 1970-01-01 and the minute of that day. */
interface Local {
  day: number;
  minute: number;
}

function localOf(instant: number, offset: number): Local {
  const local = instant + offset;
  const day = Math.floor(local / DAY);
  return { day, minute: Math.floor((local - day * DAY) / MINUTE) };
}

/** 0 for Monday: 1970-01-01 was a Thursday. */
function weekDayIndex(day: number): number {
  return (((day + 3) % 7) + 7) % 7;
}

/** The local time at an instant in a zone. */
function localAt(instant: number, timeZone: string): Local {
  return localOf(instant, offsetOf(zonedAt(instant, timeZone)));
}

/** The zone's wall clock at an instant: its date, day of the week and minute of the day. */
export function localTime(instant: number, timeZone: string): { date: string; day: WeekDay; minute: number } {
  const zoned = zonedAt(instant, timeZone);
  return {
    date: zoned.toPlainDate().toString(),
    day: WEEK_DAYS[zoned.dayOfWeek - 1] as WeekDay,
    minute: zoned.hour * 60 + zoned.minute,
  };
}

// ---- Windows ----------------------------------------------------------------------------------

/** A window ready to match: days as a bit mask (bit 0 Monday), minutes, and the start days allowed. */
interface Rule {
  days: number;
  from: number;
  /** Minutes after the start day's midnight: past 1440 when the window crosses midnight. */
  end: number;
  first: number;
  last: number;
}

function minutesOf(time: string): number {
  return Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
}

function dayOf(date: string | null, otherwise: number): number {
  return date === null ? otherwise : Date.parse(`${date}T00:00:00Z`) / DAY;
}

function ruleOf(window: WeeklyWindow & Partial<Pick<ScheduleEntry, 'start_date' | 'end_date'>>): Rule {
  const from = minutesOf(window.from);
  const to = minutesOf(window.to);
  return {
    days: window.days.reduce((mask, day) => mask | (1 << WEEK_DAYS.indexOf(day)), 0),
    from,
    end: to > from ? to : to + MINUTES_A_DAY,
    first: dayOf(window.start_date ?? null, -Infinity),
    last: dayOf(window.end_date ?? null, Infinity),
  };
}

/** Whether the window has an occurrence starting on a day. */
function startsOn(rule: Rule, day: number): boolean {
  return (rule.days & (1 << weekDayIndex(day))) !== 0 && day >= rule.first && day <= rule.last;
}

function matches(rule: Rule, { day, minute }: Local): boolean {
  if (minute >= rule.from && minute < rule.end && startsOn(rule, day)) return true;
  return minute < rule.end - MINUTES_A_DAY && startsOn(rule, day - 1);
}

// ---- Entries in force -------------------------------------------------------------------------

interface Ranked {
  index: number;
  entry: ScheduleEntry;
  rule: Rule;
  /**
   * Lower is more specific: [no date range, days in the range, minutes a week]. A range open at
   * one end is a range (it beats none) of endless length (any closed range beats it).
   */
  specificity: [number, number, number];
}

function rank(entry: ScheduleEntry, index: number): Ranked {
  const rule = ruleOf(entry);
  const dated = entry.start_date !== null || entry.end_date !== null;
  const minutesAWeek = entry.days.length * (rule.end - rule.from);
  return { index, entry, rule, specificity: [dated ? 0 : 1, rule.last - rule.first, minutesAWeek] };
}

/** The entries in precedence order: the first that matches is in force. */
function rankedOf(schedule: Schedule): Ranked[] {
  return schedule.entries
    .map(rank)
    .sort((a, b) => b.entry.priority - a.entry.priority || compareSpecificity(a, b) || a.index - b.index);
}

function compareSpecificity({ specificity: a }: Ranked, { specificity: b }: Ranked): number {
  return compare(a[0], b[0]) || compare(a[1], b[1]) || compare(a[2], b[2]);
}

/** Unlike a subtraction, equal infinities (two entries without dates) tie. */
function compare(a: number, b: number): number {
  return a === b ? 0 : a < b ? -1 : 1;
}

function inForce(ranked: Ranked[], local: Local): Ranked | undefined {
  return ranked.find(({ rule }) => matches(rule, local));
}

/** The entry in force at an instant: the highest priority, then the most specific, then the earliest. */
export function entryAt(
  schedule: Schedule,
  instant: number,
  timeZone: string,
): { index: number; entry: ScheduleEntry } | null {
  const found = inForce(rankedOf(schedule), localAt(instant, timeZone));
  return found ? { index: found.index, entry: found.entry } : null;
}

export interface Playing {
  playlist_id: string | null;
  reason: 'entry' | 'schedule-default' | 'playlist' | 'none';
  entry_index: number | null;
}

/** What plays at an instant: the entry in force, else the schedule's default, else `fallback` (the screen's playlist). */
export function playlistAt(
  schedule: Schedule | null,
  fallback: string | null,
  instant: number,
  timeZone: string,
): Playing {
  const found = schedule && entryAt(schedule, instant, timeZone);
  if (found) return { playlist_id: found.entry.playlist_id, reason: 'entry', entry_index: found.index };
  if (schedule?.default_playlist_id) {
    return { playlist_id: schedule.default_playlist_id, reason: 'schedule-default', entry_index: null };
  }
  if (fallback) return { playlist_id: fallback, reason: 'playlist', entry_index: null };
  return { playlist_id: null, reason: 'none', entry_index: null };
}

/** Whether a power schedule has the screen off at an instant. */
export function isOff(power: PowerSchedule | null, instant: number, timeZone: string): boolean {
  if (!power) return false;
  const local = localAt(instant, timeZone);
  return power.off.some((window) => matches(ruleOf(window), local));
}

/**
 * The next instant after `instant` at which playlistAt or isOff answers otherwise (another entry,
 * or the power turning), within NEXT_CHANGE_HORIZON; null when nothing changes that soon. Exact to
 * the millisecond across daylight-saving changes: the candidates are the instants the clock reads
 * a window's edge, and those it jumps at.
 */
export function nextChange(
  schedule: Schedule | null,
  power: PowerSchedule | null,
  instant: number,
  timeZone: string,
): number | null {
  const ranked = schedule ? rankedOf(schedule) : [];
  const offRules = (power?.off ?? []).map(ruleOf);
  if (ranked.length === 0 && offRules.length === 0) return null;
  const horizon = instant + NEXT_CHANGE_HORIZON;
  const segments = segmentsOf(timeZone, instant - MAX_OFFSET, horizon + MAX_OFFSET);
  const stateAt = (at: number): string => {
    const local = localOf(at, offsetIn(segments, at));
    return `${inForce(ranked, local)?.index ?? -1} ${offRules.some((rule) => matches(rule, local))}`;
  };

  const candidates = new Set<number>(segments.slice(1).map(({ start }) => start));
  const lastDay = Math.floor((horizon + MAX_OFFSET) / DAY);
  for (const rule of [...ranked.map(({ rule }) => rule), ...offRules]) {
    for (let day = Math.floor((instant - MAX_OFFSET) / DAY) - 1; day <= lastDay; day++) {
      if (!startsOn(rule, day)) continue;
      for (const edge of [rule.from, rule.end]) {
        for (const at of instantsOf(segments, day * DAY + edge * MINUTE)) candidates.add(at);
      }
    }
  }
  const now = stateAt(instant);
  const ahead = [...candidates].filter((at) => at > instant && at <= horizon).sort((a, b) => a - b);
  return ahead.find((at) => stateAt(at) !== now) ?? null;
}

// ---- Overlaps ---------------------------------------------------------------------------------

/** Whether two windows have occurrences that share a minute (wall clock). */
function overlap(a: Rule, b: Rule): boolean {
  const low = Math.max(a.first, b.first);
  const high = Math.min(a.last, b.last);
  let firstDay = low - 1;
  let lastDay = high + 1;
  if (high - low >= 14) {
    // Both valid together for two weeks or more: there they repeat weekly, and every pairing of
    // occurrences near the dates' edges also happens a whole number of weeks inside.
    firstDay = Number.isFinite(low) ? low : Number.isFinite(high) ? high - 14 : 0;
    lastDay = firstDay + 14;
  }
  for (let dayA = firstDay; dayA <= lastDay; dayA++) {
    if (!startsOn(a, dayA)) continue;
    // An occurrence spans at most two days: only those starting a day apart can meet.
    for (let dayB = Math.max(dayA - 1, firstDay); dayB <= Math.min(dayA + 1, lastDay); dayB++) {
      if (!startsOn(b, dayB)) continue;
      const startA = dayA * MINUTES_A_DAY + a.from;
      const startB = dayB * MINUTES_A_DAY + b.from;
      if (startA < startB + b.end - b.from && startB < startA + a.end - a.from) return true;
    }
  }
  return false;
}

function describe(entry: ScheduleEntry): string {
  const dates =
    entry.start_date || entry.end_date ? `, ${entry.start_date ?? '…'} to ${entry.end_date ?? '…'}` : '';
  return `${entry.days.join(',')} ${entry.from}-${entry.to}${dates}`;
}

/**
 * What the API refuses in a schedule beyond its shape: two entries that can match at the same
 * minute with the same priority and specificity, where only their order would decide. The problem
 * is on the later one (`entries.<i>`), one per pair, naming the earlier. Overlaps the rules decide
 * are fine. Deliberately simple: a third entry that always wins over both does not excuse them,
 * and minutes a spring-forward skips count (the same entries meet in the other weeks anyway).
 */
export function scheduleProblems(schedule: Schedule): { path: string; message: string }[] {
  const ranked = schedule.entries.map(rank);
  const problems: { path: string; message: string }[] = [];
  ranked.forEach((later, j) => {
    for (const earlier of ranked.slice(0, j)) {
      if (earlier.entry.priority !== later.entry.priority || compareSpecificity(earlier, later) !== 0)
        continue;
      if (!overlap(earlier.rule, later.rule)) continue;
      problems.push({
        path: `entries.${later.index}`,
        message: `overlaps entries.${earlier.index} (${describe(earlier.entry)}) with the same priority and specificity; give one a higher priority`,
      });
    }
  });
  return problems;
}
