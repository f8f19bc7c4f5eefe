import type {
  Notification,
  NotificationCreate,
  NotificationTarget,
  TargetedNotificationCreate,
} from '../../src/shared/notification';
import type { ServiceContext } from '../context';
import type { Queryable } from '../db/database';
import { conflict, DomainError, invalid, notFound } from '../domain/errors';
import { refuseHttpMedia } from '../domain/http-media';
import { mediaRefusals } from './media';
import { ChannelRepository } from '../repositories/channels';
import { DeviceRepository } from '../repositories/devices';
import { FlowRepository } from '../repositories/flows';
import { GroupRepository } from '../repositories/groups';
import { NotificationRepository, type NewNotification } from '../repositories/notifications';
import { currentVisibility, type Visibility } from '../visibility/scope';
import { byAccount, byActor, CoalescedWrites, coalescerPer, Refused } from './coalesced-writes';

/** Notifications created together at most (coalesced-writes.ts). */
const BATCH_LIMIT = 64;

/**
 * A notification asked for: to a target, or to the channel of a flow named by its tag, as the
 * caller's token sees it, which its batch reads with the others'.
 */
interface Asked {
  to: NotificationTarget | { flowTag: string; visibility: Visibility };
  input: NotificationCreate;
}

/**
 * What each of `asked` is to store, or why it is refused: the flows named read in one statement
 * (the caller's account's, as the batch runs as that account). A flow the caller's token does not
 * see, or whose channel it does not see, is not there for it (visibility/scope.ts); a flow's
 * channel is cleared when the channel goes, and the insert refuses one gone since.
 */
async function resolved(tx: Queryable, asked: readonly Asked[]): Promise<(NewNotification | DomainError)[]> {
  const tags = asked.flatMap(({ to }) => ('flowTag' in to ? [to.flowTag] : []));
  const channels = tags.length > 0 ? await new FlowRepository(tx).channelsOf(tags) : new Map();
  return asked.map(({ to, input }) => {
    if (!('flowTag' in to)) return { target: to, input };
    const { flowTag, visibility } = to;
    const channel = channels.get(flowTag);
    if (
      channel === undefined ||
      !visibility.flowTag(flowTag) ||
      (channel !== null && !visibility.channel(channel))
    ) {
      return notFound(`flow ${flowTag}`);
    }
    if (channel === null) return conflict(`flow ${flowTag} has no channel to send the notification to`);
    return { target: { channel_id: channel }, input };
  });
}

/**
 * The notifications of a batch, in one transaction: the flows and the sounds they name read once
 * for all (one naming a flow or a sound that is not there is refused alone), the others stored in
 * one statement per caller, each announced to the room of its target (realtime/changes.ts: its
 * channel's, its group's, its screen's, or every screen's of the account).
 */
const notificationWrites = coalescerPer(
  (ctx: ServiceContext) =>
    new CoalescedWrites<Asked, Notification>(
      (batch) =>
        ctx.changes.transaction((tx, emit) =>
          byAccount(batch, async (group) => {
            const notifications = await resolved(
              tx,
              group.map(({ item }) => item),
            );
            const sounds = await mediaRefusals(
              tx,
              notifications.map((one) =>
                one instanceof DomainError ? [] : [{ path: 'body.sound_url', url: one.input.sound_url }],
              ),
            );
            const refusals = notifications.map((one, index) =>
              one instanceof DomainError ? one : sounds[index],
            );
            const stored = new Map(group.map((one, index) => [one, notifications[index] as NewNotification]));
            // One insert per caller's actor, so that the audit trail names each.
            const created = await byActor(
              tx,
              group.filter((_, index) => !refusals[index]),
              (same) =>
                new NotificationRepository(tx).create(
                  same.map((one) => stored.get(one) as NewNotification),
                  ctx.clock.now(),
                ),
            );
            for (const notification of created) emit({ type: 'notification.created', notification });
            let next = 0;
            return refusals.map((refusal) =>
              refusal ? new Refused(refusal) : (created[next++] as Notification),
            );
          }),
        ),
      { limit: BATCH_LIMIT },
    ),
);

/**
 * Stores a notification and announces it to the room of its target, in one commit with the
 * notifications created meanwhile: the one path of the notification routes and of scripts.
 */
function record(ctx: ServiceContext, to: Asked['to'], body: NotificationCreate): Promise<Notification> {
  refuseHttpMedia(ctx.config, [{ path: 'body.sound_url', url: body.sound_url }]);
  return notificationWrites(ctx).record({ to, input: body });
}

/** To the channel with this id. Not found when the channel went away meanwhile. */
export function createNotification(
  ctx: ServiceContext,
  channelId: string,
  body: NotificationCreate,
): Promise<Notification> {
  return record(ctx, { channel_id: channelId }, body);
}

/**
 * Where `target` names, as stored: a channel by its id. What it names must be there, for this
 * account and what a device-bound token sees (the repositories' lookups filter both); anything
 * else is a 400 naming the field, as another account's group is not there for this one.
 */
async function targetOf(
  ctx: ServiceContext,
  target: TargetedNotificationCreate['target'],
): Promise<NotificationTarget> {
  const missing = (field: string, thing: string, named: string) =>
    invalid(`${thing} ${named} does not exist`, [
      { path: `body.target.${field}`, message: `must name an existing ${thing}` },
    ]);
  if ('channel_id' in target) {
    const channel = await new ChannelRepository(ctx.db).findByIdOrTag(target.channel_id);
    if (!channel) throw missing('channel_id', 'channel', target.channel_id);
    return { channel_id: channel.id };
  }
  if ('group_id' in target && !(await new GroupRepository(ctx.db).find(target.group_id))) {
    throw missing('group_id', 'group', target.group_id);
  }
  if ('device_tag' in target && !(await new DeviceRepository(ctx.db).findByTag(target.device_tag))) {
    throw missing('device_tag', 'screen', target.device_tag);
  }
  return target;
}

/**
 * `POST /notifications`: to a channel, every screen, a group's screens or one screen. The screens
 * are those in the target's room when it is delivered (realtime/subscriptions.ts): a group's
 * members then, every screen of the account for `all`.
 */
export async function notifyTarget(
  ctx: ServiceContext,
  { target, ...body }: TargetedNotificationCreate,
): Promise<Notification> {
  return record(ctx, await targetOf(ctx, target), body);
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

/** To the channel of the flow with this tag, read with the others of its batch. */
export async function notifyFlowChannel(
  ctx: ServiceContext,
  tag: string,
  body: NotificationCreate,
): Promise<Notification> {
  return record(ctx, { flowTag: tag, visibility: await currentVisibility(ctx.db) }, body);
}

/** False when there is no such notification. */
export function deleteNotification(ctx: ServiceContext, id: string): Promise<boolean> {
  return new NotificationRepository(ctx.db).delete(id);
}
