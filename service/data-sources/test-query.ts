import type { z } from 'zod';
import type { DataSourceTestResult, dataSourceTestSchema } from '../../src/shared/data-source';
import type { FieldIssue } from '../../src/shared/issues';
import type { ServiceContext } from '../context';
import { metricsCheck } from '../domain/metrics-check';
import { invalid } from '../domain/errors';
import { FlowRepository } from '../repositories/flows';
import type { StoredSource } from '../repositories/data-sources';
import { SOURCE_KINDS } from './kinds';
import { applyMapping } from './mapping';
import { runQuery } from './refresh';

/** Rows or items shown of a result: enough to write a mapping, not a whole table in a browser. */
const SHOWN = 200;

/** A result with its long lists cut to SHOWN: the top level, or a feed's items and a calendar's events. */
function clip(result: unknown): unknown {
  if (Array.isArray(result)) return result.slice(0, SHOWN);
  if (result !== null && typeof result === 'object') {
    return Object.fromEntries(
      Object.entries(result).map(([key, value]) => [
        key,
        Array.isArray(value) ? value.slice(0, SHOWN) : value,
      ]),
    );
  }
  return result;
}

const said = (issues: readonly FieldIssue[]) =>
  issues.map(({ path, message }) => (path ? `${path}: ${message}` : message)).join('; ');

/**
 * The console's Test (`POST /data-sources/:id/test`): one query now, its result, and with a
 * mapping and a flow the metrics it maps to, checked as the flow's write would check them.
 * Nothing is written: neither the flow nor the source's runs.
 */
export async function testQuery(
  ctx: ServiceContext,
  source: StoredSource,
  body: z.infer<typeof dataSourceTestSchema>,
): Promise<DataSourceTestResult> {
  const problem = SOURCE_KINDS[source.kind].check(body.query, body.range);
  if (problem !== null) throw invalid(`query: ${problem}`, [{ path: 'query', message: problem }]);
  const flow = body.flow === undefined ? null : await new FlowRepository(ctx.db).find(body.flow, 'tag');
  if (body.flow !== undefined && !flow) {
    const message = `no flow ${body.flow}`;
    throw invalid(`flow: ${message}`, [{ path: 'flow', message }]);
  }
  const started = performance.now();
  const answer = await runQuery(
    ctx,
    source,
    { query: body.query, range: body.range },
    AbortSignal.timeout(65_000),
  );
  const duration_ms = Math.round(performance.now() - started);
  if (!answer.ok) return { ok: false, duration_ms, error: answer.error };
  const result = clip(answer.result);
  if (!body.mapping) return { ok: true, duration_ms, result };
  const mapped = applyMapping(body.mapping, answer.result);
  if (!mapped.ok) return { ok: false, duration_ms, result, error: mapped.error };
  const issues = flow ? metricsCheck(ctx.config)(flow.variant, mapped.metrics) : null;
  if (issues && issues.length > 0) {
    return {
      ok: false,
      duration_ms,
      result,
      metrics: mapped.metrics,
      error: `the mapped data does not fit a ${flow?.variant} widget: ${said(issues)}`,
    };
  }
  return { ok: true, duration_ms, result, metrics: mapped.metrics };
}
