import { Temporal } from 'temporal-polyfill';
import { z } from 'zod';
import { calendarDateSchema } from './schedule';
import { playSchema } from './play';

/**
 * Play reports across the account's screens (`GET /plays`, `GET /plays/totals`,
 * docs/api/commands.md): proof of play with the names an advertiser or a compliance report reads
 * beside the ids, and totals per item and day.
 */

/** A play as the fleet report answers it: the play, and the names of what it names. */
export const namedPlaySchema = playSchema.extend({
  /** The screen's name ('' when it has none: its tag says which). */
  device_name: z.string(),
  /** The screen's group now (not when it played), and its name. */
  group_id: z.string().nullable(),
  group_name: z.string().nullable(),
  /** The board's name; null for media and web pages, or a board deleted since. */
  board_name: z.string().nullable(),
  /** The library medium the URL names (`/media/<id>/content`), and its name; null otherwise. */
  media_id: z.string().nullable(),
  media_name: z.string().nullable(),
});
export type NamedPlay = z.infer<typeof namedPlaySchema>;

/** What a total counts: a board, a medium (an image or a video: the library's or a remote URL), a web page. */
export const TOTAL_TYPES = ['board', 'medium', 'web'] as const;
export type TotalType = (typeof TOTAL_TYPES)[number];

/** The plays of one item on one day, across the screens the filters keep. */
export const playTotalSchema = z.object({
  /** The day, `YYYY-MM-DD`, in UTC or the `time_zone` asked for. */
  day: calendarDateSchema,
  type: z.enum(TOTAL_TYPES),
  /** The board's or the library medium's id; null for a remote medium or a web page. */
  item_id: z.string().nullable(),
  /** The medium's or the web page's URL; null for a board. */
  url: z.string().nullable(),
  /** The board's or medium's name (its id when deleted since), or the URL. */
  name: z.string(),
  plays: z.int().min(0),
  /** Seconds on screen, to the millisecond. */
  seconds: z.number().min(0),
  /** How many screens played it that day. */
  screens: z.int().min(0),
});
export type PlayTotal = z.infer<typeof playTotalSchema>;

/** The longest range of totals by day, in days: a leap year. */
export const REPORT_RANGE_DAYS = 366;

export interface DayStart {
  /** The local date, `YYYY-MM-DD`. */
  day: string;
  /** When that day starts, in ms since the epoch. */
  start: number;
}

/**
 * The days of `timeZone` that [from, to) touches, each with the instant it starts (the first one
 * may start before `from`), oldest first. A day of a zone is not always 24 hours (daylight saving
 * time), so each start is asked of the zone.
 */
export function dayStarts(from: number, to: number, timeZone: string): DayStart[] {
  const first = Temporal.Instant.fromEpochMilliseconds(Math.floor(from)).toZonedDateTimeISO(timeZone);
  const days: DayStart[] = [];
  for (let date = first.toPlainDate(); days.length <= REPORT_RANGE_DAYS + 1; date = date.add({ days: 1 })) {
    const start = date.toZonedDateTime({ timeZone }).epochMilliseconds;
    if (start >= to) break;
    days.push({ day: date.toString(), start });
  }
  return days;
}
