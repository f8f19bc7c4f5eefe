import type { ServiceContext } from '../context';
import type { Queryable } from '../db/database';
import {
  PatchRefused,
  written,
  type MetricsCheck,
  type MetricsWrite,
  type MetricsWriteResult,
} from '../domain/metric-writes';
import type { Emit } from '../realtime/changes';
import { FlowRepository } from '../repositories/flows';

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * One flow's write in the transaction `tx`, the hot path: the flow is read by tag under its
 * row's lock, the data the write leaves is checked against its variant (`check`), and only data
 * that fits is written, with its event; a refusal writes nothing.
 */
async function writeIn(
  tx: Queryable,
  emit: Emit,
  ctx: ServiceContext,
  tag: string,
  change: MetricsWrite,
  check: MetricsCheck,
): Promise<MetricsWriteResult> {
  const flows = new FlowRepository(tx);
  const flow = await flows.lockForData(tag, change.kind !== 'replace');
  if (!flow) return { status: 'missing' };
  let data;
  try {
    data = written(flow.data, change);
  } catch (error) {
    if (!(error instanceof PatchRefused)) throw error;
    return { status: 'invalid', variant: flow.variant, details: error.issues };
  }
  const details = check(flow.variant, data);
  if (details) return { status: 'invalid', variant: flow.variant, details };
  await flows.storeData(flow.id, data, ctx.clock.now());
  emit({ type: 'metrics.changed', flow_id: flow.id, flow_tag: flow.tag, data });
  return { status: 'updated', id: flow.id, tag: flow.tag, data };
}

/**
 * Writes a flow's metrics (checked by `check` against its variant) and announces them to the
 * devices showing it, in one commit: the one path of the metrics routes and of scripts.
 */
export function writeMetrics(
  ctx: ServiceContext,
  tag: string,
  change: MetricsWrite,
  check: MetricsCheck,
): Promise<MetricsWriteResult> {
  return ctx.changes.transaction((tx, emit) => writeIn(tx, emit, ctx, tag, change, check));
}

/**
 * Writes many flows' metrics in one transaction, one commit. Each flow is refused or skipped on
 * its own (a result per write, in order), but a failure of the store writes none of them: the
 * answer never says "failed" about a batch that was half written.
 */
export function writeManyMetrics(
  ctx: ServiceContext,
  writes: readonly { tag: string; change: MetricsWrite; check: MetricsCheck }[],
): Promise<MetricsWriteResult[]> {
  // Flows are locked in the order of their tags, so two batches naming the same flows in other
  // orders wait for each other instead of deadlocking (PostgreSQL would abort one of them).
  const order = writes
    .map((write, index) => ({ write, index }))
    .sort((a, b) => compare(a.write.tag, b.write.tag));
  return ctx.changes.transaction(async (tx, emit) => {
    const results: MetricsWriteResult[] = new Array(writes.length);
    for (const { write, index } of order) {
      results[index] = await writeIn(tx, emit, ctx, write.tag, write.change, write.check);
    }
    return results;
  });
}
