import { z } from 'zod';
import { idSchema, timestampSchema } from './common';

/**
 * One truth about what a screen plays (`GET /devices/:tag/playing`, and each screen of the
 * overview): what the rules the device itself follows say it should show now (its resolved
 * settings, schedule, power window, a wake command, an emergency override), beside what its last
 * heartbeat says it shows, and whether the two agree.
 */

/** Why the screen should show what it should. */
export const EXPECTED_REASONS = [
  /** An emergency override reaches it (above everything else). */
  'override',
  /** A power window has it off. */
  'power',
  /** A power window would have it off, but a `wake` command keeps it on until the window ends. */
  'woken',
  /** A schedule's entry is in force. */
  'entry',
  /** A schedule is set but no entry is in force: its default playlist. */
  'schedule-default',
  /** No schedule decides: the resolved playlist (the screen's own, else its group's). */
  'playlist',
  /** Nothing is set to play. */
  'none',
] as const;

export const expectedSchema = z.object({
  /** What kind of thing should be on screen. */
  kind: z.enum(['override', 'off', 'playlist', 'nothing']),
  reason: z.enum(EXPECTED_REASONS),
  playlist_id: idSchema.nullable(),
  playlist_name: z.string().nullable(),
  /** The override on screen (kind `override`). */
  override: z.object({ id: idSchema, title: z.string() }).nullable(),
  /** In words, for a person: `Lunch menu (schedule)`, `off (power window)`. */
  summary: z.string(),
});
export type Expected = z.infer<typeof expectedSchema>;

export const playingSchema = z.object({
  expected: expectedSchema,
  /**
   * What the screen's last heartbeat said it shows (`board:<id>`, `image:<url>`, `off`,
   * `override:<id>`, `waiting`...), when it was received, and since when it has shown it (null:
   * not known). Null while the screen is offline or has never sent one.
   */
  reported: z
    .object({
      showing: z.string(),
      /** The same in words: `board "Welcome"`, `image photo.jpg`, `an emergency message`. */
      described: z.string(),
      at: timestampSchema,
      since: timestampSchema.nullable(),
    })
    .nullable(),
  /** Whether the screen shows what it should; null when that cannot be told (offline, hidden). */
  agrees: z.boolean().nullable(),
  /** When it does not: `should play Lunch menu, shows board Welcome since 10:02 UTC`. */
  detail: z.string().nullable(),
});
export type Playing = z.infer<typeof playingSchema>;

/**
 * What a list of screens shows of it (each screen of the overview): what it should show, in words,
 * and whether it does. The rest is `GET /devices/:tag/playing`'s: at 10,000 screens every byte of
 * the overview is 10 kB more to build, hold and send.
 */
export const playingSummarySchema = z.object({
  kind: expectedSchema.shape.kind,
  summary: z.string(),
  agrees: playingSchema.shape.agrees,
  detail: playingSchema.shape.detail,
});
export type PlayingSummary = z.infer<typeof playingSummarySchema>;
