import { z } from 'zod';
import { idSchema, tagSchema, timestampSchema } from './common';
import { textSchema } from './limits';

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const DURATION_PART = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/y;

/**
 * A Go-style duration ("30s", "5m", "1h30m", "1.5h", "1d", "500ms") in milliseconds; null when
 * the text does not follow the grammar. Parts add up; a unit is required.
 */
export function parseDuration(text: string): number | null {
  if (text.length === 0 || text.length > 64) return null;
  DURATION_PART.lastIndex = 0;
  let total = 0;
  while (DURATION_PART.lastIndex < text.length) {
    const match = DURATION_PART.exec(text);
    if (!match) return null;
    total += Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
  }
  return Number.isFinite(total) ? total : null;
}

export const SCRIPT_INTERVAL_MIN_MS = 1000;
/** Longer waits do not fit one timer (2^31 ms); a week is plenty for a dashboard. */
export const SCRIPT_INTERVAL_MAX_MS = 7 * 86_400_000;
export const SCRIPT_TIMEOUT_DEFAULT = 10;
export const SCRIPT_TIMEOUT_MAX = 60;
export const SCRIPT_CODE_MAX = 100_000;
/** Runs kept per script; older ones are dropped. */
export const SCRIPT_RUNS_KEPT = 50;

const DURATION_HINT = 'such as "30s", "5m", "1h", "1d" or "1h30m"';

/** How often a script runs. */
export const scriptIntervalSchema = z.string().superRefine((value, ctx) => {
  const ms = parseDuration(value);
  if (ms === null) ctx.addIssue({ code: 'custom', message: `must be a duration ${DURATION_HINT}` });
  else if (ms < SCRIPT_INTERVAL_MIN_MS) ctx.addIssue({ code: 'custom', message: 'must be at least 1s' });
  else if (ms > SCRIPT_INTERVAL_MAX_MS) ctx.addIssue({ code: 'custom', message: 'must be at most 7d' });
});

const scriptName = textSchema.trim().min(1, 'must not be empty').max(255, 'must be at most 255 characters');

/** The body of an async function: `return` the flow's metrics; `await` and `require` work. */
const scriptCode = textSchema.max(SCRIPT_CODE_MAX, `must be at most ${SCRIPT_CODE_MAX} characters`);

const scriptTimeout = z
  .int('must be a whole number of seconds')
  .min(1, 'must be at least 1 second')
  .max(SCRIPT_TIMEOUT_MAX, `must be at most ${SCRIPT_TIMEOUT_MAX} seconds`);

export const scriptSchema = z.object({
  id: idSchema,
  name: scriptName,
  code: scriptCode,
  interval: scriptIntervalSchema,
  /** `interval` in seconds, as the scheduler reads it. */
  interval_seconds: z.number().positive(),
  /** Wall-clock limit of one run. */
  timeout_seconds: scriptTimeout,
  /** Disabled scripts are not scheduled but can still be run by hand. */
  enabled: z.boolean(),
  /** The flow whose metrics the script's result becomes, or null. */
  flow_id: idSchema.nullable(),
  created_at: timestampSchema,
  updated_at: timestampSchema,
});
export type Script = z.infer<typeof scriptSchema>;

const oneFlowAtMost = (body: { flow_id?: string | null; flow_tag?: string }) =>
  body.flow_id === undefined || body.flow_tag === undefined;
const oneFlowMessage = { message: 'give at most one of flow_id and flow_tag', path: ['flow_tag'] };

/** The flow is named by id or by tag (at most one); none means the script feeds no flow. */
export const scriptCreateSchema = z
  .strictObject({
    name: scriptName,
    code: scriptCode,
    interval: scriptIntervalSchema,
    timeout_seconds: scriptTimeout.default(SCRIPT_TIMEOUT_DEFAULT),
    enabled: z.boolean().default(true),
    flow_id: idSchema.nullable().optional(),
    flow_tag: tagSchema.optional(),
  })
  .refine(oneFlowAtMost, oneFlowMessage);
export type ScriptCreate = z.infer<typeof scriptCreateSchema>;

/** `flow_id: null` detaches the script from its flow. */
export const scriptUpdateSchema = z
  .strictObject({
    name: scriptName.optional(),
    code: scriptCode.optional(),
    interval: scriptIntervalSchema.optional(),
    timeout_seconds: scriptTimeout.optional(),
    enabled: z.boolean().optional(),
    flow_id: idSchema.nullable().optional(),
    flow_tag: tagSchema.optional(),
  })
  .refine(oneFlowAtMost, oneFlowMessage);
export type ScriptUpdate = z.infer<typeof scriptUpdateSchema>;

/**
 * ok: finished (and, with a flow, its result was written); error: threw, failed to compile or ran
 * out of memory; timeout: stopped at `timeout_seconds`; invalid: the result did not fit the flow.
 */
export const SCRIPT_RUN_OUTCOMES = ['ok', 'error', 'timeout', 'invalid'] as const;
export const scriptRunOutcomeSchema = z.enum(SCRIPT_RUN_OUTCOMES);
export type ScriptRunOutcome = z.infer<typeof scriptRunOutcomeSchema>;

export const scriptRunSchema = z.object({
  id: idSchema,
  script_id: idSchema,
  started_at: timestampSchema,
  duration_ms: z.int().min(0),
  outcome: scriptRunOutcomeSchema,
  /** schedule: started by the scheduler; manual: by `POST /scripts/:id/run`. */
  trigger: z.enum(['schedule', 'manual']),
  /** What the script wrote with console.log and friends (capped), oldest first. */
  logs: z.array(z.string()),
  error: z.string().nullable(),
});
export type ScriptRun = z.infer<typeof scriptRunSchema>;

/**
 * What the current account uses of the service's limits on scripts (GET /scripts/usage): its
 * script time over the last hour, and its enabled scripts.
 */
export const scriptUsageSchema = z.object({
  script_time: z.object({
    /** Seconds of run time over the last hour: each run from its slot to its end, those under way so far. */
    used_seconds: z.number().nonnegative(),
    /** The most per hour (`--script-seconds-per-hour`); past it runs are refused until the hour frees some. */
    limit_seconds: z.number().nonnegative(),
    /** Runs refused for want of script time over the last hour, manual and scheduled. */
    refused_runs: z.int().nonnegative(),
  }),
  enabled_scripts: z.object({
    used: z.int().nonnegative(),
    /** The most enabled at once (`--scripts-enabled-per-account`). */
    limit: z.int().nonnegative(),
  }),
});
export type ScriptUsage = z.infer<typeof scriptUsageSchema>;
