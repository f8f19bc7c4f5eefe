import { z } from 'zod';
import { idSchema, timestampSchema } from './common';
import { textSchema } from './limits';
import { powerScheduleSchema, rotationSchema, scheduleSchema, timeZoneSchema } from './schedule';

const groupName = textSchema.trim().min(1, 'must not be empty').max(255, 'must be at most 255 characters');

/**
 * What a screen plays and how, set on the screen or on its group: each null means "not set
 * here" (see screen-settings.ts for the precedence).
 */
export const screenSettingFields = {
  playlist_id: idSchema.nullable(),
  schedule: scheduleSchema.nullable(),
  power: powerScheduleSchema.nullable(),
  rotation: rotationSchema.nullable(),
  time_zone: timeZoneSchema.nullable(),
};

/** Screens managed together: a screen belongs to at most one group. */
export const groupSchema = z.object({
  id: idSchema,
  name: z.string(),
  ...screenSettingFields,
  created_at: timestampSchema,
  updated_at: timestampSchema,
});
export type Group = z.infer<typeof groupSchema>;

const optionalSettings = {
  playlist_id: screenSettingFields.playlist_id.optional(),
  schedule: screenSettingFields.schedule.optional(),
  power: screenSettingFields.power.optional(),
  rotation: screenSettingFields.rotation.optional(),
  time_zone: screenSettingFields.time_zone.optional(),
};

export const groupCreateSchema = z.strictObject({ name: groupName, ...optionalSettings });
export type GroupCreate = z.infer<typeof groupCreateSchema>;

export const groupUpdateSchema = z.strictObject({ name: groupName.optional(), ...optionalSettings });
export type GroupUpdate = z.infer<typeof groupUpdateSchema>;
