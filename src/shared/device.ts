import { z } from 'zod';
import { idSchema, tagSchema, timestampSchema } from './common';
import { textSchema } from './limits';

const deviceName = textSchema.trim().max(255, 'must be at most 255 characters');
const deviceDescription = textSchema.trim().max(1000, 'must be at most 1000 characters');

export const deviceSchema = z.object({
  id: idSchema,
  tag: tagSchema,
  playlist_id: idSchema.nullable(),
  name: z.string(),
  description: z.string(),
  online: z.boolean(),
  last_seen_date: timestampSchema.nullable(),
  last_seen_ip: z.string().nullable(),
});
export type Device = z.infer<typeof deviceSchema>;

export const deviceCreateSchema = z.strictObject({
  tag: tagSchema,
  name: deviceName.default(''),
  description: deviceDescription.default(''),
  playlist_id: idSchema.nullable().default(null),
});
export type DeviceCreate = z.infer<typeof deviceCreateSchema>;

export const deviceUpdateSchema = z.strictObject({
  name: deviceName.optional(),
  description: deviceDescription.optional(),
  playlist_id: idSchema.nullable().optional(),
});
export type DeviceUpdate = z.infer<typeof deviceUpdateSchema>;

const count = z.number().nonnegative();

/** What a heartbeat carries: enough for an operator to diagnose a screen from afar. */
export const heartbeatSchema = z.strictObject({
  app_version: textSchema.max(64),
  os: textSchema.max(255),
  cpu_load: z.number().min(0).max(100),
  memory: z.strictObject({ total_bytes: count, used_bytes: count }),
  uptime_seconds: count,
  display: z.strictObject({ width: z.int().min(0), height: z.int().min(0) }).nullable(),
  cache: z.strictObject({ bytes: count, items: z.int().min(0) }),
  /** What is on screen now, e.g. "board:<id>", "image:<url>", "waiting". */
  showing: textSchema.max(2048),
  /** Recoveries since the last heartbeat (renderer reloads, GPU fallback, ...). */
  recoveries: z
    .array(textSchema.max(255))
    .max(100)
    .default(() => []),
});
export type Heartbeat = z.infer<typeof heartbeatSchema>;
