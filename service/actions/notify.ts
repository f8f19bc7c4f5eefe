import type { Notification, NotificationCreate } from '../../src/shared/notification';
import type { ServiceContext } from '../context';
import { conflict, notFound } from '../domain/errors';
import { refuseHttpMedia } from '../domain/http-media';
import { checkMediaExist } from './media';
import { ChannelRepository } from '../repositories/channels';
import { FlowRepository } from '../repositories/flows';
import { NotificationRepository } from '../repositories/notifications';
import { currentVisibility } from '../visibility/scope';
import { byAccount, CoalescedWrites, coalescerPer } from './coalesced-writes';

interface NewNotification {
  channelId: string;
  input: NotificationCreate;
}

/** Notifications created together at most (coalesced-writes.ts). */
const BATCH_LIMIT = 64;

/**
 * The notifications of a batch, in one transaction: the sounds they name checked to exist (a
 * missing one fails the batch, whose notifications are then tried one by one), stored in one
 * statement, each announced to the room of its channel.
 */
const notificationWrites = coalescerPer(
  (ctx: ServiceContext) =>
    new CoalescedWrites<NewNotification, Notification>(
      (batch) =>
        ctx.changes.transaction((tx, emit) =>
          byAccount(batch, async (group) => {
            const asked = group.map((one) => one.item);
            await checkMediaExist(
              tx,
              asked.map(({ input }) => ({ path: 'body.sound_url', url: input.sound_url })),
            );
            const created = await new NotificationRepository(tx).create(asked, ctx.clock.now());
            for (const notification of created) emit({ type: 'notification.created', notification });
            return created;
          }),
        ),
      { limit: BATCH_LIMIT },
    ),
);

/**
 * Stores a notification and announces it to the room of its own channel, in one commit with the
 * notifications created meanwhile: the one path of the notification routes and of scripts. Not
 * found when the channel went away meanwhile.
 */
export function createNotification(
  ctx: ServiceContext,
  channelId: string,
  body: NotificationCreate,
): Promise<Notification> {
  refuseHttpMedia(ctx.config, [{ path: 'body.sound_url', url: body.sound_url }]);
  return notificationWrites(ctx).record({ channelId, input: body });
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
  // channel it does not see is, for it, not there (visibility/scope.ts). The channel itself is not
  // read: a flow's channel is cleared when the channel goes, and the insert refuses one gone since.
  if (!flow || (flow.channel_id !== null && !(await currentVisibility(ctx.db)).channel(flow.channel_id))) {
    throw notFound(`flow ${tag}`);
  }
  if (flow.channel_id === null) throw conflict(`flow ${flow.tag} has no channel to send the notification to`);
  return createNotification(ctx, flow.channel_id, body);
}

/** False when there is no such notification. */
export function deleteNotification(ctx: ServiceContext, id: string): Promise<boolean> {
  return new NotificationRepository(ctx.db).delete(id);
}
