import { growingLru } from '../lru';
import type { DataBinding } from '../../src/shared/data-source';
import type { ServiceContext } from '../context';
import { DataBindingRepository, type BindingRun } from '../repositories/data-bindings';
import { DataSourceRepository, type StoredSource } from '../repositories/data-sources';
import { markFlowErrored, writeFlowMetrics } from '../scripts/feed-flow';
import { connectionOf } from './connection';
import { SOURCE_KINDS } from './kinds';
import { SourceError } from './kinds/kind';
import { applyMapping } from './mapping';

/** The longest error kept on a source or binding: enough to say what went wrong. */
const ERROR_MAX = 500;

const clipped = (message: string) =>
  message.length > ERROR_MAX ? `${message.slice(0, ERROR_MAX - 1)}…` : message;

/**
 * What a query's failure says: a SourceError's own words; anything else (a bug of ours, a
 * library's surprise) in general words, its details in the log, since it may hold what the
 * source's owner should not read.
 */
function failureText(error: unknown): string {
  if (error instanceof SourceError) return clipped(error.message);
  return 'the query failed unexpectedly (the service log has the details)';
}

/** Runs one query of a source; the result, or why not. */
export async function runQuery(
  ctx: ServiceContext,
  source: StoredSource,
  query: Pick<DataBinding, 'query' | 'range'>,
  signal: AbortSignal,
): Promise<{ ok: true; result: unknown } | { ok: false; error: string }> {
  try {
    const result = await SOURCE_KINDS[source.kind].run(
      connectionOf(source, ctx.config),
      { query: query.query, range: query.range, now: ctx.clock.now() },
      signal,
    );
    return { ok: true, result };
  } catch (error) {
    if (!(error instanceof SourceError)) {
      ctx.log.error({ err: error }, `data source ${source.id}: a query failed unexpectedly`);
    }
    return { ok: false, error: failureText(error) };
  }
}

const queryKey = (binding: DataBinding) => JSON.stringify([binding.query, binding.range]);

/**
 * What each binding last wrote, by binding: a refresh that maps to the same data writes nothing,
 * so a source polled every few seconds wakes its screens only when its data changes. Kept in
 * memory: after a restart or on a new leading node, the first refresh writes once more.
 */
const lastWritten = growingLru<string, string>(100_000);

/**
 * One pass over a source, in its account's scope: each distinct query of its bindings runs once;
 * each binding maps the result and writes its flow's metrics as any client's write (checked
 * against the flow's variant, published to its screens). A binding that fails marks its flow
 * errored (the interface's rule) and leaves its last good data on screen; the next success clears
 * the mark. The source's own error is the one its queries all came to, when none answered.
 */
export async function refreshSource(
  ctx: ServiceContext,
  source: StoredSource,
  signal: AbortSignal,
): Promise<void> {
  const startedAt = ctx.clock.now();
  const started = performance.now();
  const bindings = await new DataBindingRepository(ctx.db).ofSource(source.id);
  const results = new Map<string, Promise<Awaited<ReturnType<typeof runQuery>>>>();
  for (const binding of bindings) {
    const key = queryKey(binding);
    if (!results.has(key)) results.set(key, runQuery(ctx, source, binding, signal));
  }
  const answered = await Promise.all(results.values());
  if (signal.aborted) return;
  // The bindings at once: their writes join one group commit rather than one commit each.
  const outcomes = await Promise.all(
    bindings.map(async (binding): Promise<BindingRun | null> => {
      const flow = { tag: binding.flow_tag, errored: binding.flow_errored };
      const query = await (results.get(queryKey(binding)) as ReturnType<typeof runQuery>);
      let error: string | null = query.ok ? null : query.error;
      if (query.ok) {
        const mapped = applyMapping(binding.mapping, query.result);
        const text = mapped.ok ? JSON.stringify(mapped.metrics) : null;
        if (!mapped.ok) error = mapped.error;
        else if (text !== lastWritten.get(binding.id) || flow.errored) {
          const written = await writeFlowMetrics(ctx, flow, mapped.metrics);
          if (written.status === 'invalid') error = clipped(written.message);
          if (written.status === 'missing') return null;
        }
        if (error === null && text !== null) lastWritten.set(binding.id, text);
        else lastWritten.delete(binding.id);
      }
      await markFlowErrored(ctx, flow, error !== null);
      return { id: binding.id, error };
    }),
  );
  const ran = outcomes.filter((outcome): outcome is BindingRun => outcome !== null);
  const failed = ran.filter((outcome) => outcome.error !== null).length;
  // The source's own failure: what its queries came to when none of them answered.
  const first = answered[0];
  const sourceError = first && !first.ok && answered.every((answer) => !answer.ok) ? first.error : null;
  // The bindings' and the source's records in one commit.
  await ctx.db.transaction(async (tx) => {
    await new DataBindingRepository(tx).recordRuns(ran, startedAt);
    await new DataSourceRepository(tx).recordRun(source.id, {
      startedAt,
      durationMs: performance.now() - started,
      updated: ran.length - failed,
      failed,
      error: sourceError,
    });
  });
  // The consoles hear of a source when how it goes changes, not at each refresh.
  if (source.last_error !== sourceError || source.last_run_at === null) {
    await ctx.changes.publish({ type: 'console', resource: 'data-sources', id: source.id });
  }
}
