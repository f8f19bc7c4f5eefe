import { isFlowReady, type Flow, type FlowCreate, type FlowUpdate } from '../../src/shared/flow';
import { defaultChannelId } from '../accounts/accounts';
import type { ServiceContext } from '../context';
import { invalid } from '../domain/errors';
import { metricsCheck } from '../domain/metrics-check';
import { ChannelRepository } from '../repositories/channels';
import { FlowRepository, unknownChannel, type FlowPatch } from '../repositories/flows';

/** Checked first for a clear answer; the repository still refuses a channel deleted meanwhile. */
async function checkChannel(ctx: ServiceContext, channelId: string | null | undefined): Promise<void> {
  if (channelId && !(await new ChannelRepository(ctx.db).exists(channelId))) throw unknownChannel(channelId);
}

/**
 * A flow in the default channel unless told, enabled when it is ready, with `data` as its first
 * metrics when it fits the variant. No device shows it yet. The original's fields that mean
 * nothing here (an empty id, its source provider, filter and params) are dropped.
 */
export async function createFlow(ctx: ServiceContext, body: FlowCreate): Promise<Flow> {
  const { tag, variant, type, channel_id, source = null, parameters = null, data } = body;
  const issues = data ? metricsCheck(ctx.config, 'body.data')(variant, data) : null;
  if (issues) throw invalid(`the data does not fit a flow of variant "${variant}"`, issues);
  const channelId = channel_id === undefined ? defaultChannelId() : channel_id;
  await checkChannel(ctx, channelId);
  return ctx.changes.transaction(async (tx, emit) => {
    const flow = await new FlowRepository(tx).create(
      {
        tag,
        variant,
        type,
        channel_id: channelId,
        source,
        parameters,
        enabled: isFlowReady({ source, parameters }),
        created_at: ctx.clock.now(),
      },
      data ?? {},
    );
    // No device shows it yet: the consoles list it.
    emit({ type: 'console', resource: 'flows', id: flow.id });
    return flow;
  });
}

/** Null when there is no such flow. A new source or parameters decide `enabled` again. */
export async function updateFlow(ctx: ServiceContext, id: string, body: FlowUpdate): Promise<Flow | null> {
  await checkChannel(ctx, body.channel_id);
  return ctx.changes.transaction(async (tx, emit) => {
    const updated = await new FlowRepository(tx).update(id, (current) => {
      const patch: FlowPatch = { ...body };
      if (body.source !== undefined || body.parameters !== undefined) {
        patch.enabled = isFlowReady({
          source: body.source === undefined ? current.source : body.source,
          parameters: body.parameters === undefined ? current.parameters : body.parameters,
        });
      }
      return patch;
    });
    // An empty patch changes nothing, so devices need not hear of it.
    if (updated && Object.values(body).some((value) => value !== undefined)) {
      emit({ type: 'flow.changed', flow_id: id });
    }
    return updated;
  });
}

/** False when there is no such flow. Its widgets go with it, so their boards change too. */
export function deleteFlow(ctx: ServiceContext, id: string): Promise<boolean> {
  return ctx.changes.transaction(async (tx, emit) => {
    const gone = await new FlowRepository(tx).delete(id);
    if (!gone) return false;
    for (const boardId of gone.boardIds) {
      emit({ type: 'board.changed', board_id: boardId });
    }
    emit({ type: 'flow.changed', flow_id: id });
    return true;
  });
}

/** Sets or clears the flow's `errored` flag (the error route, a script's run); null for an unknown tag. */
export function setFlowErrored(ctx: ServiceContext, tag: string, errored: boolean): Promise<Flow | null> {
  return ctx.changes.transaction(async (tx, emit) => {
    const updated = await new FlowRepository(tx).setErrored(tag, errored);
    if (updated) emit({ type: 'flow.changed', flow_id: updated.id });
    return updated;
  });
}
