import { z } from 'zod';
import { timestampSchema } from './common';

/**
 * A screen's status history (GET /devices/:tag/history): when it came online and went offline,
 * what it showed when that changed between heartbeats, and the failures and recoveries it reported.
 */
export const DEVICE_HISTORY_KINDS = ['online', 'offline', 'showing', 'failure', 'recovery'] as const;
export const deviceHistoryKindSchema = z.enum(DEVICE_HISTORY_KINDS);
export type DeviceHistoryKind = z.infer<typeof deviceHistoryKindSchema>;

export const deviceHistoryEntrySchema = z.object({
  /** Increasing with every entry of the service: the `before` of the next page. */
  seq: z.int(),
  at: timestampSchema,
  kind: deviceHistoryKindSchema,
  /** What it showed, which item failed and why, what recovered, or how it went offline. */
  detail: z.string(),
});
export type DeviceHistoryEntry = z.infer<typeof deviceHistoryEntrySchema>;

export const DEVICE_HISTORY_LIMIT_DEFAULT = 100;
export const DEVICE_HISTORY_LIMIT_MAX = 1000;

/** Newest first; `next_before` pages on (null on the last page). */
export const deviceHistoryPageSchema = z.object({
  entries: z.array(deviceHistoryEntrySchema),
  next_before: z.int().nullable(),
});
export type DeviceHistoryPage = z.infer<typeof deviceHistoryPageSchema>;
