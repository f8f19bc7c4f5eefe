import { z } from 'zod';
import { idSchema, tagSchema, timestampSchema } from './common';
import { textSchema } from './limits';
import { screenSettingFields } from './group';
import { timeZoneSchema } from './schedule';
import { playingSummarySchema } from './playing';

const deviceName = textSchema.trim().max(255, 'must be at most 255 characters');
const deviceDescription = textSchema.trim().max(1000, 'must be at most 1000 characters');

/**
 * A screen: its group (at most one) and its own settings, each null when not set on it (its
 * group's, or the default, apply: screen-settings.ts resolves them).
 */
export const deviceSchema = z.object({
  id: idSchema,
  tag: tagSchema,
  ...screenSettingFields,
  group_id: idSchema.nullable(),
  name: z.string(),
  description: z.string(),
  online: z.boolean(),
  last_seen_date: timestampSchema.nullable(),
  last_seen_ip: z.string().nullable(),
});
export type Device = z.infer<typeof deviceSchema>;

/** The settings a create or update may leave out (older clients know none but `playlist_id`). */
const settingInputs = {
  group_id: idSchema.nullable(),
  schedule: screenSettingFields.schedule,
  power: screenSettingFields.power,
  rotation: screenSettingFields.rotation,
  time_zone: screenSettingFields.time_zone,
};

export const deviceCreateSchema = z.strictObject({
  tag: tagSchema,
  name: deviceName.default(''),
  description: deviceDescription.default(''),
  playlist_id: idSchema.nullable().default(null),
  group_id: settingInputs.group_id.optional(),
  schedule: settingInputs.schedule.optional(),
  power: settingInputs.power.optional(),
  rotation: settingInputs.rotation.optional(),
  time_zone: settingInputs.time_zone.optional(),
});
export type DeviceCreate = z.infer<typeof deviceCreateSchema>;

export const deviceUpdateSchema = z.strictObject({
  name: deviceName.optional(),
  description: deviceDescription.optional(),
  playlist_id: idSchema.nullable().optional(),
  group_id: settingInputs.group_id.optional(),
  schedule: settingInputs.schedule.optional(),
  power: settingInputs.power.optional(),
  rotation: settingInputs.rotation.optional(),
  time_zone: settingInputs.time_zone.optional(),
});
export type DeviceUpdate = z.infer<typeof deviceUpdateSchema>;

const count = z.number().nonnegative();

/** A screen's size in device pixels (CSS pixels × devicePixelRatio). */
export const displaySchema = z.strictObject({ width: z.int().min(0), height: z.int().min(0) });
export type Display = z.infer<typeof displaySchema>;

/** Failures a heartbeat carries at most: the newest, one per item. */
export const MAX_FAILURES = 20;

/** Something the screen could not show, and why. */
export const failureSchema = z.strictObject({
  /** `media:<url>` (did not download), `image:<url>` or `video:<url>` (did not decode or play), `board:<id>` (did not load). */
  item: textSchema.max(2048),
  reason: textSchema.max(1024),
  /** When it last failed. */
  at: timestampSchema,
});
export type Failure = z.infer<typeof failureSchema>;

/** What a heartbeat carries: enough for an operator to diagnose a screen from afar. */
export const heartbeatSchema = z.strictObject({
  app_version: textSchema.max(64),
  os: textSchema.max(255),
  cpu_load: z.number().min(0).max(100),
  memory: z.strictObject({ total_bytes: count, used_bytes: count }),
  uptime_seconds: count,
  /** The renderer's own size, null without a renderer. */
  display: displaySchema.nullable(),
  cache: z.strictObject({ bytes: count, items: z.int().min(0) }),
  /** What is on screen now, e.g. "board:<id>", "image:<url>", "waiting". */
  showing: textSchema.max(2048),
  /** Recoveries since the last heartbeat (renderer reloads, GPU fallback, ...). */
  recoveries: z
    .array(textSchema.max(255))
    .max(100)
    .default(() => []),
  /** What the screen could not show lately (default `[]`, so older clients still validate). */
  failures: z
    .array(failureSchema)
    .max(MAX_FAILURES)
    .default(() => []),
  /** The screen's own time zone (what its system says), where schedules are read without one set. */
  time_zone: timeZoneSchema.optional(),
  /** Whether a power window has the screen off now, and how: its display asleep, or only black. */
  power: z.strictObject({ off: z.boolean(), method: z.enum(['dpms', 'cec', 'black']).nullable() }).optional(),
});
export type Heartbeat = z.infer<typeof heartbeatSchema>;

/**
 * A screen's summary for the console's list (GET /devices/overview): the device, and from its last
 * heartbeat what it shows, its version, display and how many failures it reported, with the time
 * of its newest screenshot and the name of its playlist.
 */
export const deviceOverviewSchema = z.object({
  ...deviceSchema.shape,
  playlist_name: z.string().nullable(),
  showing: z.string().nullable(),
  app_version: z.string().nullable(),
  display: displaySchema.nullable(),
  failures: z.int().min(0),
  screenshot_taken_at: timestampSchema.nullable(),
  /** What it should show now and whether it does (src/shared/playing.ts). */
  playing: playingSummarySchema,
});
export type DeviceOverview = z.infer<typeof deviceOverviewSchema>;
