import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { channelCreateSchema, channelPatchSchema, channelSchema } from '../../src/shared/channel';
import { idSchema } from '../../src/shared/common';
import { createChannel, deleteChannel, updateChannel } from '../actions/channels';
import type { ServiceContext } from '../context';
import { notFound } from '../domain/errors';
import { visibilityOf } from '../http/device-scope';
import { noQuery, withoutPathId } from '../http/strict-requests';
import { ChannelRepository } from '../repositories/channels';

const idParams = z.object({ id: idSchema });

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
          querystring: noQuery,
          response: { 200: z.array(channelSchema) },
        },
      },
      async (request) => {
        const visible = await visibilityOf(ctx.db, request);
        return (await channels.list()).filter((channel) => visible.channel(channel.id));
      },
    );

    app.get(
      '/channels/:id',
      {
        config: { permission: 'read' },
        schema: {
          tags: ['channels'],
          summary: 'Returns one channel by id',
          params: idParams,
          querystring: noQuery,
          response: { 200: channelSchema },
        },
      },
      async (request) => {
        const visible = await visibilityOf(ctx.db, request);
        const channel = visible.channel(request.params.id) ? await channels.get(request.params.id) : null;
        if (!channel) throw notFound(`channel ${request.params.id}`);
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
      async (request, reply) => reply.status(201).send(await createChannel(ctx, request.body)),
    );

    app.patch(
      '/channels/:id',
      {
        config: { permission: 'write' },
        schema: {
          tags: ['channels'],
          summary: 'Renames a channel or changes its tag',
          params: idParams,
          body: channelPatchSchema,
          response: { 200: channelSchema },
        },
      },
      async (request) => {
        const patch = withoutPathId(request.body, request.params.id);
        const channel = await updateChannel(ctx, request.params.id, patch);
        if (!channel) throw notFound(`channel ${request.params.id}`);
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
        if (!(await deleteChannel(ctx, request.params.id))) throw notFound(`channel ${request.params.id}`);
        return reply.status(204).send(null);
      },
    );
  };
}
