import type {
  Notification,
  NotificationCreate,
  NotificationTarget,
  TargetedNotificationCreate,
} from '../../src/shared/notification';
import type { ServiceContext } from '../context';
import { conflict, invalid, notFound } from '../domain/errors';
import { refuseHttpMedia } from '../domain/http-media';
import { mediaRefusals } from './media';
import { ChannelRepository } from '../repositories/channels';
import { DeviceRepository } from '../repositories/devices';
import { FlowRepository } from '../repositories/flows';
import { GroupRepository } from '../repositories/groups';
import { NotificationRepository, type NewNotification } from '../repositories/notifications';
import { currentVisibility } from '../visibility/scope';
import { byAccount, byActor, CoalescedWrites, coalescerPer, Refused } from './coalesced-writes';

/** Notifications created together at most (coalesced-writes.ts). */
const BATCH_LIMIT = 64;

/**
 * The notifications of a batch, in one transaction: the sounds they name checked to exist (one
 * naming a missing one is refused alone), the others stored in one statement per caller, each
 * announced to the room of its target (realtime/changes.ts: its channel's, its group's, its
 * screen's, or every screen's of the account).
 */
const notificationWrites = coalescerPer(
  (ctx: ServiceContext) =>
    new CoalescedWrites<NewNotification, Notification>(
      (batch) =>
        ctx.changes.transaction((tx, emit) =>
          byAccount(batch, async (group) => {
            const refusals = await mediaRefusals(
              tx,
              group.map(({ item }) => [{ path: 'body.sound_url', url: item.input.sound_url }]),
            );
            const accepted = group.filter((_, index) => !refusals[index]);
            // One insert per caller's actor, so that the audit trail names each.
            const created = await byActor(tx, accepted, (same) =>
              new NotificationRepository(tx).create(
                same.map((one) => one.item),
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
function record(
  ctx: ServiceContext,
  target: NotificationTarget,
  body: NotificationCreate,
): Promise<Notification> {
  refuseHttpMedia(ctx.config, [{ path: 'body.sound_url', url: body.sound_url }]);
  return notificationWrites(ctx).record({ target, input: body });
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
