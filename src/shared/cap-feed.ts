import { z } from 'zod';
import { idSchema, timestampSchema, webUrlSchema } from './common';
import { textSchema } from './limits';
import { overrideTargetSchema } from './override';

/**
 * CAP feeds (docs/api/overrides.md, "CAP feeds"): a Common Alerting Protocol 1.2 source the
 * service polls, raising an emergency override for each alert that passes the feed's severity
 * and area filters, and clearing it when the alert is cancelled, updated, expires or leaves the
 * feed.
 */

/** CAP 1.2's `<severity>` values, gravest first: a feed takes those at or above its minimum. */
export const CAP_SEVERITIES = ['Extreme', 'Severe', 'Moderate', 'Minor', 'Unknown'] as const;
export type CapSeverity = (typeof CAP_SEVERITIES)[number];

export const capSeveritySchema = z.enum(CAP_SEVERITIES, {
  error: `must be one of ${CAP_SEVERITIES.map((severity) => `"${severity}"`).join(', ')}`,
});

/** Whether `severity` is `min` or graver. */
export function atLeast(severity: CapSeverity, min: CapSeverity): boolean {
  return CAP_SEVERITIES.indexOf(severity) <= CAP_SEVERITIES.indexOf(min);
}

export const CAP_POLL_MIN_SECONDS = 30;
export const CAP_POLL_MAX_SECONDS = 3600;
export const CAP_POLL_DEFAULT_SECONDS = 60;
export const CAP_AREAS_MAX = 50;
export const CAP_AREA_MAX = 200;
export const CAP_FEED_NAME_MAX = 80;
export const CAP_URL_MAX = 2000;

/**
 * The feed's address: http(s), without a user name or password, since every reader of the
 * account's feeds sees it (a key in the query is the operator's choice to show).
 */
const feedUrlSchema = webUrlSchema
  .refine((value) => value.length <= CAP_URL_MAX, `must be at most ${CAP_URL_MAX} characters`)
  // The authority's `user:password@` (this room has no URL class; the shape is enough).
  .refine(
    (value) => !/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(value),
    'must not carry a user name or password',
  );

const areaSchema = textSchema
  .trim()
  .min(1, 'must not be empty')
  .max(CAP_AREA_MAX, `must be at most ${CAP_AREA_MAX} characters`);

/** `POST /cap-feeds`. Null is unset, as for overrides. */
export const capFeedCreateSchema = z.strictObject({
  url: feedUrlSchema,
  target: overrideTargetSchema,
  min_severity: capSeveritySchema.nullish().transform((value) => value ?? 'Severe'),
  /** Absent or empty: alerts of any area. */
  areas: z
    .array(areaSchema)
    .max(CAP_AREAS_MAX, `must name at most ${CAP_AREAS_MAX} areas`)
    .nullish()
    .transform((value) => value ?? []),
  poll_seconds: z
    .int('must be a whole number of seconds')
    .min(CAP_POLL_MIN_SECONDS, `must be at least ${CAP_POLL_MIN_SECONDS}`)
    .max(CAP_POLL_MAX_SECONDS, `must be at most ${CAP_POLL_MAX_SECONDS}`)
    .nullish()
    .transform((value) => value ?? CAP_POLL_DEFAULT_SECONDS),
  /** Shown in the audit list as `cap-feed:<name>`; the URL's host when absent. */
  name: textSchema
    .trim()
    .min(1, 'must not be empty')
    .max(CAP_FEED_NAME_MAX, `must be at most ${CAP_FEED_NAME_MAX} characters`)
    .nullish()
    .transform((value) => value ?? null),
});
export type CapFeedCreate = z.infer<typeof capFeedCreateSchema>;

/** A feed as `GET /cap-feeds` lists it, with how its last poll went. */
export const capFeedSchema = z.object({
  id: idSchema,
  name: z.string(),
  url: z.string(),
  target: overrideTargetSchema,
  min_severity: capSeveritySchema,
  areas: z.array(z.string()),
  poll_seconds: z.number().int(),
  created_at: timestampSchema,
  /** `token "<name>"` or `user "<login>"`. */
  created_by: z.string(),
  /** The last poll, whether it worked or not; null before the first. */
  last_polled_at: timestampSchema.nullable(),
  /** The last poll that read the feed and applied it. */
  last_ok_at: timestampSchema.nullable(),
  /** Why the last poll failed; null when it worked. Its overrides stay as they were meanwhile. */
  last_error: z.string().nullable(),
});
export type CapFeed = z.infer<typeof capFeedSchema>;

/** Who raises and clears a feed's overrides, as the audit list names it. */
export const capFeedActor = (name: string) => `cap-feed:${name}`;
