import { z } from 'zod';
import { idSchema, tagSchema, timestampSchema } from './common';
import { textSchema } from './limits';

/**
 * Sync groups and walls (docs/sync.md): screens that share one timeline, switching items on the
 * same frame of the service's clock; with a wall, each shows its region of one picture.
 */

const syncGroupName = textSchema
  .trim()
  .min(1, 'must not be empty')
  .max(255, 'must be at most 255 characters');
/** A wall is at most 16 screens a side: 256 screens, more than any lobby. */
export const WALL_SIDE_MAX = 16;
const side = z.int().min(1).max(WALL_SIDE_MAX);
/** Millimetres of a screen or a bezel: a 110-inch screen is some 2,450 mm wide. */
const millimetres = z.number().min(0).max(10_000);

/** The wall a sync group's screens make, or null: screens that only switch together. */
export const wallSchema = z.strictObject({
  columns: side,
  rows: side,
  /** The picture area of one screen, in mm (what bezels are measured against). */
  screen_width_mm: millimetres.positive(),
  screen_height_mm: millimetres.positive(),
  /**
   * The dead band between the pictures of two screens side by side (both bezels and the gap), and
   * of two screens one above the other, in mm: that part of the picture is hidden behind it.
   */
  bezel_x_mm: millimetres,
  bezel_y_mm: millimetres,
});
export type Wall = z.infer<typeof wallSchema>;

export const syncGroupSchema = z.object({
  id: idSchema,
  name: z.string(),
  wall: wallSchema.nullable(),
  /** Where the shared timeline starts: a playlist's first item began then, and every loop since. */
  epoch: timestampSchema,
  created_at: timestampSchema,
  updated_at: timestampSchema,
});
export type SyncGroup = z.infer<typeof syncGroupSchema>;

export const syncGroupCreateSchema = z.strictObject({
  name: syncGroupName,
  wall: wallSchema.nullable().optional(),
});
export type SyncGroupCreate = z.infer<typeof syncGroupCreateSchema>;

export const syncGroupUpdateSchema = z.strictObject({
  name: syncGroupName.optional(),
  wall: wallSchema.nullable().optional(),
  /** True starts the timeline over now (every screen of the group goes to the first item together). */
  restart: z.boolean().optional(),
});
export type SyncGroupUpdate = z.infer<typeof syncGroupUpdateSchema>;

/** A screen's place in a sync group: its cell of the wall (null for a group without one). */
export const syncMemberSchema = z.object({
  device_tag: tagSchema,
  column: z.int().min(0).nullable(),
  row: z.int().min(0).nullable(),
});
export type SyncMember = z.infer<typeof syncMemberSchema>;

export const syncMemberPutSchema = z.strictObject({
  column: z
    .int()
    .min(0)
    .max(WALL_SIDE_MAX - 1)
    .nullable()
    .default(null),
  row: z
    .int()
    .min(0)
    .max(WALL_SIDE_MAX - 1)
    .nullable()
    .default(null),
});
export type SyncMemberPut = z.infer<typeof syncMemberPutSchema>;

/**
 * What a screen of a sync group is told in its settings: the timeline's epoch (ms since 1970 on
 * the service's clock) and, on a wall, its cell with the bezels as fractions of a screen.
 */
export const screenSyncSchema = z.object({
  group_id: idSchema,
  epoch_ms: z.number(),
  wall: z
    .object({
      columns: side,
      rows: side,
      column: z.int().min(0),
      row: z.int().min(0),
      /** The bezel band between two screens, as a share of one screen's width (x) and height (y). */
      gap_x: z.number().min(0),
      gap_y: z.number().min(0),
    })
    .nullable(),
});
export type ScreenSync = z.infer<typeof screenSyncSchema>;

/** The service's answer to a device's `clock` ping: its clock, in ms since 1970. */
export const clockAnswerSchema = z.object({ now: z.number() });
export type ClockAnswer = z.infer<typeof clockAnswerSchema>;

/** The agent's answer to the renderer's `serviceTime` (src/shared/bridge.ts). */
export const serviceTimeSchema = z.strictObject({ now: z.number().nullable() });
export type ServiceTime = z.infer<typeof serviceTimeSchema>;

/** A screen's settings for its cell, from its group's wall (null off a wall or without a cell). */
export function screenSyncOf(
  group: { id: string; wall: Wall | null; epoch: string },
  member: { column: number | null; row: number | null },
): ScreenSync {
  const { wall } = group;
  const placed =
    wall &&
    member.column !== null &&
    member.row !== null &&
    member.column < wall.columns &&
    member.row < wall.rows;
  return {
    group_id: group.id,
    epoch_ms: Date.parse(group.epoch),
    wall: placed
      ? {
          columns: wall.columns,
          rows: wall.rows,
          column: member.column ?? 0,
          row: member.row ?? 0,
          gap_x: wall.bezel_x_mm / wall.screen_width_mm,
          gap_y: wall.bezel_y_mm / wall.screen_height_mm,
        }
      : null,
  };
}
