import { z } from 'zod';
import { idSchema, tagSchema, timestampSchema } from './common';
import { textSchema } from './limits';

/**
 * Data sources (docs/data-sources.md): a connection the service queries on an interval, and
 * bindings that map a query's result onto a flow's metrics, so a widget shows a Prometheus value,
 * a database's rows, a JSON or CSV answer, a feed's items or a calendar's meetings with no script.
 */

export const DATA_SOURCE_KINDS = ['prometheus', 'postgres', 'mysql', 'json', 'csv', 'rss', 'ical'] as const;
export type DataSourceKind = (typeof DATA_SOURCE_KINDS)[number];
/** The kinds read over HTTP(S): the rest connect to a database. */
export const HTTP_KINDS: readonly DataSourceKind[] = ['prometheus', 'json', 'csv', 'rss', 'ical'];

export const DATA_SOURCE_AUTHS = ['none', 'basic', 'bearer'] as const;

export const SOURCE_INTERVAL_MIN_SECONDS = 5;
export const SOURCE_INTERVAL_MAX_SECONDS = 86_400;
export const SOURCE_TIMEOUT_MAX_SECONDS = 60;
export const SOURCE_NAME_MAX = 80;
export const SOURCE_URL_MAX = 2000;
export const SOURCE_SECRET_MAX = 4096;
export const SOURCE_HEADERS_MAX = 20;
/** The most rows a SQL query or a CSV answer gives a binding. */
export const SOURCE_ROWS_MAX = 1000;
export const QUERY_MAX = 10_000;
export const MAPPING_FIELDS_MAX = 40;
export const MAPPING_EXPRESSION_MAX = 2000;

const kindSchema = z.enum(DATA_SOURCE_KINDS, {
  error: `must be one of ${DATA_SOURCE_KINDS.map((kind) => `"${kind}"`).join(', ')}`,
});

const headersSchema = z
  .record(
    textSchema.regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, 'must be a header name'),
    textSchema.max(2000, 'must be at most 2000 characters'),
  )
  .refine((headers) => Object.keys(headers).length <= SOURCE_HEADERS_MAX, {
    message: `must have at most ${SOURCE_HEADERS_MAX} headers`,
  });

const sourceFields = {
  name: textSchema
    .trim()
    .min(1, 'must not be empty')
    .max(SOURCE_NAME_MAX, `must be at most ${SOURCE_NAME_MAX} characters`),
  kind: kindSchema,
  /**
   * http(s) for the HTTP kinds; `postgres://user@host:5432/db` or `mysql://user@host:3306/db` for
   * the databases. A password in the URL is refused: it goes in `secret`, which is never shown.
   */
  url: textSchema
    .min(1, 'must not be empty')
    .max(SOURCE_URL_MAX, `must be at most ${SOURCE_URL_MAX} characters`),
  /** How the HTTP kinds sign in (`secret` is the password or the token); databases use `secret` as the password. */
  auth: z.enum(DATA_SOURCE_AUTHS, { error: 'must be "none", "basic" or "bearer"' }),
  /** The basic auth user name; unused otherwise (a database's user is in its URL). */
  username: textSchema.max(255, 'must be at most 255 characters').nullable(),
  /** Headers sent with each request of an HTTP kind: not secret, shown to every reader. */
  headers: headersSchema,
  interval_seconds: z
    .number()
    .int('must be a whole number')
    .min(SOURCE_INTERVAL_MIN_SECONDS, `must be at least ${SOURCE_INTERVAL_MIN_SECONDS}`)
    .max(SOURCE_INTERVAL_MAX_SECONDS, `must be at most ${SOURCE_INTERVAL_MAX_SECONDS}`),
  timeout_seconds: z
    .number()
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(SOURCE_TIMEOUT_MAX_SECONDS, `must be at most ${SOURCE_TIMEOUT_MAX_SECONDS}`),
  /** Loopback and private addresses allowed for this source; only an admin sets it. */
  allow_private: z.boolean(),
};

/** Write-only: the password or token. Never answered, never logged. */
const secretSchema = textSchema
  .min(1, 'must not be empty')
  .max(SOURCE_SECRET_MAX, `must be at most ${SOURCE_SECRET_MAX} characters`);

export const dataSourceCreateSchema = z.strictObject({
  name: sourceFields.name,
  kind: sourceFields.kind,
  url: sourceFields.url,
  auth: sourceFields.auth.default('none'),
  username: sourceFields.username.default(null),
  secret: secretSchema.nullable().default(null),
  headers: sourceFields.headers.default({}),
  interval_seconds: sourceFields.interval_seconds.default(60),
  timeout_seconds: sourceFields.timeout_seconds.default(10),
  allow_private: sourceFields.allow_private.default(false),
});
export type DataSourceCreate = z.infer<typeof dataSourceCreateSchema>;

/** Every field may change; `secret: null` removes it, an absent `secret` keeps it. The kind stays. */
export const dataSourceUpdateSchema = z.strictObject({
  name: sourceFields.name.optional(),
  url: sourceFields.url.optional(),
  auth: sourceFields.auth.optional(),
  username: sourceFields.username.optional(),
  secret: secretSchema.nullable().optional(),
  headers: sourceFields.headers.optional(),
  interval_seconds: sourceFields.interval_seconds.optional(),
  timeout_seconds: sourceFields.timeout_seconds.optional(),
  allow_private: sourceFields.allow_private.optional(),
});
export type DataSourceUpdate = z.infer<typeof dataSourceUpdateSchema>;

export const dataSourceSchema = z.object({
  id: idSchema,
  name: z.string(),
  kind: kindSchema,
  url: z.string(),
  auth: z.enum(DATA_SOURCE_AUTHS),
  username: z.string().nullable(),
  /** Whether a secret is set: its value is never answered. */
  has_secret: z.boolean(),
  headers: z.record(z.string(), z.string()),
  interval_seconds: z.number().int(),
  timeout_seconds: z.number().int(),
  allow_private: z.boolean(),
  created_at: timestampSchema,
  last_run_at: timestampSchema.nullable(),
  last_ok_at: timestampSchema.nullable(),
  last_error: z.string().nullable(),
  /** How many flows it feeds. */
  bindings: z.number().int(),
});
export type DataSource = z.infer<typeof dataSourceSchema>;

/**
 * A Prometheus range query: the last `seconds`, a point every `step_seconds`. Absent, a
 * Prometheus query is instant. Other kinds refuse it.
 */
export const queryRangeSchema = z.strictObject({
  seconds: z
    .number()
    .int('must be a whole number')
    .min(60, 'must be at least 60')
    .max(7 * 86_400, 'must be at most 604800'),
  step_seconds: z
    .number()
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(86_400, 'must be at most 86400'),
});

const querySchema = textSchema.max(QUERY_MAX, `must be at most ${QUERY_MAX} characters`);

/**
 * The flow's metrics, field by field: each top-level field of the flow's variant and the
 * JMESPath expression that computes it from the query's result.
 */
export const mappingSchema = z
  .record(
    textSchema.regex(/^[a-z_][a-z0-9_]*$/, 'must be a field of the variant'),
    textSchema
      .min(1, 'must not be empty')
      .max(MAPPING_EXPRESSION_MAX, `must be at most ${MAPPING_EXPRESSION_MAX} characters`),
  )
  .refine((mapping) => Object.keys(mapping).length <= MAPPING_FIELDS_MAX, {
    message: `must map at most ${MAPPING_FIELDS_MAX} fields`,
  });

export const dataBindingCreateSchema = z.strictObject({
  source_id: idSchema,
  /** The flow fed, by tag (or id): one binding a flow. */
  flow: idSchema,
  /** PromQL, SQL (one read-only statement), or a JMESPath expression over an HTTP kind's answer ('' for all of it). */
  query: querySchema.default(''),
  range: queryRangeSchema.nullable().default(null),
  mapping: mappingSchema,
});
export type DataBindingCreate = z.infer<typeof dataBindingCreateSchema>;

export const dataBindingUpdateSchema = z.strictObject({
  query: querySchema.optional(),
  range: queryRangeSchema.nullable().optional(),
  mapping: mappingSchema.optional(),
});
export type DataBindingUpdate = z.infer<typeof dataBindingUpdateSchema>;

export const dataBindingSchema = z.object({
  id: idSchema,
  source_id: idSchema,
  flow_id: idSchema,
  flow_tag: tagSchema,
  query: z.string(),
  range: queryRangeSchema.nullable(),
  mapping: z.record(z.string(), z.string()),
  created_at: timestampSchema,
  last_run_at: timestampSchema.nullable(),
  last_ok_at: timestampSchema.nullable(),
  last_error: z.string().nullable(),
});
export type DataBinding = z.infer<typeof dataBindingSchema>;

/** One pass over a source: when, how long, and how its bindings fared. */
export const dataSourceRunSchema = z.object({
  id: idSchema,
  source_id: idSchema,
  started_at: timestampSchema,
  duration_ms: z.number().int(),
  ok: z.boolean(),
  updated: z.number().int(),
  failed: z.number().int(),
  error: z.string().nullable(),
});
export type DataSourceRun = z.infer<typeof dataSourceRunSchema>;

/** `POST /data-sources/:id/test`: one query of the saved source, its raw result. */
export const dataSourceTestSchema = z.strictObject({
  query: querySchema.default(''),
  range: queryRangeSchema.nullable().default(null),
  /** With it, the mapped metrics are answered too, checked against the flow's variant. */
  mapping: mappingSchema.optional(),
  flow: idSchema.optional(),
});

export const dataSourceTestResultSchema = z.object({
  ok: z.boolean(),
  duration_ms: z.number().int(),
  /** The query's result (clipped to its first 200 rows or items), as the mapping sees it. */
  result: z.unknown().optional(),
  /** The mapping applied to it, when one was given. */
  metrics: z.unknown().optional(),
  error: z.string().optional(),
});
export type DataSourceTestResult = z.infer<typeof dataSourceTestResultSchema>;
