import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectionTo, MIME, startHttpFixtures, type HttpFixtures } from '../test-servers/http-fixtures';
import { icalKind, ICAL_NEXT_MAX, readCalendar, type CalendarEvent } from './ical';

let server: HttpFixtures;
beforeAll(async () => {
  server = await startHttpFixtures();
});
afterAll(async () => {
  await server.stop();
});

const signal = new AbortController().signal;
const at = (iso: string) => Date.parse(iso) / 1000;
const ics = (...lines: string[]) => [...lines, ''].join('\r\n');

// Berlin's zone as calendars ship it; X-WR-TIMEZONE says floating times and days are Berlin's too.
const BERLIN = [
  'BEGIN:VTIMEZONE',
  'TZID:Europe/Berlin',
  'BEGIN:DAYLIGHT',
  'TZOFFSETFROM:+0100',
  'TZOFFSETTO:+0200',
  'TZNAME:CEST',
  'DTSTART:19700329T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU',
  'END:DAYLIGHT',
  'BEGIN:STANDARD',
  'TZOFFSETFROM:+0200',
  'TZOFFSETTO:+0100',
  'TZNAME:CET',
  'DTSTART:19701025T030000',
  'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU',
  'END:STANDARD',
  'END:VTIMEZONE',
];

const event = (...lines: string[]) => ['BEGIN:VEVENT', 'DTSTAMP:20260101T000000Z', ...lines, 'END:VEVENT'];

const CALENDAR = ics(
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'PRODID:-//Wallboard tests//EN',
  'X-WR-TIMEZONE:Europe/Berlin',
  ...BERLIN,
  // Every Monday 09:00-10:00 Berlin time; 9 March skipped; 16 March moved; 27 April moved early.
  ...event(
    'UID:standup',
    'SUMMARY:Standup',
    'LOCATION:Room 1',
    'DESCRIPTION:Daily\\, but weekly',
    'DTSTART;TZID=Europe/Berlin:20260105T090000',
    'DTEND;TZID=Europe/Berlin:20260105T100000',
    'RRULE:FREQ=WEEKLY;BYDAY=MO',
    'EXDATE;TZID=Europe/Berlin:20260309T090000',
  ),
  ...event(
    'UID:standup',
    'RECURRENCE-ID;TZID=Europe/Berlin:20260316T090000',
    'SUMMARY:Standup (moved)',
    'DTSTART;TZID=Europe/Berlin:20260317T140000',
    'DTEND;TZID=Europe/Berlin:20260317T150000',
  ),
  ...event(
    'UID:standup',
    'RECURRENCE-ID;TZID=Europe/Berlin:20260427T090000',
    'SUMMARY:Standup (early)',
    'DTSTART;TZID=Europe/Berlin:20260318T090000',
    'DTEND;TZID=Europe/Berlin:20260318T100000',
  ),
  // A zone named but not defined in the file: read as the IANA zone.
  ...event(
    'UID:ny',
    'SUMMARY:New York call',
    'DTSTART;TZID=America/New_York:20260302T100000',
    'DTEND;TZID=America/New_York:20260302T110000',
  ),
  ...event('UID:day', 'SUMMARY:Open day', 'DTSTART;VALUE=DATE:20260302', 'DTEND;VALUE=DATE:20260303'),
  ...event(
    'UID:gone',
    'SUMMARY:Cancelled',
    'STATUS:CANCELLED',
    'DTSTART:20260303T100000Z',
    'DTEND:20260303T110000Z',
  ),
  ...event('UID:utc', 'SUMMARY:Review', 'DTSTART:20260304T120000Z', 'DURATION:PT30M'),
  ...event('UID:floating', 'SUMMARY:Lunch', 'DTSTART:20260305T120000', 'DTEND:20260305T130000'),
  ...event('UID:oneday', 'SUMMARY:Holiday', 'DTSTART;VALUE=DATE:20260306'),
  ...event('UID:old', 'SUMMARY:Long ago', 'DTSTART:20250101T100000Z', 'DTEND:20250101T110000Z'),
  'END:VCALENDAR',
);

// A changed occurrence replaces the series' one whole (RFC 5545): only what it says itself.
const standup = (start: string, end: string, summary = 'Standup', changed = false): CalendarEvent => ({
  summary,
  location: changed ? null : 'Room 1',
  description: changed ? null : 'Daily, but weekly',
  start: at(start),
  end: at(end),
  all_day: false,
});

describe('an iCalendar source', () => {
  it('answers now, next and the events of [now - 12 h, now + 7 days]', async () => {
    const url = server.serve('/room.ics', { type: MIME.ics, body: CALENDAR });
    const now = new Date('2026-03-02T08:30:00Z');
    const calendar = await icalKind.run(connectionTo(url), { query: '', range: null, now }, signal);
    const day = { summary: 'Open day', location: null, description: null, all_day: true };
    const plain = { location: null, description: null, all_day: false };
    const events: CalendarEvent[] = [
      // Berlin's midnight is 23:00 UTC in winter.
      { ...day, start: at('2026-03-01T23:00:00Z'), end: at('2026-03-02T23:00:00Z') },
      standup('2026-03-02T08:00:00Z', '2026-03-02T09:00:00Z'),
      {
        ...plain,
        summary: 'New York call',
        start: at('2026-03-02T15:00:00Z'),
        end: at('2026-03-02T16:00:00Z'),
      },
      { ...plain, summary: 'Review', start: at('2026-03-04T12:00:00Z'), end: at('2026-03-04T12:30:00Z') },
      { ...plain, summary: 'Lunch', start: at('2026-03-05T11:00:00Z'), end: at('2026-03-05T12:00:00Z') },
      { ...day, summary: 'Holiday', start: at('2026-03-05T23:00:00Z'), end: at('2026-03-06T23:00:00Z') },
      // 9 March is excluded; nothing else until the window's end on 9 March, 08:30 UTC.
    ];
    expect(calendar).toEqual({ now: events[1], next: events.slice(2), events });
  });

  it('expands a series across a change of daylight saving time', () => {
    const calendar = readCalendar(CALENDAR, new Date('2026-03-28T12:00:00Z'));
    // 23 March at 09:00 CET is 08:00 UTC; 30 March at 09:00 CEST is 07:00 UTC.
    expect(calendar.events).toEqual([standup('2026-03-30T07:00:00Z', '2026-03-30T08:00:00Z')]);
    expect(calendar.now).toBeNull();
  });

  it('shows moved occurrences where they went, also from past the window', () => {
    const calendar = readCalendar(CALENDAR, new Date('2026-03-16T06:00:00Z'));
    expect(calendar.events).toEqual([
      standup('2026-03-17T13:00:00Z', '2026-03-17T14:00:00Z', 'Standup (moved)', true),
      standup('2026-03-18T08:00:00Z', '2026-03-18T09:00:00Z', 'Standup (early)', true),
    ]);
    // 27 April's slot is empty: its occurrence moved to 18 March.
    const april = readCalendar(CALENDAR, new Date('2026-04-26T12:00:00Z'));
    expect(april.events.map((item) => item.summary)).toEqual([]);
  });

  it(`keeps ${ICAL_NEXT_MAX} upcoming events in next and applies the query`, async () => {
    const hourly = ics(
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//Wallboard tests//EN',
      ...event('UID:tick', 'SUMMARY:Tick', 'DTSTART:20200101T000000Z', 'DURATION:PT10M', 'RRULE:FREQ=HOURLY'),
      'END:VCALENDAR',
    );
    const url = server.serve('/hourly.ics', { type: MIME.ics, body: hourly });
    const now = new Date('2026-03-02T10:05:00Z');
    const started = performance.now();
    const calendar = readCalendar(hourly, now);
    // Six years of hourly ticks: expanded from just before the window, so quick.
    expect(performance.now() - started).toBeLessThan(200);
    expect(calendar.now?.start).toBe(at('2026-03-02T10:00:00Z'));
    expect(calendar.next).toHaveLength(ICAL_NEXT_MAX);
    expect(calendar.next[0]?.start).toBe(at('2026-03-02T11:00:00Z'));
    // 22:00 the day before (it ends 22:10, after now - 12 h) to 10:00 a week later.
    expect(calendar.events).toHaveLength(12 + 7 * 24 + 1);
    const query = { query: 'next[0].summary', range: null, now };
    await expect(icalKind.run(connectionTo(url), query, signal)).resolves.toBe('Tick');
  });

  it('expands an old every-other-week series from near the window in step with its start', () => {
    const biweekly = ics(
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//Wallboard tests//EN',
      ...BERLIN,
      ...event(
        'UID:biweekly',
        'SUMMARY:Planning',
        // A Monday, in the winter: the series runs through six years of clock changes.
        'DTSTART;TZID=Europe/Berlin:20200106T090000',
        'DTEND;TZID=Europe/Berlin:20200106T093000',
        'RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH',
        'EXDATE;TZID=Europe/Berlin:20260312T090000',
      ),
      'END:VCALENDAR',
    );
    const starts = (now: string) =>
      readCalendar(biweekly, new Date(now)).events.map((item) => new Date(item.start * 1000).toISOString());
    // 9 March 2026 is 2254 days, 161 fortnights, after 6 January 2020: a Monday of the series;
    // Thursday 12 March is excluded.
    expect(starts('2026-03-05T12:00:00Z')).toEqual(['2026-03-09T08:00:00.000Z']);
    // After the change to summer time (29 March) 09:00 in Berlin is 07:00 UTC.
    expect(starts('2026-04-03T12:00:00Z')).toEqual(['2026-04-06T07:00:00.000Z', '2026-04-09T07:00:00.000Z']);
  });

  it('reads a time of an undefined zone across its clock changes as RFC 5545 does', () => {
    const shifts = ics(
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      'PRODID:-//Wallboard tests//EN',
      // No UID on either: still two events.
      ...[
        'BEGIN:VEVENT',
        'SUMMARY:In the gap',
        'DTSTART;TZID=America/New_York:20260308T023000',
        'END:VEVENT',
      ],
      ...['BEGIN:VEVENT', 'SUMMARY:Twice', 'DTSTART;TZID=America/New_York:20261101T013000', 'END:VEVENT'],
      'END:VCALENDAR',
    );
    // 02:30 on 8 March does not occur in New York: read with the offset before (-5), 07:30 UTC.
    const gap = readCalendar(shifts, new Date('2026-03-08T00:00:00Z')).events;
    expect(gap.map((item) => [item.summary, item.start])).toEqual([
      ['In the gap', at('2026-03-08T07:30:00Z')],
    ]);
    // 01:30 on 1 November occurs twice: the first, in daylight time (-4), 05:30 UTC.
    const twice = readCalendar(shifts, new Date('2026-11-01T00:00:00Z')).events;
    expect(twice.map((item) => [item.summary, item.start])).toEqual([['Twice', at('2026-11-01T05:30:00Z')]]);
  });

  it('refuses an answer that is not a calendar', async () => {
    const url = server.serve('/not.ics', { type: 'text/html', body: '<html></html>' });
    const run = icalKind.run(connectionTo(url), { query: '', range: null, now: new Date() }, signal);
    await expect(run).rejects.toThrow(/^the answer is not an iCalendar file/);
    expect(() => readCalendar('BEGIN:VCARD\r\nEND:VCARD\r\n', new Date())).toThrow(/no VCALENDAR/);
    // An event with no start is left out rather than failing the calendar.
    const startless = ics(
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      ...event('UID:x', 'SUMMARY:When?'),
      'END:VCALENDAR',
    );
    expect(readCalendar(startless, new Date()).events).toEqual([]);
  });
});
