import type { Operation } from 'fast-json-patch';
import { z } from 'zod';
import { tagSchema } from '../../src/shared/common';
import { toFieldIssues, type FieldIssue } from '../../src/shared/issues';
import { metricsDataSchema, type MetricsData } from '../../src/shared/metrics';
import { writeManyMetrics } from '../actions/write-metrics';
import type { ServiceContext } from '../context';
import { metricsCheck, prefixed } from '../domain/metrics-check';
import type { MetricsWrite, MetricsWriteResult } from '../domain/metric-writes';
import { currentVisibility } from '../visibility/scope';

const issueSchema = z.object({ path: z.string(), message: z.string() });

/**
 * The answer of every batch (docs/api/metrics.md). `errors` holds one string per refused tag,
 * because the original product's Go and PHP clients parse it as strings (an object there makes the
 * Go client report the whole batch failed); the same refusals, structured, are in `error_details`.
 */
export const batchAnswer = z.object({
  updated: z.array(z.string()),
  skipped: z.array(z.string()),
  errors: z.array(z.string()),
  error_details: z.array(z.object({ tag: z.string(), details: z.array(issueSchema) })),
});
export type BatchAnswer = z.infer<typeof batchAnswer>;

export const batchBody = z.strictObject({
  /** Checked flow by flow below, so that one bad entry does not refuse the others. */
  data: z.record(z.string(), z.unknown(), { error: 'must be an object of flow tags' }),
});

/**
 * `POST /data` and `PATCH /data`, the older clients' batches: `{"data": {...}}` as /metrics takes
 * it, or the bare map of tags (the Node client's). A body whose only key is `data`, an object, is
 * the first.
 */
export const legacyBatchBody = z.record(z.string(), z.unknown(), { error: 'must be an object of flow tags' });

export function tagsOfLegacyBatch(body: Record<string, unknown>): {
  entries: Record<string, unknown>;
  at: string;
} {
  const { data } = body;
  const wrapped =
    Object.keys(body).length === 1 && typeof data === 'object' && data !== null && !Array.isArray(data);
  return wrapped
    ? { entries: data as Record<string, unknown>, at: 'body.data' }
    : { entries: body, at: 'body' };
}

/** The answer of a legacy single-flow write that succeeded: a batch of one, as older clients read it. */
export const batchOfOne = (tag: string): BatchAnswer => ({
  updated: [tag],
  skipped: [],
  errors: [],
  error_details: [],
});

/** `mem: body.data.mem.value: Invalid input; body.data.mem.max: …`: the tag first, then each detail. */
const refusalText = (tag: string, details: readonly FieldIssue[]): string =>
  [tag, details.map((detail) => `${detail.path}: ${detail.message}`).join('; ')].join(': ');

/** PATCH semantics: top-level keys overwrite, a key set to null is removed. */
function mergeOf(patch: MetricsData): MetricsWrite {
  const set: MetricsData = {};
  const remove: string[] = [];
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) remove.push(key);
    else set[key] = value;
  }
  return { kind: 'merge', set, remove };
}

export const writeOf = (kind: 'replace' | 'merge', data: MetricsData): MetricsWrite =>
  kind === 'replace' ? { kind, data } : mergeOf(data);

/** An RFC 6902 operation, as the original's Go library sends them (`application/json-patch+json`). */
const operationSchema = z.union([
  z.strictObject({ op: z.enum(['add', 'replace', 'test']), path: z.string(), value: z.unknown() }),
  z.strictObject({ op: z.literal('remove'), path: z.string() }),
  z.strictObject({ op: z.enum(['move', 'copy']), from: z.string(), path: z.string() }),
]);
const operationsSchema = z.array(operationSchema).max(1000);

/**
 * One entry of a batch as the write it asks for: its data, or, in a merge, a list of JSON Patch
 * operations (an entry's data is an object, so a list can only be that).
 */
function changeOf(kind: 'replace' | 'merge', value: unknown, prefix: string) {
  if (kind === 'merge' && Array.isArray(value)) {
    const operations = operationsSchema.safeParse(value);
    return operations.success
      ? { change: { kind: 'patch', operations: operations.data as Operation[], at: prefix } as const }
      : { issues: prefixed(toFieldIssues(operations.error), prefix) };
  }
  const shape = metricsDataSchema.safeParse(value);
  return shape.success
    ? { change: writeOf(kind, shape.data) }
    : { issues: prefixed(toFieldIssues(shape.error), prefix) };
}

export interface BatchOptions {
  /** Where the entries are in the body: `body.data`, `body` (a bare map); a detail's path starts there. */
  at: (tag: string) => string;
  /** Tags outside it are skipped as unknown ones are (a channel's batch names its own flows only). */
  among?: (tag: string) => boolean;
}

/**
 * A batch answers flow by flow (docs/api/metrics.md): refused and unknown tags are listed and
 * the others written. The writes go in one transaction, so a failure of the store (a 500)
 * leaves every flow as it was rather than some written.
 */
export async function writeBatch(
  ctx: ServiceContext,
  entries: Record<string, unknown>,
  kind: 'replace' | 'merge',
  { at, among = () => true }: BatchOptions,
): Promise<BatchAnswer> {
  const visible = await currentVisibility(ctx.db);
  const checked = Object.entries(entries).map(([tag, value]) => {
    const prefix = at(tag);
    // A key that is no tag names no flow, and one with a NUL in it would fail in the store.
    const named = tagSchema.safeParse(tag);
    if (!named.success) return { tag, issues: prefixed(toFieldIssues(named.error), prefix) };
    // A flow a device-bound token does not show is, for it, one that does not exist.
    if (!visible.flowTag(tag) || !among(tag)) return { tag, hidden: true };
    const { change, issues } = changeOf(kind, value, prefix);
    return change
      ? { tag, write: { key: tag, change, check: metricsCheck(ctx.config, prefix) } }
      : { tag, issues };
  });
  const written = await writeManyMetrics(
    ctx,
    checked.flatMap((entry) => (entry.write ? [entry.write] : [])),
  );
  const results = written.values();
  const answer: BatchAnswer = { updated: [], skipped: [], errors: [], error_details: [] };
  const refuse = (tag: string, details: FieldIssue[]) => {
    answer.errors.push(refusalText(tag, details));
    answer.error_details.push({ tag, details });
  };
  for (const { tag, issues, hidden } of checked) {
    if (issues) {
      refuse(tag, issues);
      continue;
    }
    if (hidden) {
      answer.skipped.push(tag);
      continue;
    }
    const result = results.next().value as MetricsWriteResult;
    if (result.status === 'updated') answer.updated.push(tag);
    else if (result.status === 'missing') answer.skipped.push(tag);
    else refuse(tag, result.details);
  }
  return answer;
}
