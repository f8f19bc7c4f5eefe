/**
 * iCalendar: the source's URL answers an `.ics` file (a calendar's "secret address", a room's
 * published calendar). What a mapping reads, at the query's time `now`:
 *
 * `{now: event | null, next: event[], events: event[]}` with
 * `event = {summary, location, description, start, end, all_day}`:
 *
 * - `events`: every event overlapping [now - 12 h, now + 7 days], recurrences expanded (RRULE,
 *   RDATE, EXDATE, and moved or changed occurrences), sorted by start, at most ICAL_EVENTS_MAX;
 * - `now`: the event going on at `now` (start <= now < end): a timed one before an all-day one,
 *   of several the one that began last; null when there is none;
 * - `next`: the events that start after `now`, soonest first, at most ICAL_NEXT_MAX;
 * - `start`, `end`: unix seconds; `end` is exclusive (an all-day event of one day ends at the
 *   next midnight). `summary`, `location`, `description`: text or null. Cancelled events are left out.
 *
 * Times in a zone defined in the file (VTIMEZONE) are read with that definition; a TZID with no
 * definition is read as the IANA zone of that name. Floating times and all-day dates, which name
 * no zone, are read in the calendar's zone (X-WR-TIMEZONE), else UTC.
 *
 * The binding's query, when not '', is a JMESPath expression over that object (`next[0].summary`).
 */
import ICAL from 'ical.js';
import { applyJmesPath, checkJmesPathQuery, fetchSource } from './http-fetch';
import { SourceError, type SourceConnection, type SourceKind, type SourceQuery } from './kind';

export const ICAL_EVENTS_MAX = 1000;
export const ICAL_NEXT_MAX = 20;
const BEFORE_SECONDS = 12 * 3600;
const AFTER_SECONDS = 7 * 86_400;
const TEXT_MAX = 2000;
/**
 * Occurrences stepped through in one calendar (some 10 µs each). Most series are expanded from
 * just before the window (iteratorNear); the others, from their first occurrence, and a rule
 * repeating every minute for years would otherwise cost without end.
 */
const STEPS_MAX = 50_000;

export interface CalendarEvent {
  summary: string | null;
  location: string | null;
  description: string | null;
  start: number;
  end: number;
  all_day: boolean;
}

export interface Calendar {
  now: CalendarEvent | null;
  next: CalendarEvent[];
  events: CalendarEvent[];
}

const formatters = new Map<string, Intl.DateTimeFormat | null>();

/** A formatter showing wall-clock time in `zone`, or null when Intl does not know the zone. */
function formatterOf(zone: string): Intl.DateTimeFormat | null {
  let formatter = formatters.get(zone);
  if (formatter === undefined) {
    try {
      formatter = new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        hourCycle: 'h23',
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
      });
    } catch {
      formatter = null;
    }
    // Zone names come from fetched files: the cache must not grow without bound.
    if (formatters.size > 500) formatters.clear();
    formatters.set(zone, formatter);
  }
  return formatter;
}

/** The zone's offset from UTC at `utcMs`, in ms. */
function offsetAt(formatter: Intl.DateTimeFormat, utcMs: number): number {
  const part: Record<string, number> = {};
  for (const { type, value } of formatter.formatToParts(new Date(utcMs))) part[type] = Number(value);
  const wall = Date.UTC(
    part.year ?? 0,
    (part.month ?? 1) - 1,
    part.day ?? 1,
    part.hour ?? 0,
    part.minute ?? 0,
    part.second ?? 0,
  );
  return wall - Math.floor(utcMs / 1000) * 1000;
}

const DAY_MS = 86_400_000;

/**
 * Unix seconds of a wall-clock time in an IANA zone, as RFC 5545 reads one: a time that occurs
 * twice (clocks turned back) is the first; one that does not occur (clocks turned forward) is
 * read with the offset before the change.
 */
function wallToUnix(time: ICAL.Time, zone: string): number {
  const formatter = formatterOf(zone) ?? formatterOf('UTC');
  const asUtc = Date.UTC(time.year, time.month - 1, time.day, time.hour, time.minute, time.second);
  if (!formatter) return asUtc / 1000;
  // A zone changes its offset at most once in two days: the offsets a day either side are the candidates.
  const before = offsetAt(formatter, asUtc - DAY_MS);
  const after = offsetAt(formatter, asUtc + DAY_MS);
  const fitting = [before, after].filter((offset) => offsetAt(formatter, asUtc - offset) === offset);
  return (asUtc - (fitting.length === 0 ? before : Math.max(...fitting))) / 1000;
}

/** Unix seconds of `time`; `tzid` is the TZID its property named, `calendarZone` the fallback. */
function unixOf(time: ICAL.Time, tzid: string | null, calendarZone: string): number {
  // UTC, or a zone the file defines: ical.js reads it.
  if (!time.isDate && time.zone && time.zone.tzid !== 'floating') return time.toUnixTime();
  const named = !time.isDate && tzid !== null && formatterOf(tzid) !== null ? tzid : calendarZone;
  return wallToUnix(time, named);
}

function textOf(value: unknown): string | null {
  if (typeof value !== 'string' || value.trim() === '') return null;
  const text = value.trim();
  return text.length > TEXT_MAX ? `${text.slice(0, TEXT_MAX - 1)}…` : text;
}

function isCancelled(component: ICAL.Component): boolean {
  return String(component.getFirstPropertyValue('status') ?? '').toUpperCase() === 'CANCELLED';
}

interface Window {
  from: number;
  to: number;
  zone: string;
}

/** One occurrence as the mapping reads it, or null when it is cancelled or outside the window. */
function occurrence(
  item: ICAL.Event,
  start: ICAL.Time,
  end: ICAL.Time,
  window: Window,
): CalendarEvent | null {
  if (isCancelled(item.component)) return null;
  const zone = tzidOf(item);
  const allDay = start.isDate;
  const startSeconds = unixOf(start, zone, window.zone);
  let endSeconds = unixOf(end, zone, window.zone);
  if (allDay && endSeconds <= startSeconds) {
    // An all-day event with no end lasts its one day (RFC 5545, 3.6.1).
    const next = start.clone();
    next.adjust(1, 0, 0, 0);
    endSeconds = unixOf(next, zone, window.zone);
  }
  endSeconds = Math.max(endSeconds, startSeconds);
  // A zero-length event (a reminder) counts when its instant is in the window.
  const overlaps =
    startSeconds < window.to &&
    (endSeconds > window.from || (endSeconds === startSeconds && startSeconds >= window.from));
  if (!overlaps) return null;
  return {
    summary: textOf(item.summary),
    location: textOf(item.location),
    description: textOf(item.description),
    start: startSeconds,
    end: endSeconds,
    all_day: allDay,
  };
}

function rootsOf(text: string): ICAL.Component[] {
  let parsed: unknown;
  try {
    parsed = ICAL.parse(text);
  } catch (error) {
    throw new SourceError(`the answer is not an iCalendar file: ${(error as Error).message}`);
  }
  const list = Array.isArray(parsed) && Array.isArray(parsed[0]) ? (parsed as unknown[]) : [parsed];
  const roots = list.map((jcal) => new ICAL.Component(jcal as unknown[]));
  if (!roots.some((root) => root.name === 'vcalendar')) {
    throw new SourceError('the answer is not an iCalendar file: it has no VCALENDAR');
  }
  return roots;
}

function tzidOf(event: ICAL.Event): string | null {
  const tzid = event.component.getFirstProperty('dtstart')?.getParameter('tzid');
  return typeof tzid === 'string' ? tzid : null;
}

/** How long the series' own occurrences last, in seconds (an all-day one with no end: a day). */
function lengthOf(master: ICAL.Event, window: Window): number {
  const start = unixOf(master.startDate, tzidOf(master), window.zone);
  const end = unixOf(master.endDate, tzidOf(master), window.zone);
  return master.startDate.isDate && end <= start ? 86_400 : Math.max(0, end - start);
}

/** A rule's period in seconds, for the frequencies whose period is a fixed number of wall-clock seconds or days. */
const FIXED_PERIODS: Record<string, number> = {
  SECONDLY: 1,
  MINUTELY: 60,
  HOURLY: 3600,
  DAILY: 86_400,
  WEEKLY: 604_800,
};

/**
 * The series' expansion from a whole number of periods before the window rather than from its
 * first occurrence, when that cannot change which occurrences there are: one RRULE, no COUNT
 * (which counts from the first), a fixed period (months and years vary; they are few anyway).
 * The moved start is an occurrence of its own, so it is kept more than a period and a length
 * before the window, where it is left out.
 */
function iteratorNear(master: ICAL.Event, window: Window, length: number): ICAL.RecurExpansion {
  const rules = master.component.getAllProperties('rrule').map((property) => property.getFirstValue());
  const rule = rules.length === 1 ? rules[0] : null;
  if (!(rule instanceof ICAL.Recur) || rule.count) return master.iterator();
  const unit = FIXED_PERIODS[rule.freq];
  if (unit === undefined) return master.iterator();
  const periods = rule.interval > 0 ? rule.interval : 1;
  const period = unit * periods;
  const start = master.startDate;
  // Two periods of margin: a change of daylight saving time moves wall time by an hour.
  const skipped =
    Math.floor((window.from - length - unixOf(start, tzidOf(master), window.zone)) / period) - 2;
  if (skipped <= 0) return master.iterator();
  const moved = start.clone();
  if (unit >= 86_400) moved.adjust((skipped * period) / 86_400, 0, 0, 0);
  else moved.adjust(0, 0, 0, skipped * period);
  return master.iterator(moved);
}

function keyOf(event: ICAL.Event): string {
  return event.recurrenceId?.toString() ?? '';
}

/** Every occurrence of every event of `root` that overlaps the window. */
function expand(root: ICAL.Component, window: Window, budget: { steps: number }): CalendarEvent[] {
  const found: CalendarEvent[] = [];
  const add = (event: CalendarEvent | null): void => {
    if (event) found.push(event);
  };
  const masters = new Map<string, ICAL.Event>();
  const exceptions: ICAL.Event[] = [];
  for (const [index, component] of root.getAllSubcomponents('vevent').entries()) {
    // An event with no start cannot be placed (RFC 5545 requires DTSTART without a METHOD).
    if (!component.hasProperty('dtstart')) continue;
    const event = new ICAL.Event(component);
    // UID is required, but a file without one is no reason to merge its events into one.
    const uid = event.uid || `#${index}`;
    if (event.isRecurrenceException()) exceptions.push(event);
    else if (!masters.has(uid)) masters.set(uid, event);
  }
  // A changed occurrence belongs to its series; one whose series is not in the file stands alone.
  const related = new Map<ICAL.Event, ICAL.Event[]>();
  for (const exception of exceptions) {
    const master = masters.get(exception.uid);
    if (master?.isRecurring()) {
      master.relateException(exception);
      related.set(master, [...(related.get(master) ?? []), exception]);
    } else {
      add(occurrence(exception, exception.startDate, exception.endDate, window));
    }
  }
  for (const master of masters.values()) {
    if (isCancelled(master.component)) continue;
    if (!master.isRecurring()) {
      add(occurrence(master, master.startDate, master.endDate, window));
      continue;
    }
    const visited = new Set<string>();
    const changed = related.has(master);
    const length = lengthOf(master, window);
    const iterator = iteratorNear(master, window, length);
    for (let next = iterator.next(); next && budget.steps > 0; next = iterator.next()) {
      budget.steps--;
      const start = unixOf(next, tzidOf(master), window.zone);
      if (start > window.to + 86_400) break;
      // Most occurrences are the series' own and end before the window: no details needed.
      if (!changed && start + length <= window.from && length > 0) continue;
      const details = master.getOccurrenceDetails(next);
      if (details.item !== master) visited.add(keyOf(details.item));
      add(occurrence(details.item, details.startDate, details.endDate, window));
    }
    // An occurrence moved into the window from a slot the expansion did not reach.
    for (const exception of related.get(master) ?? []) {
      if (!visited.has(keyOf(exception))) {
        add(occurrence(exception, exception.startDate, exception.endDate, window));
      }
    }
  }
  return found;
}

function calendarZone(roots: ICAL.Component[]): string {
  for (const root of roots) {
    const zone = root.getFirstPropertyValue('x-wr-timezone');
    if (typeof zone === 'string' && formatterOf(zone) !== null) return zone;
  }
  return 'UTC';
}

/** A calendar's text as the mapping reads it at `now`; exported for the tests and the bench. */
export function readCalendar(text: string, now: Date): Calendar {
  const roots = rootsOf(text);
  const at = Math.floor(now.getTime() / 1000);
  const window: Window = { from: at - BEFORE_SECONDS, to: at + AFTER_SECONDS, zone: calendarZone(roots) };
  const budget = { steps: STEPS_MAX };
  const events = roots
    .flatMap((root) => expand(root, window, budget))
    .sort((a, b) => a.start - b.start || a.end - b.end || (a.summary ?? '').localeCompare(b.summary ?? ''))
    .slice(0, ICAL_EVENTS_MAX);
  const current = events
    .filter((event) => event.start <= at && at < event.end)
    .sort((a, b) => Number(a.all_day) - Number(b.all_day) || b.start - a.start);
  return {
    now: current[0] ?? null,
    next: events.filter((event) => event.start > at).slice(0, ICAL_NEXT_MAX),
    events,
  };
}

async function run(connection: SourceConnection, query: SourceQuery, signal: AbortSignal): Promise<unknown> {
  const fault = checkJmesPathQuery(query.query, query.range);
  if (fault !== null) throw new SourceError(fault);
  const { text } = await fetchSource(connection, signal, { accept: 'text/calendar, */*;q=0.1' });
  let calendar: Calendar;
  try {
    calendar = readCalendar(text, query.now);
  } catch (error) {
    // ical.js throws plain errors on values it cannot read (a date of 30 February...).
    if (error instanceof SourceError) throw error;
    throw new SourceError(`the calendar could not be read: ${(error as Error).message}`);
  }
  return applyJmesPath(calendar, query.query);
}

export const icalKind: SourceKind = { run, check: checkJmesPathQuery };
