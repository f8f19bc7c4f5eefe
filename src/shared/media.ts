import { z } from 'zod';
import { idSchema, timestampSchema, webUrlSchema } from './common';

/**
 * The media library (docs/api/media.md): images, videos and sounds uploaded to the service and
 * named anywhere a media URL is accepted by their relative URL `/media/<id>/content`, which
 * devices fetch with their own token.
 */

export const MEDIA_KINDS = ['image', 'video', 'sound'] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];

/**
 * The types the players show or play (those of media-types.ts that are images, videos and sounds),
 * by the type `file-type` tells from a file's bytes, with the type the library serves it as. SVG
 * is not among them: it is text (it cannot be told by its content) and may carry scripts, served
 * from the service's own origin.
 */
export const MEDIA_CONTENT_TYPES: Readonly<Record<string, { kind: MediaKind; type: string }>> = {
  'image/png': { kind: 'image', type: 'image/png' },
  'image/apng': { kind: 'image', type: 'image/png' },
  'image/jpeg': { kind: 'image', type: 'image/jpeg' },
  'image/gif': { kind: 'image', type: 'image/gif' },
  'image/webp': { kind: 'image', type: 'image/webp' },
  'image/avif': { kind: 'image', type: 'image/avif' },
  'image/x-icon': { kind: 'image', type: 'image/x-icon' },
  'video/mp4': { kind: 'video', type: 'video/mp4' },
  'video/x-m4v': { kind: 'video', type: 'video/mp4' },
  'video/webm': { kind: 'video', type: 'video/webm' },
  'video/ogg': { kind: 'video', type: 'video/ogg' },
  'video/quicktime': { kind: 'video', type: 'video/quicktime' },
  'audio/mpeg': { kind: 'sound', type: 'audio/mpeg' },
  'audio/mp4': { kind: 'sound', type: 'audio/mp4' },
  'audio/x-m4a': { kind: 'sound', type: 'audio/mp4' },
  'audio/ogg': { kind: 'sound', type: 'audio/ogg' },
  'audio/ogg; codecs=opus': { kind: 'sound', type: 'audio/ogg' },
  'audio/wav': { kind: 'sound', type: 'audio/wav' },
};

/**
 * A library medium's URL, optionally with what screens need to know of its content where they
 * play it: `v`, the start of its sha256 (a replaced file is a new URL, so every cache keyed by
 * URL fetches it again), and `until`, its expiry in seconds since the epoch (a screen stops
 * playing it then by its own clock, offline too). The service writes both into the playlists and
 * boards that name the medium (service/actions/media-versions.ts).
 */
const LIBRARY_URL =
  /^\/media\/([A-Za-z0-9_-]{1,64})\/content(?:\?v=([0-9a-f]{8,64})(?:&until=(\d{1,12}))?)?$/;

/** The URL that names a library medium: relative, resolved against the service by whoever fetches it. */
export function libraryUrlOf(id: string): string {
  return `/media/${id}/content`;
}

/** The URL playlists and boards name a medium by: its content's version, and its expiry if it has one. */
export function playUrlOf(media: { id: string; sha256: string; expires_at: string | null }): string {
  const until = media.expires_at === null ? '' : `&until=${Math.floor(Date.parse(media.expires_at) / 1000)}`;
  return `${libraryUrlOf(media.id)}?v=${media.sha256.slice(0, 16)}${until}`;
}

/** The id of the library medium `url` names, or null for any other URL. */
export function libraryMediaId(url: string): string | null {
  return LIBRARY_URL.exec(url)?.[1] ?? null;
}

/** When a library URL says its medium stops playing (milliseconds since the epoch); null: never. */
export function libraryUrlExpiry(url: string): number | null {
  const until = LIBRARY_URL.exec(url)?.[3];
  return until === undefined ? null : Number(until) * 1000;
}

const LIBRARY_URL_MESSAGE = 'must name a library medium as "/media/<id>/content", or be an http or https URL';

/**
 * A remote file over http(s), or a library medium by its relative URL. Anything else that is not
 * a path is answered as before, with the web URL's own message.
 */
export const mediaUrlSchema = z.string().superRefine(checkMediaUrl);

function checkMediaUrl(value: string, ctx: z.RefinementCtx) {
  if (libraryMediaId(value) !== null) return;
  if (value.startsWith('/')) {
    ctx.addIssue({ code: 'custom', message: LIBRARY_URL_MESSAGE, continue: false });
    return;
  }
  const web = webUrlSchema.safeParse(value);
  for (const issue of web.error?.issues ?? []) {
    ctx.addIssue({ code: 'custom', message: issue.message, continue: false });
  }
}

/** An image carried inline, as the original product's exported boards carry a logo. */
const DATA_IMAGE = /^data:image\/(png|jpeg|gif|webp|svg\+xml);base64,[A-Za-z0-9+/]+={0,2}$/;

/**
 * An image widget's picture: a media URL as above, or an inline `data:image/...;base64,` URL
 * (drawn as it is: nothing to download). An SVG inside an <img> runs no script.
 */
export const imageUrlSchema = z.string().superRefine((value, ctx) => {
  if (!value.startsWith('data:')) return checkMediaUrl(value, ctx);
  if (!DATA_IMAGE.test(value))
    ctx.addIssue({
      code: 'custom',
      message: 'must be a base64 data URL of a PNG, JPEG, GIF, WebP or SVG image',
    });
});

/** Where a medium is used: a playlist's image or video item, or a board's background. */
export const mediaUsageSchema = z.object({
  type: z.enum(['playlist', 'board']),
  id: idSchema,
  name: z.string(),
});
export type MediaUsage = z.infer<typeof mediaUsageSchema>;

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** A tag of a medium: the operator's label, to find and select media by. */
export const mediaTagSchema = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(40, 'must be at most 40 characters')
  .regex(/^[^\p{Cc},]+$/u, 'must hold no commas or control characters');

export const mediaTagsSchema = z
  .array(mediaTagSchema)
  .max(20, 'must hold at most 20 tags')
  // Told apart as people read them: "Lobby" and "lobby" are one tag, spelt as it came first.
  .transform((tags) => tags.filter((tag, index) => tags.findIndex((other) => same(other, tag)) === index));

/** What `PATCH /media/:id` changes: its name, its tags (all of them), its expiry. */
export const mediaUpdateSchema = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(255, 'must be at most 255 characters')
    .regex(/^[^\p{Cc}]+$/u, 'must hold no control characters')
    .optional(),
  tags: mediaTagsSchema.optional(),
  expires_at: timestampSchema.nullable().optional(),
});
export type MediaUpdate = z.infer<typeof mediaUpdateSchema>;

export const mediaSchema = z.object({
  id: idSchema,
  /** The uploaded file's name, or the one an operator gave it. */
  name: z.string(),
  /** Told by the file's content, not by its name or the type the upload declared. */
  content_type: z.string(),
  kind: z.enum(MEDIA_KINDS),
  bytes: z.int().nonnegative(),
  /** Hex; also the content's ETag. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** `/media/<id>/content`: what playlists, boards and notifications name it by. */
  url: z.string(),
  created_at: timestampSchema,
  /** The operator's labels (migration 21; none from an older service). */
  tags: z.array(z.string()).default(() => []),
  /** When screens stop playing it; null: never. */
  expires_at: timestampSchema.nullable().default(null),
  /** The URL playlists and boards name it by now (`playUrlOf`); absent from an older service. */
  play_url: z.string().optional(),
  used_by: z.array(mediaUsageSchema),
});
export type Media = z.infer<typeof mediaSchema>;
