import { z } from 'zod';
import { colorSchema, idSchema, tagSchema, timestampSchema, webUrlSchema } from './common';
import { textSchema } from './limits';
import { libraryMediaId } from './media';
import { soundUrlSchema } from './notification';

/**
 * Emergency overrides (docs/api/overrides.md): a full-screen message above schedules, playlists
 * and off windows, on every screen, a group or one screen, until it is cleared or expires.
 */

export const OVERRIDE_TITLE_MAX = 120;
export const OVERRIDE_MESSAGE_MAX = 1000;
/** What the screen is painted when the override names no colour: an alarm's red. */
export const OVERRIDE_DEFAULT_BACKGROUND = '#b00020';

const text = (max: number) =>
  textSchema.min(1, 'must not be empty').max(max, `must be at most ${max} characters`);

/** An image from the web or the media library (`/media/<id>/content`), as playlists take them. */
const imageUrlSchema = textSchema.refine(
  (value) => libraryMediaId(value) !== null || webUrlSchema.safeParse(value).success,
  { message: 'must be an http(s) URL or a library medium "/media/<id>/content"' },
);

/** Which screens: exactly one of every screen, a group's, or one screen's. */
export const overrideTargetSchema = z.union(
  [
    z.strictObject({ all: z.literal(true) }),
    z.strictObject({ group_id: idSchema }),
    z.strictObject({ device_tag: tagSchema }),
  ],
  { error: 'must be {"all": true}, {"group_id": "<id>"} or {"device_tag": "<tag>"}' },
);
export type OverrideTarget = z.infer<typeof overrideTargetSchema>;

/** `POST /overrides`. Null is unset, as the original product's clients send what they leave out. */
export const overrideCreateSchema = z.strictObject({
  title: text(OVERRIDE_TITLE_MAX),
  message: text(OVERRIDE_MESSAGE_MAX),
  image_url: imageUrlSchema.nullish().transform((value) => value ?? null),
  sound_url: soundUrlSchema.nullish().transform((value) => value ?? null),
  background_color: colorSchema.nullish().transform((value) => value ?? null),
  target: overrideTargetSchema,
  expires_at: timestampSchema.nullish().transform((value) => value ?? null),
});
export type OverrideCreate = z.infer<typeof overrideCreateSchema>;

/** What a screen shows of an override (its settings' `override`). */
export const overrideShownSchema = z.object({
  id: idSchema,
  title: z.string(),
  message: z.string(),
  image_url: z.string().nullable(),
  sound_url: z.string().nullable(),
  background_color: z.string().nullable(),
  /** Null: until it is cleared. The screen leaves it at this instant by itself. */
  expires_at: timestampSchema.nullable(),
  created_at: timestampSchema,
});
export type OverrideShown = z.infer<typeof overrideShownSchema>;

/** What raised an override other than a person: a CAP feed's alert (src/shared/cap-feed.ts). */
export const overrideSourceSchema = z.object({
  cap_feed_id: idSchema,
  /** The CAP `<identifier>` of the alert it shows. */
  cap_identifier: z.string(),
});
export type OverrideSource = z.infer<typeof overrideSourceSchema>;

/** An override as the API lists it, with who raised it, where, and who cleared it. */
export const overrideSchema = overrideShownSchema.extend({
  target: overrideTargetSchema,
  /** `token "<name>"`, `user "<login>"` or `cap-feed:<name>`. */
  created_by: z.string(),
  /** Null for one raised through the API or the console. */
  source: overrideSourceSchema.nullable(),
  cleared_at: timestampSchema.nullable(),
  cleared_by: z.string().nullable(),
  /** Whether it is in force now: neither cleared nor expired. */
  active: z.boolean(),
});
export type Override = z.infer<typeof overrideSchema>;

/** Whether `override` is in force at `now` (milliseconds): not expired. */
export function overrideInForce(override: Pick<OverrideShown, 'expires_at'>, now: number): boolean {
  return override.expires_at === null || Date.parse(override.expires_at) > now;
}
