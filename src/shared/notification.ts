import { z } from 'zod';
import { webUrlSchema, iconNameSchema, idSchema, tagSchema, timestampSchema } from './common';
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

/** The fields of a notification, as every POST that creates one takes them. */
const notificationFields = {
  title: unset(notificationText),
  message: unset(notificationText),
  icon: unset(z.union([z.literal(''), iconNameSchema])),
  duration: notificationDurationSchema
    .nullish()
    .transform((duration) => duration ?? NOTIFICATION_DEFAULT_DURATION),
  sound_url: unset(soundUrlSchema),
};

/** Presence rule: title and message together, or a sound_url, or all three. */
function presenceRule(
  n: { title?: string; message?: string; sound_url?: string },
  ctx: z.RefinementCtx,
): void {
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
}

/**
 * The body of both channel notification POSTs (the interface's). A title without its message (or
 * the reverse) is refused.
 */
export const notificationCreateSchema = z.strictObject(notificationFields).superRefine(presenceRule);
export type NotificationCreate = z.infer<typeof notificationCreateSchema>;

const TARGET_SHAPES =
  'must be {"all": true}, {"group_id": "<id>"}, {"device_tag": "<tag>"} or {"channel_id": "<id or tag>"}';

/**
 * Where `POST /notifications` sends one: every screen of the account, the screens of a group, one
 * screen, or a channel (by id or tag, as `POST /channels/:channel_id/notifications` takes it).
 * The screens of a group, one screen or every screen show it whatever channels they show.
 */
export const notificationTargetCreateSchema = z.union(
  [
    z.strictObject({ all: z.literal(true) }),
    z.strictObject({ group_id: idSchema }),
    z.strictObject({ device_tag: tagSchema }),
    z.strictObject({
      channel_id: textSchema.min(1, 'must not be empty').max(100, 'must be at most 100 characters'),
    }),
  ],
  { error: TARGET_SHAPES },
);

/** `POST /notifications`: a notification's fields and its `target`. */
export const targetedNotificationCreateSchema = z
  .strictObject({ ...notificationFields, target: notificationTargetCreateSchema })
  .superRefine(presenceRule);
export type TargetedNotificationCreate = z.infer<typeof targetedNotificationCreateSchema>;

/** Where a notification went, as answered: a channel by its id. */
export const notificationTargetSchema = z.union([
  z.object({ channel_id: idSchema }),
  z.object({ all: z.literal(true) }),
  z.object({ group_id: idSchema }),
  z.object({ device_tag: tagSchema }),
]);
export type NotificationTarget = z.infer<typeof notificationTargetSchema>;

export const notificationSchema = z.object({
  id: idSchema,
  /** The channel it went to; null when it went to screens (`target`) instead. */
  channel_id: idSchema.nullable(),
  /**
   * Where it went. The service answers it always; only events logged before it was stored (those
   * of a channel, `channel_id`) lack it, so a device reads it as optional.
   */
  target: notificationTargetSchema.optional(),
  title: z.string().nullable(),
  message: z.string().nullable(),
  icon: z.string().nullable(),
  duration: notificationDurationSchema,
  sound_url: z.string().nullable(),
  created_at: timestampSchema,
});
export type Notification = z.infer<typeof notificationSchema>;
