import type { Flow } from '../../src/shared/flow';
import type { FieldIssue } from '../../src/shared/issues';
import type { MetricsData } from '../../src/shared/metrics';
import { setFlowErrored } from '../actions/flows';
import { writeMetrics } from '../actions/write-metrics';
import type { ServiceContext } from '../context';
import { metricsCheck } from '../domain/metrics-check';

/** What a script's result does to its flow: the metrics routes' own write (see actions/). */

export type FeedResult =
  | { status: 'updated' }
  /** The flow went away (deleted or renamed) between the run and the write. */
  | { status: 'missing' }
  | { status: 'invalid'; message: string };

function describe(details: readonly FieldIssue[]): string {
  return details.map(({ path, message }) => (path ? `${path}: ${message}` : message)).join('; ');
}

/** Replaces the flow's metrics with `data` when it fits the flow's variant. */
export async function writeFlowMetrics(
  ctx: ServiceContext,
  flow: Pick<Flow, 'tag'>,
  data: unknown,
): Promise<FeedResult> {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    return { status: 'invalid', message: 'the script must return an object: the metrics of its flow' };
  }
  const result = await writeMetrics(ctx, {
    key: flow.tag,
    change: { kind: 'replace', data: data as MetricsData },
    check: metricsCheck(ctx.config),
  });
  if (result.status === 'missing') return result;
  if (result.status === 'invalid') {
    return {
      status: 'invalid',
      message: `the result does not fit a flow of variant "${result.variant}": ${describe(result.details)}`,
    };
  }
  return { status: 'updated' };
}

/**
 * Sets the flow's `errored` flag as `POST /flows/:tag/error` does. Only a change is published:
 * a script failing every five seconds does not wake every screen every five seconds.
 */
export async function markFlowErrored(
  ctx: ServiceContext,
  flow: Pick<Flow, 'tag' | 'errored'>,
  errored: boolean,
): Promise<void> {
  if (flow.errored !== errored) await setFlowErrored(ctx, flow.tag, errored);
}
