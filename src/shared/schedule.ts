import { z } from 'zod';
import { idSchema } from './common';

/** Days of the week as schedules name them, Monday first (ISO 8601). */
export const WEEK_DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type WeekDay = (typeof WEEK_DAYS)[number];

/** A time of day on the wall clock, `HH:MM` from 00:00 to 23:59; `to` may also be `24:00`. */
const TIME_OF_DAY = /^([01]\d|2[0-3]):[0-5]\d$/;
export const timeOfDaySchema = z.string().regex(TIME_OF_DAY, 'must be a time of day, HH:MM (00:00 to 23:59)');
const endOfWindowSchema = z
  .string()
  .regex(/^(([01]\d|2[0-3]):[0-5]\d|24:00)$/, 'must be a time of day, HH:MM (00:00 to 24:00)');

/** A calendar date, `YYYY-MM-DD`, in the screen's own time zone. */
export const calendarDateSchema = z.iso.date('must be a date, YYYY-MM-DD');

/** An IANA time zone name the runtime knows (`Europe/Paris`, `America/New_York`, `UTC`). */
export const timeZoneSchema = z
  .string()
  .max(64)
  .refine(isTimeZone, 'must be an IANA time zone name, such as Europe/Paris or UTC');

export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

const daysSchema = z
  .array(z.enum(WEEK_DAYS, { error: `must be one of ${WEEK_DAYS.join(', ')}` }))
  .min(1, 'must name at least one day')
  .max(7)
  .refine((days) => new Set(days).size === days.length, 'must not name a day twice');

/**
 * A weekly window of wall-clock time: on each of `days`, from `from` to `to`. A window whose
 * `to` is not after its `from` crosses midnight: it ends at `to` the next day (22:00 to 06:00 on
 * Friday runs into Saturday morning). `from` equal to `to` is refused (empty or all day is
 * ambiguous: all day is 00:00 to 24:00).
 */
export const weeklyWindowSchema = z
  .strictObject({
    days: daysSchema,
    from: timeOfDaySchema,
    to: endOfWindowSchema,
  })
  .refine((window) => window.from !== window.to, {
    path: ['to'],
    message: 'must differ from the start time (a whole day is 00:00 to 24:00)',
  });
export type WeeklyWindow = z.infer<typeof weeklyWindowSchema>;

/**
 * One entry of a schedule: `playlist_id` plays in its weekly window, between `start_date` and
 * `end_date` (both days included; a window that crosses midnight belongs to the day it starts).
 * The entry in force is the highest `priority` among those that match; ties go to the most
 * specific (the shorter date range, then the fewer minutes a week), then to the earlier entry.
 */
export const scheduleEntrySchema = weeklyWindowSchema
  .safeExtend({
    playlist_id: idSchema,
    start_date: calendarDateSchema.nullable().default(null),
    end_date: calendarDateSchema.nullable().default(null),
    priority: z
      .int('must be a whole number')
      .min(0, 'must not be negative')
      .max(1000, 'must be at most 1000')
      .default(0),
  })
  .refine((entry) => !entry.start_date || !entry.end_date || entry.start_date <= entry.end_date, {
    path: ['end_date'],
    message: 'must not be before start_date',
  });
export type ScheduleEntry = z.infer<typeof scheduleEntrySchema>;

/** At most this many entries in a schedule, and off windows in a power schedule. */
export const SCHEDULE_MAX_ENTRIES = 100;

/**
 * What a screen (or a group of screens) plays when: the entries, and the playlist that plays
 * when none is in force (null: the screen's or group's own playlist).
 */
export const scheduleSchema = z.strictObject({
  entries: z
    .array(scheduleEntrySchema)
    .max(SCHEDULE_MAX_ENTRIES, `must hold at most ${SCHEDULE_MAX_ENTRIES} entries`),
  default_playlist_id: idSchema.nullable().default(null),
});
export type Schedule = z.infer<typeof scheduleSchema>;

/** When a screen is off: weekly windows (the screen sleeps in them, and plays nothing). */
export const powerScheduleSchema = z.strictObject({
  off: z
    .array(weeklyWindowSchema)
    .max(SCHEDULE_MAX_ENTRIES, `must hold at most ${SCHEDULE_MAX_ENTRIES} windows`),
});
export type PowerSchedule = z.infer<typeof powerScheduleSchema>;

/** Degrees clockwise the renderer turns the picture: a portrait-mounted panel shows upright. */
export const ROTATIONS = [0, 90, 180, 270] as const;
export const rotationSchema = z.union(
  ROTATIONS.map((degrees) => z.literal(degrees)),
  { error: 'must be 0, 90, 180 or 270' },
);
export type Rotation = (typeof ROTATIONS)[number];
