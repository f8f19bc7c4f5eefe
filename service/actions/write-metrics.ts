import type { MetricsData } from '../../src/shared/metrics';
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
import { FlowRepository, type LockedFlow } from '../repositories/flows';
import { currentVisibility, type Visibility } from '../visibility/scope';
import { byAccount, CoalescedWrites, coalescerPer } from './coalesced-writes';

/** One write of a flow's metrics: the flow `key` names, what the write changes, how it is checked. */
export interface MetricsWriteOf {
  /** The flow's tag; with `orId`, its tag or else its id (the single-flow routes, as the original's clients name one). */
  key: string;
  orId?: boolean;
  change: MetricsWrite;
  check: MetricsCheck;
  /** What the writer may see (a device-bound token sees its own flows only); everything when absent. */
  visibility?: Visibility;
}

/**
 * Single writes taken together at most (coalesced-writes.ts): one statement locks them, one stores
 * them, one logs their events.
 */
const BATCH_LIMIT = 64;

/** The flow `write` names among those locked, when its writer may see it. */
function flowOf(write: MetricsWriteOf, byTag: Map<string, LockedFlow>, byId: Map<string, LockedFlow>) {
  const flow = byTag.get(write.key) ?? (write.orId ? byId.get(write.key) : undefined);
  return flow && (write.visibility?.flow(flow.id) ?? true) ? flow : undefined;
}

/**
 * The writes of one account in the transaction `tx`, the hot path, in their order: every flow
 * they name is read under its row's lock in one statement; each write's result is checked
 * against its flow's variant (`check`) on what the writes before it left; the data of every flow
 * written is stored in one statement, and each write that fits is announced. A refusal writes
 * nothing of its own.
 */
export async function writeMetricsIn(
  tx: Queryable,
  emit: Emit,
  ctx: ServiceContext,
  writes: readonly MetricsWriteOf[],
): Promise<MetricsWriteResult[]> {
  const flows = new FlowRepository(tx);
  const locked = await flows.lockForData(
    writes.map((write) => write.key),
    writes.flatMap((write) => (write.orId ? [write.key] : [])),
    writes.some((write) => write.change.kind !== 'replace'),
  );
  const byTag = new Map(locked.map((flow) => [flow.tag, flow]));
  const byId = new Map(locked.map((flow) => [flow.id, flow]));
  const left = new Map<string, MetricsData>();
  const results = writes.map((write): MetricsWriteResult => {
    const flow = flowOf(write, byTag, byId);
    if (!flow) return { status: 'missing' };
    let data;
    try {
      data = written(left.get(flow.id) ?? flow.data, write.change);
    } catch (error) {
      if (!(error instanceof PatchRefused)) throw error;
      return { status: 'invalid', variant: flow.variant, details: error.issues };
    }
    const details = write.check(flow.variant, data);
    if (details) return { status: 'invalid', variant: flow.variant, details };
    left.set(flow.id, data);
    emit({ type: 'metrics.changed', flow_id: flow.id, flow_tag: flow.tag, data });
    return { status: 'updated', id: flow.id, tag: flow.tag, data };
  });
  await flows.storeData(left, ctx.clock.now());
  return results;
}

const singleWrites = coalescerPer(
  (ctx: ServiceContext) =>
    new CoalescedWrites<MetricsWriteOf, MetricsWriteResult>(
      (batch) =>
        ctx.changes.transaction((tx, emit) =>
          byAccount(batch, (group) =>
            writeMetricsIn(
              tx,
              emit,
              ctx,
              group.map((one) => one.item),
            ),
          ),
        ),
      { limit: BATCH_LIMIT },
    ),
);

/**
 * Writes a flow's metrics (checked against its variant) and announces them to the devices showing
 * it, in one commit, together with the single writes that arrive meanwhile: the one path of the
 * metrics routes and of scripts. A flow the writer may not see is missing, as an unknown one.
 */
export async function writeMetrics(ctx: ServiceContext, write: MetricsWriteOf): Promise<MetricsWriteResult> {
  // The writer's visibility, read in its request's scope (the batch runs outside it).
  return singleWrites(ctx).record({
    ...write,
    visibility: write.visibility ?? (await currentVisibility(ctx.db)),
  });
}

/**
 * Writes many flows' metrics in one transaction, one commit. Each flow is refused or skipped on
 * its own (a result per write, in order), but a failure of the store writes none of them: the
 * answer never says "failed" about a batch that was half written.
 */
export function writeManyMetrics(
  ctx: ServiceContext,
  writes: readonly MetricsWriteOf[],
): Promise<MetricsWriteResult[]> {
  return ctx.changes.transaction((tx, emit) => writeMetricsIn(tx, emit, ctx, writes));
}
