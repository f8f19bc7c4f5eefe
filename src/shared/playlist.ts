import { z } from 'zod';
import { idSchema, timestampSchema, webUrlSchema } from './common';
import { textSchema } from './limits';
import { mediaUrlSchema } from './media';

/** Seconds an item stays on screen. */
const itemDuration = z
  .int('must be a whole number of seconds')
  .min(1, 'must be at least 1 second')
  .max(86400, 'must be at most 86400 seconds');

const boardItem = z.strictObject({
  type: z.literal('board'),
  board_id: idSchema,
  /** Which of the board's channels to show; null shows the board's first channel. */
  channel_id: idSchema.nullable().default(null),
  duration: itemDuration,
});

const imageItem = z.strictObject({
  type: z.literal('image'),
  url: mediaUrlSchema,
  /** fit: whole image, letterboxed; cover: fills the screen, cropped. */
  fit: z.enum(['fit', 'cover']).default('fit'),
  duration: itemDuration,
});

const videoItem = z.strictObject({
  type: z.literal('video'),
  url: mediaUrlSchema,
  muted: z.boolean().default(true),
  /** Null plays the video to its end. */
  duration: itemDuration.nullable().default(null),
});

/**
 * A web page, full-screen (docs/player.md, "Web pages"): http or https, since intranet dashboards
 * often have no TLS. `reload_seconds` reloads it while it shows (null: never).
 */
const webItem = z.strictObject({
  type: z.literal('web'),
  url: webUrlSchema,
  duration: itemDuration,
  reload_seconds: z
    .int('must be a whole number of seconds')
    .min(10, 'must be at least 10 seconds')
    .max(86400, 'must be at most 86400 seconds')
    .nullable()
    .default(null),
});

export const playlistItemSchema = z.discriminatedUnion('type', [boardItem, imageItem, videoItem, webItem], {
  error: 'must be an item of type "board", "image", "video" or "web"',
});
export type PlaylistItem = z.infer<typeof playlistItemSchema>;

const playlistName = textSchema.trim().min(1, 'must not be empty').max(255, 'must be at most 255 characters');
const playlistItems = z.array(playlistItemSchema).max(500, 'must hold at most 500 items');

export const playlistSchema = z.object({
  id: idSchema,
  name: playlistName,
  items: playlistItems,
  updated_at: timestampSchema,
});
export type Playlist = z.infer<typeof playlistSchema>;

export const playlistCreateSchema = z.strictObject({
  name: playlistName,
  items: playlistItems.default(() => []),
});
export type PlaylistCreate = z.infer<typeof playlistCreateSchema>;

export const playlistUpdateSchema = z.strictObject({
  name: playlistName.optional(),
  items: playlistItems.optional(),
});
export type PlaylistUpdate = z.infer<typeof playlistUpdateSchema>;
