import { z } from 'zod';
import { idSchema, tagSchema, timestampSchema, webUrlSchema } from './common';
import { failureSchema } from './device';
import { textSchema } from './limits';
import { SCRIPT_RUNS_KEPT } from './script';

/**
 * Alerts (docs/alerts.md): where they go (destinations), when they fire (rules), and what fired
 * (incidents, `GET /alerts`).
 */

export const ALERT_DESTINATION_KINDS = ['webhook', 'email', 'slack', 'teams'] as const;
export type AlertDestinationKind = (typeof ALERT_DESTINATION_KINDS)[number];

/**
 * What a rule watches: screens offline, screens failing to show items, a script failing, a node of
 * the service that cannot write its store (docs/alerts.md says when each qualifies and recovers).
 */
export const ALERT_EVENTS = [
  'device.offline',
  'device.failing',
  'script.failing',
  'node.unwritable',
] as const;
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
export type AlertScreenTarget = z.infer<typeof alertTargetSchema>;

/** Which scripts a `script.failing` rule watches: every one of the account, or one. */
export const alertScriptTargetSchema = z.union(
  [z.strictObject({ all: z.literal(true) }), z.strictObject({ script_id: idSchema })],
  { error: 'must be {"all": true} or {"script_id": "<id>"} for script.failing' },
);
export type AlertScriptTarget = z.infer<typeof alertScriptTargetSchema>;

/**
 * A `node.unwritable` rule watches every node of the service: there is no other target. (A union
 * of one, with `never` beside it: zod unwraps a union of one option and would then name each key
 * of a wrong target, where one message on the target says what fits.)
 */
export const alertNodeTargetSchema = z.union([z.strictObject({ all: z.literal(true) }), z.never()], {
  error: 'must be {"all": true} for node.unwritable: it watches every node of the service',
});

/** Any rule's target, as rules are listed. */
export type AlertTarget = AlertScreenTarget | AlertScriptTarget;

/** Ten seconds to a week: below the offline detection's own delay a rule means nothing more. */
export const ALERT_AFTER_SECONDS = { min: 10, max: 7 * 86_400 } as const;

/**
 * Failed runs in a row before a `script.failing` rule fires. At most the runs a script keeps
 * (SCRIPT_RUNS_KEPT): a longer streak could not be counted from them.
 */
export const ALERT_SCRIPT_FAILURES = { min: 1, max: SCRIPT_RUNS_KEPT, default: 3 } as const;

const afterSecondsSchema = z
  .number({ error: 'must be a number of seconds' })
  .int('must be a whole number of seconds')
  .min(ALERT_AFTER_SECONDS.min, `must be at least ${ALERT_AFTER_SECONDS.min}`)
  .max(ALERT_AFTER_SECONDS.max, `must be at most ${ALERT_AFTER_SECONDS.max} (a week)`);

const failuresSchema = z
  .number({ error: 'must be a number of runs' })
  .int('must be a whole number of runs')
  .min(ALERT_SCRIPT_FAILURES.min, `must be at least ${ALERT_SCRIPT_FAILURES.min}`)
  .max(ALERT_SCRIPT_FAILURES.max, `must be at most ${ALERT_SCRIPT_FAILURES.max} (the runs a script keeps)`);

const destinationIdsSchema = z
  .array(idSchema)
  .min(1, 'must name at least one destination')
  .max(20, 'must name at most 20 destinations')
  .refine((ids) => new Set(ids).size === ids.length, 'must not name a destination twice');

/** Each event takes the fields it needs, and a target that fits it (docs/alerts.md). */
export const alertRuleCreateSchema = z.discriminatedUnion(
  'event',
  [
    z.strictObject({
      event: z.literal('device.offline'),
      after_seconds: afterSecondsSchema,
      target: alertTargetSchema,
      destination_ids: destinationIdsSchema,
    }),
    z.strictObject({
      event: z.literal('device.failing'),
      after_seconds: afterSecondsSchema,
      target: alertTargetSchema,
      destination_ids: destinationIdsSchema,
    }),
    z.strictObject({
      event: z.literal('script.failing'),
      failures: failuresSchema.default(ALERT_SCRIPT_FAILURES.default),
      target: alertScriptTargetSchema,
      destination_ids: destinationIdsSchema,
    }),
    z.strictObject({
      event: z.literal('node.unwritable'),
      after_seconds: afterSecondsSchema,
      target: alertNodeTargetSchema.default({ all: true }),
      destination_ids: destinationIdsSchema,
    }),
  ],
  { error: `must be one of ${ALERT_EVENTS.join(', ')}` },
);
export type AlertRuleCreate = z.infer<typeof alertRuleCreateSchema>;

export const alertRuleSchema = z.object({
  id: idSchema,
  event: z.enum(ALERT_EVENTS),
  /** Every event's but script.failing. */
  after_seconds: z.number().int().optional(),
  /** script.failing's: failed runs in a row. */
  failures: z.number().int().optional(),
  target: z.union([
    z.strictObject({ all: z.literal(true) }),
    z.strictObject({ group_id: idSchema }),
    z.strictObject({ device_tag: tagSchema }),
    z.strictObject({ script_id: idSchema }),
  ]),
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

/** A screen an incident names; a `device.failing` incident also says what it failed to show. */
export const alertScreenSchema = z.object({
  tag: z.string(),
  name: z.string(),
  /** device.failing: the failures of the window, as the screen reported them. */
  failures: z.array(failureSchema).optional(),
});
export type AlertScreen = z.infer<typeof alertScreenSchema>;

/** A script a `script.failing` incident names: its failed runs in a row and why the last failed. */
export const alertScriptSchema = z.object({
  id: z.string(),
  name: z.string(),
  failures: z.number().int(),
  reason: z.string(),
});
export type AlertScript = z.infer<typeof alertScriptSchema>;

/** The node a `node.unwritable` incident is about, why it cannot write, and since when. */
export const alertNodeSchema = z.object({ id: z.string(), reason: z.string(), since: timestampSchema });
export type AlertNode = z.infer<typeof alertNodeSchema>;

/**
 * One incident: what a rule found together (screens, scripts, or a node), and when it was over.
 * `devices` and `screens` stay empty for the events about scripts and nodes.
 */
export const alertSchema = z.object({
  id: idSchema,
  event: z.enum(ALERT_EVENTS),
  status: z.enum(ALERT_STATUSES),
  /** The screens' tags, sorted. */
  devices: z.array(z.string()),
  /** The same screens with their names, as the messages name them. */
  screens: z.array(alertScreenSchema),
  /** script.failing: the scripts, by id. */
  scripts: z.array(alertScriptSchema).optional(),
  /** node.unwritable: the node. */
  node: alertNodeSchema.optional(),
  started_at: timestampSchema,
  resolved_at: timestampSchema.optional(),
  rule_id: idSchema,
  deliveries: z.array(alertDeliverySchema),
});
export type Alert = z.infer<typeof alertSchema>;
