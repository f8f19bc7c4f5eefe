import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idSchema, tagSchema, timestampSchema } from '../../src/shared/common';
import { textSchema } from '../../src/shared/limits';
import {
  notificationCreateSchema,
  notificationSchema,
  type NotificationCreate,
} from '../../src/shared/notification';
import { createNotification } from '../actions/notify';
import type { ServiceContext } from '../context';
import { HttpError } from '../http/errors';
import { ChannelRepository } from '../repositories/channels';
import { FlowRepository } from '../repositories/flows';
import { NotificationRepository } from '../repositories/notifications';

const NOTIFICATION_LIST_DEFAULT = 100;
const NOTIFICATION_LIST_MAX = 500;

const listQuery = z.object({
  limit: z.coerce
    .number()
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(NOTIFICATION_LIST_MAX, `must be at most ${NOTIFICATION_LIST_MAX}`)
    .default(NOTIFICATION_LIST_DEFAULT),
  /** Only notifications created strictly after this instant. */
  since: timestampSchema.optional(),
});
type ListQuery = z.infer<typeof listQuery>;

const created = { 201: notificationSchema };

export function notificationRoutes(ctx: ServiceContext): FastifyPluginAsyncZod {
  const notifications = new NotificationRepository(ctx.db);
  const channels = new ChannelRepository(ctx.db);
  const flows = new FlowRepository(ctx.db);

  const list = (query: ListQuery, channelId?: string) =>
    notifications.list({
      channelId,
      limit: query.limit,
      since: query.since === undefined ? undefined : new Date(query.since),
    });

  const post = async (channelId: string, body: NotificationCreate) => {
    const notification = await createNotification(ctx, channelId, body);
    // Null: the channel went between the lookup and the write.
    if (!notification) throw HttpError.notFound(`channel ${channelId}`);
    return notification;
  };

  return async (app) => {
    app.get(
      '/notifications',
      {
        config: { permission: 'read' },
        schema: {
          tags: ['notifications'],
          summary: 'Lists notifications of every channel, newest first',
          querystring: listQuery,
          response: { 200: z.array(notificationSchema) },
        },
      },
      async (request) => list(request.query),
    );

    app.get(
      '/channels/:id/notifications',
      {
        config: { permission: 'read' },
        schema: {
          tags: ['notifications'],
          summary: 'Lists the notifications of one channel, newest first',
          params: z.object({ id: idSchema }),
          querystring: listQuery,
          response: { 200: z.array(notificationSchema) },
        },
      },
      async (request) => {
        if (!(await channels.get(request.params.id)))
          throw HttpError.notFound(`channel ${request.params.id}`);
        return list(request.query, request.params.id);
      },
    );

    app.post(
      '/channels/:channel_id/notifications',
      {
        config: { permission: 'notifications:write' },
        schema: {
          tags: ['notifications'],
          summary: 'Sends a notification to a channel named by id or by tag',
          params: z.object({ channel_id: textSchema.min(1).max(100) }),
          body: notificationCreateSchema,
          response: created,
        },
      },
      async (request, reply) => {
        const channel = await channels.findByIdOrTag(request.params.channel_id);
        if (!channel) throw HttpError.notFound(`channel ${request.params.channel_id}`);
        return reply.status(201).send(await post(channel.id, request.body));
      },
    );

    app.post(
      '/flows/:tag/notifications',
      {
        config: { permission: 'notifications:write' },
        schema: {
          tags: ['notifications'],
          summary: 'Sends a notification to the channel of the flow with this tag',
          params: z.object({ tag: tagSchema }),
          body: notificationCreateSchema,
          response: created,
        },
      },
      async (request, reply) => {
        const flow = await flows.getByTag(request.params.tag);
        if (!flow) throw HttpError.notFound(`flow ${request.params.tag}`);
        if (flow.channel_id === null) {
          throw HttpError.conflict(`flow ${flow.tag} has no channel to send the notification to`);
        }
        return reply.status(201).send(await post(flow.channel_id, request.body));
      },
    );

    app.delete(
      '/notifications/:id',
      {
        config: { permission: 'delete' },
        schema: {
          tags: ['notifications'],
          summary: 'Deletes a notification',
          params: z.object({ id: idSchema }),
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        if (!(await notifications.delete(request.params.id))) {
          throw HttpError.notFound(`notification ${request.params.id}`);
        }
        return reply.status(204).send(null);
      },
    );
  };
}
