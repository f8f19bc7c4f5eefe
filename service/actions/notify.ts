import type { Notification, NotificationCreate } from '../../src/shared/notification';
import type { ServiceContext } from '../context';
import { conflict, notFound } from '../domain/errors';
import { refuseHttpMedia } from '../domain/http-media';
import { checkMediaExist } from './media';
import { ChannelRepository } from '../repositories/channels';
import { FlowRepository } from '../repositories/flows';
import { NotificationRepository } from '../repositories/notifications';

/**
 * Stores a notification and announces it to the room of its own channel, in one commit: the one
 * path of the notification routes and of scripts. Not found when the channel went away meanwhile.
 */
export function createNotification(
  ctx: ServiceContext,
  channelId: string,
  body: NotificationCreate,
): Promise<Notification> {
  refuseHttpMedia(ctx.config, [{ path: 'body.sound_url', url: body.sound_url }]);
  return ctx.changes.transaction(async (tx, emit) => {
    await checkMediaExist(tx, [{ path: 'body.sound_url', url: body.sound_url }]);
    const notification = await new NotificationRepository(tx).create(channelId, body, ctx.clock.now());
    emit({ type: 'notification.created', notification });
    return notification;
  });
}

/** To a channel named by id or by tag. */
export async function notifyChannel(
  ctx: ServiceContext,
  idOrTag: string,
  body: NotificationCreate,
): Promise<Notification> {
  const channel = await new ChannelRepository(ctx.db).findByIdOrTag(idOrTag);
  if (!channel) throw notFound(`channel ${idOrTag}`);
  return createNotification(ctx, channel.id, body);
}

/** To the channel of the flow with this tag. */
export async function notifyFlowChannel(
  ctx: ServiceContext,
  tag: string,
  body: NotificationCreate,
): Promise<Notification> {
  const flow = await new FlowRepository(ctx.db).getByTag(tag);
  // A screen's token notifies through the flows it shows, into the channels it shows: a flow whose
  // channel it does not see is, for it, not there (visibility/scope.ts).
  if (!flow || (flow.channel_id !== null && !(await new ChannelRepository(ctx.db).get(flow.channel_id)))) {
    throw notFound(`flow ${tag}`);
  }
  if (flow.channel_id === null) throw conflict(`flow ${flow.tag} has no channel to send the notification to`);
  return createNotification(ctx, flow.channel_id, body);
}

/** False when there is no such notification. */
export function deleteNotification(ctx: ServiceContext, id: string): Promise<boolean> {
  return new NotificationRepository(ctx.db).delete(id);
}
