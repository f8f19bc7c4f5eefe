import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idSchema, tagSchema, timestampSchema } from '../../src/shared/common';
import { textSchema } from '../../src/shared/limits';
import {
  notificationCreateSchema,
  notificationSchema,
  targetedNotificationCreateSchema,
} from '../../src/shared/notification';
import { deleteNotification, notifyChannel, notifyFlowChannel, notifyTarget } from '../actions/notify';
import type { ServiceContext } from '../context';
import { notFound } from '../domain/errors';
import { refuseDeviceBound } from '../http/device-scope';
import { ChannelRepository } from '../repositories/channels';
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

  const list = (query: ListQuery, channelId?: string) =>
    notifications.list({
      channelId,
      limit: query.limit,
      since: query.since === undefined ? undefined : new Date(query.since),
    });

  return async (app) => {
    app.get(
      '/notifications',
      {
        config: { permission: 'read' },
        schema: {
          tags: ['notifications'],
          summary: 'Lists every notification (to channels and to screens) with its target, newest first',
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
        if (!(await channels.get(request.params.id))) {
          throw notFound(`channel ${request.params.id}`);
        }
        return list(request.query, request.params.id);
      },
    );

    app.post(
      '/notifications',
      {
        config: { permission: 'notifications:write' },
        schema: {
          tags: ['notifications'],
          summary: 'Sends a notification to every screen, a group of screens, one screen or a channel',
          body: targetedNotificationCreateSchema,
          response: created,
        },
      },
      async (request, reply) => {
        // A screen's own token speaks for its screen: it may reach itself, its group or a channel
        // it shows (what it sees, visibility/scope.ts), never the whole fleet.
        if ('all' in request.body.target) refuseDeviceBound(request, 'send a notification to every screen');
        return reply.status(201).send(await notifyTarget(ctx, request.body));
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
        return reply.status(201).send(await notifyChannel(ctx, request.params.channel_id, request.body));
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
        return reply.status(201).send(await notifyFlowChannel(ctx, request.params.tag, request.body));
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
        if (!(await deleteNotification(ctx, request.params.id))) {
          throw notFound(`notification ${request.params.id}`);
        }
        return reply.status(204).send(null);
      },
    );
  };
}
