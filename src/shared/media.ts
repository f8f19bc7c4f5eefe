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

const LIBRARY_URL = /^\/media\/([A-Za-z0-9_-]{1,64})\/content$/;

/** The URL that names a library medium: relative, resolved against the service by whoever fetches it. */
export function libraryUrlOf(id: string): string {
  return `/media/${id}/content`;
}

/** The id of the library medium `url` names, or null for any other URL. */
export function libraryMediaId(url: string): string | null {
  return LIBRARY_URL.exec(url)?.[1] ?? null;
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

export const mediaSchema = z.object({
  id: idSchema,
  /** The uploaded file's name. */
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
  used_by: z.array(mediaUsageSchema),
});
export type Media = z.infer<typeof mediaSchema>;
