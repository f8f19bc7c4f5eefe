import { z } from 'zod';
import { idSchema, tagSchema, timestampSchema, webUrlSchema } from './common';
import { textSchema } from './limits';

/**
 * Alerts (docs/alerts.md): where they go (destinations), when they fire (rules), and what fired
 * (incidents, `GET /alerts`).
 */

export const ALERT_DESTINATION_KINDS = ['webhook', 'email', 'slack', 'teams'] as const;
export type AlertDestinationKind = (typeof ALERT_DESTINATION_KINDS)[number];

export const ALERT_EVENTS = ['device.offline'] as const;
export type AlertEvent = (typeof ALERT_EVENTS)[number];

const nameSchema = textSchema.trim().max(255, 'must be at most 255 characters');

/** The HMAC key of a signed webhook: long enough that the signature means something. */
const secretSchema = textSchema
  .min(16, 'must be at least 16 characters')
  .max(512, 'must be at most 512 characters');

const emailSchema = z
  .email({ error: 'must be an e-mail address' })
  .max(254, 'must be at most 254 characters');

export const alertDestinationCreateSchema = z.discriminatedUnion(
  'kind',
  [
    z.strictObject({
      kind: z.literal('webhook'),
      name: nameSchema.optional(),
      url: webUrlSchema,
      secret: secretSchema,
    }),
    z.strictObject({
      kind: z.literal('email'),
      name: nameSchema.optional(),
      to: z
        .array(emailSchema)
        .min(1, 'must name at least one address')
        .max(20, 'must name at most 20 addresses'),
    }),
    z.strictObject({ kind: z.literal('slack'), name: nameSchema.optional(), url: webUrlSchema }),
    z.strictObject({ kind: z.literal('teams'), name: nameSchema.optional(), url: webUrlSchema }),
  ],
  { error: 'must be one of webhook, email, slack, teams' },
);
export type AlertDestinationCreate = z.infer<typeof alertDestinationCreateSchema>;

/**
 * A destination as it is listed: never its secret (`has_secret` says there is one). A Slack or
 * Teams URL is itself the credential, so only its start and end are shown (`url_hint`).
 */
export const alertDestinationSchema = z.object({
  id: idSchema,
  kind: z.enum(ALERT_DESTINATION_KINDS),
  name: z.string(),
  /** A webhook's URL. */
  url: z.string().optional(),
  /** A Slack or Teams URL, mostly hidden: `https://hooks.slack.com/…a1b2`. */
  url_hint: z.string().optional(),
  /** An e-mail destination's recipients. */
  to: z.array(z.string()).optional(),
  has_secret: z.boolean(),
  created_at: timestampSchema,
});
export type AlertDestination = z.infer<typeof alertDestinationSchema>;

/** Which screens a rule watches: every one of the account, a group's, or one screen. */
export const alertTargetSchema = z.union(
  [
    z.strictObject({ all: z.literal(true) }),
    z.strictObject({ group_id: idSchema }),
    z.strictObject({ device_tag: tagSchema }),
  ],
  { error: 'must be {"all": true}, {"group_id": "<id>"} or {"device_tag": "<tag>"}' },
);
export type AlertTarget = z.infer<typeof alertTargetSchema>;

/** Ten seconds to a week: below the offline detection's own delay a rule means nothing more. */
export const ALERT_AFTER_SECONDS = { min: 10, max: 7 * 86_400 } as const;

export const alertRuleCreateSchema = z.strictObject({
  event: z.enum(ALERT_EVENTS, { error: 'must be device.offline' }),
  after_seconds: z
    .number({ error: 'must be a number of seconds' })
    .int('must be a whole number of seconds')
    .min(ALERT_AFTER_SECONDS.min, `must be at least ${ALERT_AFTER_SECONDS.min}`)
    .max(ALERT_AFTER_SECONDS.max, `must be at most ${ALERT_AFTER_SECONDS.max} (a week)`),
  target: alertTargetSchema,
  destination_ids: z
    .array(idSchema)
    .min(1, 'must name at least one destination')
    .max(20, 'must name at most 20 destinations')
    .refine((ids) => new Set(ids).size === ids.length, 'must not name a destination twice'),
});
export type AlertRuleCreate = z.infer<typeof alertRuleCreateSchema>;

export const alertRuleSchema = z.object({
  id: idSchema,
  event: z.enum(ALERT_EVENTS),
  after_seconds: z.number().int(),
  target: alertTargetSchema,
  /** The destinations it sends to; a deleted destination leaves the list. */
  destination_ids: z.array(idSchema),
  created_at: timestampSchema,
});
export type AlertRule = z.infer<typeof alertRuleSchema>;

export const ALERT_STATUSES = ['firing', 'resolved'] as const;
export type AlertStatus = (typeof ALERT_STATUSES)[number];

/** How one message of an incident to one destination went. */
export const alertDeliverySchema = z.object({
  destination_id: idSchema,
  /** The alert (`firing`) or the recovery (`resolved`). */
  phase: z.enum(ALERT_STATUSES),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number().int(),
  next_attempt_at: timestampSchema.optional(),
  delivered_at: timestampSchema.optional(),
  last_error: z.string().optional(),
});
export type AlertDelivery = z.infer<typeof alertDeliverySchema>;

/** One incident: the screens a rule found offline together, and when they all came back. */
export const alertSchema = z.object({
  id: idSchema,
  event: z.enum(ALERT_EVENTS),
  status: z.enum(ALERT_STATUSES),
  /** The screens' tags, sorted. */
  devices: z.array(z.string()),
  /** The same screens with their names, as the messages name them. */
  screens: z.array(z.object({ tag: z.string(), name: z.string() })),
  started_at: timestampSchema,
  resolved_at: timestampSchema.optional(),
  rule_id: idSchema,
  deliveries: z.array(alertDeliverySchema),
});
export type Alert = z.infer<typeof alertSchema>;
