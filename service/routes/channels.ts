import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { channelCreateSchema, channelSchema, channelUpdateSchema } from '../../src/shared/channel';
import { idSchema } from '../../src/shared/common';
import { DEFAULT_CHANNEL_ID } from '../bootstrap';
import type { ServiceContext } from '../context';
import { isForeignKeyViolation, isUniqueViolation } from '../db/constraint-errors';
import { HttpError } from '../http/errors';
import { ChannelRepository, slugOf } from '../repositories/channels';
import { rooms } from '../realtime/rooms';

const idParams = z.object({ id: idSchema });

const tagTaken = (tag: string) => HttpError.conflict(`a channel with tag "${tag}" already exists`);

const unknownParent = (id: string) =>
  HttpError.badRequest(`channel ${id} does not exist`, [
    { path: 'body.parent_channel_id', message: `no channel has the id "${id}"` },
  ]);

/** Two creations may pick the same free tag at once; the loser picks again. */
const TAG_ATTEMPTS = 5;

export function channelRoutes(ctx: ServiceContext): FastifyPluginAsyncZod {
  const channels = new ChannelRepository(ctx.db);

  return async (app) => {
    app.get(
      '/channels',
      {
        config: { permission: 'read' },
        schema: {
          tags: ['channels'],
          summary: 'Lists all channels, oldest first',
          response: { 200: z.array(channelSchema) },
        },
      },
      async () => channels.list(),
    );

    app.get(
      '/channels/:id',
      {
        config: { permission: 'read' },
        schema: {
          tags: ['channels'],
          summary: 'Returns one channel by id',
          params: idParams,
          response: { 200: channelSchema },
        },
      },
      async (request) => {
        const channel = await channels.get(request.params.id);
        if (!channel) throw HttpError.notFound(`channel ${request.params.id}`);
        return channel;
      },
    );

    app.post(
      '/channels',
      {
        config: { permission: 'write' },
        schema: {
          tags: ['channels'],
          summary: 'Creates a virtual channel based on an existing one; the tag defaults to the name',
          body: channelCreateSchema,
          response: { 201: channelSchema },
        },
      },
      async (request, reply) => {
        const { name, parent_channel_id, tag } = request.body;
        if (!(await channels.exists(parent_channel_id))) throw unknownParent(parent_channel_id);
        const slug = slugOf(name);
        for (let attempt = 1; ; attempt++) {
          const chosen = tag ?? (await channels.freeTag(slug));
          try {
            const channel = await channels.createVirtual({
              name,
              tag: chosen,
              parent_channel_id,
              created_at: ctx.clock.now(),
            });
            return reply.status(201).send(channel);
          } catch (error) {
            if (isForeignKeyViolation(error)) throw unknownParent(parent_channel_id);
            if (!isUniqueViolation(error)) throw error;
            if (tag !== undefined || attempt >= TAG_ATTEMPTS) throw tagTaken(chosen);
          }
        }
      },
    );

    app.patch(
      '/channels/:id',
      {
        config: { permission: 'write' },
        schema: {
          tags: ['channels'],
          summary: 'Renames a channel or changes its tag',
          params: idParams,
          body: channelUpdateSchema,
          response: { 200: channelSchema },
        },
      },
      async (request) => {
        let channel;
        try {
          channel = await channels.update(request.params.id, request.body);
        } catch (error) {
          if (isUniqueViolation(error) && request.body.tag !== undefined) {
            throw tagTaken(request.body.tag);
          }
          throw error;
        }
        if (!channel) throw HttpError.notFound(`channel ${request.params.id}`);
        return channel;
      },
    );

    app.delete(
      '/channels/:id',
      {
        config: { permission: 'delete' },
        schema: {
          tags: ['channels'],
          summary:
            'Deletes a channel with its virtual channels and their notifications; flows, boards and playlist items that used them let go',
          params: idParams,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        if (id === DEFAULT_CHANNEL_ID) throw HttpError.conflict('the default channel cannot be deleted');
        const deleted = await ctx.events.transaction(async (tx, emit) => {
          const changed = await new ChannelRepository(tx).delete(id);
          for (const flowId of changed?.flowIds ?? []) {
            emit({ type: 'flow.changed', flow_id: flowId }, [rooms.flow(flowId)]);
          }
          for (const boardId of changed?.boardIds ?? []) {
            emit({ type: 'board.changed', board_id: boardId }, [rooms.board(boardId)]);
          }
          for (const playlistId of changed?.playlistIds ?? []) {
            emit({ type: 'playlist.changed', playlist_id: playlistId }, [rooms.playlist(playlistId)]);
          }
          return changed;
        });
        if (!deleted) throw HttpError.notFound(`channel ${id}`);
        return reply.status(204).send(null);
      },
    );
  };
}
