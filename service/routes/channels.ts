import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { channelCreateSchema, channelPatchSchema, channelSchema } from '../../src/shared/channel';
import { idSchema } from '../../src/shared/common';
import { createChannel, deleteChannel, updateChannel } from '../actions/channels';
import type { ServiceContext } from '../context';
import { resourceRoutes } from '../http/resource-routes';
import { withoutPathId } from '../http/strict-requests';
import { ChannelRepository } from '../repositories/channels';

const idParams = z.object({ id: idSchema });

export function channelRoutes(ctx: ServiceContext): FastifyPluginAsyncZod {
  const channels = new ChannelRepository(ctx.db);

  return async (app) => {
    resourceRoutes(app, {
      path: '/channels',
      tag: 'channels',
      noun: 'channel',
      params: idParams,
      item: channelSchema,
      list: {
        summary: 'Lists all channels, oldest first',
        permission: 'read',
        noQuery: true,
        read: () => channels.list(),
      },
      get: {
        summary: 'Returns one channel by id',
        permission: 'read',
        noQuery: true,
        read: (id) => channels.get(id),
      },
      create: {
        summary: 'Creates a virtual channel based on an existing one; the tag defaults to the name',
        permission: 'write',
        body: channelCreateSchema,
        run: (body) => createChannel(ctx, body),
      },
      update: {
        summary: 'Renames a channel or changes its tag',
        permission: 'write',
        body: channelPatchSchema,
        run: (id, body) => updateChannel(ctx, id, withoutPathId(body, id)),
      },
      delete: {
        summary:
          'Deletes a channel with its virtual channels and their notifications; flows, boards and playlist items that used them let go',
        permission: 'delete',
        run: (id) => deleteChannel(ctx, id),
      },
    });
  };
}
