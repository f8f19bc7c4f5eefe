import { z } from 'zod';
import { idSchema } from './common';
import { overrideShownSchema } from './override';
import { screenReleasesSchema } from './release';
import { screenSyncSchema } from './sync';
import { webOptionsSchema, WEB_OPTIONS_FALLBACK } from './web-content';
import { powerScheduleSchema, rotationSchema, scheduleSchema, timeZoneSchema } from './schedule';

/** Where a screen's setting comes from: its own, its group's, or nowhere (the default). */
export const settingSourceSchema = z.enum(['screen', 'group', 'default']);
export type SettingSource = z.infer<typeof settingSourceSchema>;

/**
 * What a screen plays and how, resolved (`GET /devices/:tag/settings`). Each setting separately:
 * the screen's own when set, else its group's, else the default (no playlist, no schedule, never
 * off, not rotated, the screen's own time zone). A schedule in force decides what plays; when no
 * entry is in force its default playlist plays, and without one the resolved `playlist_id`.
 * `playlist_ids` lists every playlist these can play, for the screen to hold them all offline.
 */
export const screenSettingsSchema = z.object({
  playlist_id: idSchema.nullable(),
  schedule: scheduleSchema.nullable(),
  power: powerScheduleSchema.nullable(),
  rotation: rotationSchema,
  /** Null: the screen's own zone (what its system says). */
  time_zone: timeZoneSchema.nullable(),
  group_id: idSchema.nullable(),
  sources: z.object({
    playlist_id: settingSourceSchema,
    schedule: settingSourceSchema,
    power: settingSourceSchema,
    rotation: settingSourceSchema,
    time_zone: settingSourceSchema,
  }),
  playlist_ids: z.array(idSchema),
  /** The service's options for web content, the same for every screen (absent from an older service). */
  web: webOptionsSchema.default(WEB_OPTIONS_FALLBACK),
  /**
   * The emergency override in force on this screen, the newest of those that reach it (src/shared/
   * override.ts): shown above everything, an off window included. Null: none (absent: an older service).
   */
  override: overrideShownSchema.nullable().default(null),
  /**
   * The player releases offered to this screen (src/shared/release.ts): a pin, else the newest
   * rollout that reaches it. Absent (an older service): none.
   */
  release: screenReleasesSchema.default({ shell: null, web: null }),
  /** The sync group this screen shares a timeline with, and its cell of the wall (docs/sync.md). Null: none. */
  sync: screenSyncSchema.nullable().default(null),
});
export type ScreenSettings = z.infer<typeof screenSettingsSchema>;

/** What `GET /devices/:tag/schedule/at?time=` answers: what plays then, and why. */
export const scheduledAtSchema = z.object({
  time: z.iso.datetime({ offset: true }),
  time_zone: timeZoneSchema,
  /** The playlist playing then (null: nothing). */
  playlist_id: idSchema.nullable(),
  /** Why: an entry (by its index in the schedule), the schedule's default, the screen's playlist, or nothing. */
  reason: z.enum(['entry', 'schedule-default', 'playlist', 'none']),
  entry_index: z.int().min(0).nullable(),
  /** Whether the screen is off then (a power window). */
  off: z.boolean(),
});
export type ScheduledAt = z.infer<typeof scheduledAtSchema>;
