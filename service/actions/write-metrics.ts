import type { ServiceContext } from '../context';
import { rooms } from '../realtime/rooms';
import {
  FlowRepository,
  type MetricsCheck,
  type MetricsWrite,
  type MetricsWriteResult,
} from '../repositories/flows';

/**
 * Writes a flow's metrics (checked by `check` against its variant) and announces them to the
 * devices showing it: the one path of the metrics routes and of scripts.
 */
export async function writeMetrics(
  ctx: ServiceContext,
  tag: string,
  change: MetricsWrite,
  check: MetricsCheck,
): Promise<MetricsWriteResult> {
  const result = await new FlowRepository(ctx.db).writeData(tag, change, ctx.clock.now(), check);
  if (result.status === 'updated') {
    await ctx.events.publish(
      { type: 'metrics.changed', flow_id: result.id, flow_tag: result.tag, data: result.data },
      [rooms.flow(result.id)],
    );
  }
  return result;
}
