import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idSchema } from '../../src/shared/common';
import {
  flowCreateSchema,
  flowSchema,
  flowUpdateSchema,
  isFlowReady,
  type FlowUpdate,
} from '../../src/shared/flow';
import { DEFAULT_CHANNEL_ID } from '../bootstrap';
import type { ServiceContext } from '../context';
import { isForeignKeyViolation, isUniqueViolation } from '../db/constraint-errors';
import { HttpError } from '../http/errors';
import { ChannelRepository } from '../repositories/channels';
import { FlowRepository, type FlowPatch } from '../repositories/flows';
import { rooms } from '../realtime/rooms';

const idParams = z.object({ id: idSchema });

const tagTaken = (tag: string) => HttpError.conflict(`a flow with tag "${tag}" already exists`);

const unknownChannel = (id: string) =>
  HttpError.badRequest(`channel ${id} does not exist`, [
    { path: 'body.channel_id', message: `no channel has the id "${id}"` },
  ]);

/** Turns the database's refusals of a flow write into answers. */
function asHttpError(error: unknown, tag: string | undefined, channelId: string | null | undefined): unknown {
  if (isUniqueViolation(error) && tag !== undefined) return tagTaken(tag);
  // The channel went between our check and the write.
  if (isForeignKeyViolation(error) && channelId) return unknownChannel(channelId);
  return error;
}

export function flowRoutes(ctx: ServiceContext): FastifyPluginAsyncZod {
  const flows = new FlowRepository(ctx.db);
  const channels = new ChannelRepository(ctx.db);

  const checkChannel = async (channelId: string | null | undefined) => {
    if (channelId && !(await channels.exists(channelId))) throw unknownChannel(channelId);
  };

  return async (app) => {
    app.get(
      '/flows',
      {
        config: { permission: 'read' },
        schema: {
          tags: ['flows'],
          summary: 'Lists all flows, oldest first',
          response: { 200: z.array(flowSchema) },
        },
      },
      async () => flows.list(),
    );

    app.get(
      '/flows/:id',
      {
        config: { permission: 'read' },
        schema: {
          tags: ['flows'],
          summary: 'Returns one flow by id (its metrics are at /flows/:tag/metrics)',
          params: idParams,
          response: { 200: flowSchema },
        },
      },
      async (request) => {
        const flow = await flows.get(request.params.id);
        if (!flow) throw HttpError.notFound(`flow ${request.params.id}`);
        return flow;
      },
    );

    app.post(
      '/flows',
      {
        config: { permission: 'write' },
        schema: {
          tags: ['flows'],
          summary: 'Creates a flow, in the default channel unless told; enabled when ready',
          body: flowCreateSchema,
          response: { 201: flowSchema },
        },
      },
      async (request, reply) => {
        const { channel_id, source = null, parameters = null, ...rest } = request.body;
        const channelId = channel_id === undefined ? DEFAULT_CHANNEL_ID : channel_id;
        await checkChannel(channelId);
        try {
          const flow = await flows.create({
            ...rest,
            channel_id: channelId,
            source,
            parameters,
            enabled: isFlowReady({ source, parameters }),
            created_at: ctx.clock.now(),
          });
          return reply.status(201).send(flow);
        } catch (error) {
          throw asHttpError(error, rest.tag, channelId);
        }
      },
    );

    app.patch(
      '/flows/:id',
      {
        config: { permission: 'write' },
        schema: {
          tags: ['flows'],
          summary: 'Updates a flow; a new source or parameters decide `enabled` again',
          params: idParams,
          body: flowUpdateSchema,
          response: { 200: flowSchema },
        },
      },
      async (request) => {
        const { id } = request.params;
        const body: FlowUpdate = request.body;
        await checkChannel(body.channel_id);
        let flow;
        try {
          flow = await ctx.events.transaction(async (tx, emit) => {
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
              emit({ type: 'flow.changed', flow_id: id }, [rooms.flow(id)]);
            }
            return updated;
          });
        } catch (error) {
          throw asHttpError(error, body.tag, body.channel_id);
        }
        if (!flow) throw HttpError.notFound(`flow ${id}`);
        return flow;
      },
    );

    app.delete(
      '/flows/:id',
      {
        config: { permission: 'delete' },
        schema: {
          tags: ['flows'],
          summary: 'Deletes a flow and the widgets that show it',
          params: idParams,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        const deleted = await ctx.events.transaction(async (tx, emit) => {
          const gone = await new FlowRepository(tx).delete(id);
          if (!gone) return false;
          for (const boardId of gone.boardIds) {
            emit({ type: 'board.changed', board_id: boardId }, [rooms.board(boardId)]);
          }
          emit({ type: 'flow.changed', flow_id: id }, [rooms.flow(id)]);
          return true;
        });
        if (!deleted) throw HttpError.notFound(`flow ${id}`);
        return reply.status(204).send(null);
      },
    );
  };
}
