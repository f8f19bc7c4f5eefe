import { z } from 'zod';
import { webUrlSchema, iconNameSchema, idSchema, timestampSchema } from './common';
import { textSchema } from './limits';
import { libraryMediaId } from './media';

export const NOTIFICATION_TEXT_MAX = 255;
export const NOTIFICATION_DEFAULT_DURATION = 10;

const notificationText = textSchema
  .min(1, 'must not be empty')
  .max(NOTIFICATION_TEXT_MAX, `must be at most ${NOTIFICATION_TEXT_MAX} characters`);

/** Whole seconds on screen, at least 1. */
export const notificationDurationSchema = z
  .int('must be a whole number of seconds')
  .min(1, 'must be at least 1 second')
  .max(86400, 'must be at most 86400 seconds');

/**
 * `default` plays the sound bundled with the client; a library medium (`/media/<id>/content`) is
 * fetched from the service; anything else over http(s), plain http only where the service allows
 * media over it (`--allow-http-media`, service/domain/http-media.ts).
 */
export const soundUrlSchema = textSchema.refine(
  (value) => value === 'default' || libraryMediaId(value) !== null || webUrlSchema.safeParse(value).success,
  {
    message: 'must be "default", an http(s) URL or a library medium "/media/<id>/content"',
  },
);

/** Optional; `null`, which the original product's clients send for what they leave unset, is unset too. */
const unset = <T extends z.ZodType>(schema: T) =>
  schema.nullish().transform((value): z.output<T> | undefined => value ?? undefined);

/**
 * The body of both notification POSTs. Presence rule: title and message together, or a
 * sound_url, or all three; a title without its message (or the reverse) is refused.
 */
export const notificationCreateSchema = z
  .strictObject({
    title: unset(notificationText),
    message: unset(notificationText),
    icon: unset(z.union([z.literal(''), iconNameSchema])),
    duration: notificationDurationSchema
      .nullish()
      .transform((duration) => duration ?? NOTIFICATION_DEFAULT_DURATION),
    sound_url: unset(soundUrlSchema),
  })
  .superRefine((n, ctx) => {
    if (n.title !== undefined && n.message === undefined) {
      ctx.addIssue({ code: 'custom', path: ['message'], message: 'is required when title is given' });
    } else if (n.message !== undefined && n.title === undefined) {
      ctx.addIssue({ code: 'custom', path: ['title'], message: 'is required when message is given' });
    } else if (n.title === undefined && n.sound_url === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: [],
        message: 'give title and message, or sound_url, or all three',
      });
    }
  });
export type NotificationCreate = z.infer<typeof notificationCreateSchema>;

export const notificationSchema = z.object({
  id: idSchema,
  channel_id: idSchema,
  title: z.string().nullable(),
  message: z.string().nullable(),
  icon: z.string().nullable(),
  duration: notificationDurationSchema,
  sound_url: z.string().nullable(),
  created_at: timestampSchema,
});
export type Notification = z.infer<typeof notificationSchema>;
