import { z } from 'zod';
import { idSchema, tagSchema, timestampSchema } from './common';
import { textSchema } from './limits';

/**
 * Remote commands: an operator asks a screen to reload, restart, identify itself, take a
 * screenshot, or wake from a power window (until the window ends). A command is queued by the
 * service, pushed to the device, and followed to its end: `delivered` when the device has it,
 * then `done` or `failed` with a reason. One the device did not finish within COMMAND_TTL_SECONDS
 * of its creation fails as expired.
 */
export const COMMAND_TYPES = ['reload', 'restart', 'identify', 'screenshot', 'wake'] as const;
export const commandTypeSchema = z.enum(COMMAND_TYPES, {
  error: `must be one of ${COMMAND_TYPES.map((type) => `"${type}"`).join(', ')}`,
});
export type CommandType = z.infer<typeof commandTypeSchema>;

export const COMMAND_STATUSES = ['queued', 'delivered', 'done', 'failed'] as const;
export const commandStatusSchema = z.enum(COMMAND_STATUSES);
export type CommandStatus = z.infer<typeof commandStatusSchema>;

/** A command not done by then (its device away, or silent about it) fails as expired. */
export const COMMAND_TTL_SECONDS = 3600;
/** How long `identify` shows the device's name and tag. */
export const IDENTIFY_SECONDS = 10;
/** Commands one device may have waiting (queued or delivered) at once: a flood is refused, not run. */
export const COMMANDS_WAITING_MAX = 20;

export const commandSchema = z.object({
  id: idSchema,
  device_tag: tagSchema,
  type: commandTypeSchema,
  status: commandStatusSchema,
  /** Why it failed (or what the device said of it); null otherwise. */
  reason: z.string().nullable(),
  created_at: timestampSchema,
  updated_at: timestampSchema,
  expires_at: timestampSchema,
});
export type Command = z.infer<typeof commandSchema>;

export const commandCreateSchema = z.strictObject({ type: commandTypeSchema });
export type CommandCreate = z.infer<typeof commandCreateSchema>;

/** What a device reports of a command; a failure says why. */
export const commandResultSchema = z
  .strictObject({
    status: z.enum(['delivered', 'done', 'failed']),
    reason: textSchema.trim().max(1000, 'must be at most 1000 characters').optional(),
  })
  .superRefine((result, ctx) => {
    if (result.status === 'failed' && !result.reason) {
      ctx.addIssue({ code: 'custom', path: ['reason'], message: 'is required when the status is "failed"' });
    }
  });
export type CommandResult = z.infer<typeof commandResultSchema>;

/** The largest screenshot a device may store: a 4K screen's PNG of a busy board fits. */
export const SCREENSHOT_MAX_BYTES = 8 * 1024 * 1024;
/** The same in base64, as a web page hands it over the bridge. */
export const SCREENSHOT_BASE64_MAX = Math.ceil(SCREENSHOT_MAX_BYTES / 3) * 4;

/** What the service keeps of a device's newest screenshot besides its pixels. */
export const screenshotInfoSchema = z.object({
  device_tag: tagSchema,
  taken_at: timestampSchema,
  width: z.int().min(1),
  height: z.int().min(1),
  bytes: z.int().min(1),
});
export type ScreenshotInfo = z.infer<typeof screenshotInfoSchema>;

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/**
 * The size of a PNG image from its header (the signature, then the IHDR chunk with width and
 * height), or null for bytes that are not a PNG.
 */
export function pngSize(bytes: Uint8Array): { width: number; height: number } | null {
  if (bytes.length < 24 || PNG_SIGNATURE.some((byte, index) => bytes[index] !== byte)) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const chunkType = String.fromCharCode(...bytes.subarray(12, 16));
  if (chunkType !== 'IHDR') return null;
  const width = view.getUint32(16);
  const height = view.getUint32(20);
  return width > 0 && height > 0 ? { width, height } : null;
}
