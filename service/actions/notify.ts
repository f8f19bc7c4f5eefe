import type { Notification, NotificationCreate } from '../../src/shared/notification';
import type { ServiceContext } from '../context';
import { PG_FOREIGN_KEY_VIOLATION, pgErrorCode } from '../db/database';
import { rooms } from '../realtime/rooms';
import { NotificationRepository } from '../repositories/notifications';

/**
 * Stores a notification and announces it to the room of its own channel: the one path of the
 * notification routes and of scripts. Null when the channel went away meanwhile.
 */
export async function createNotification(
  ctx: ServiceContext,
  channelId: string,
  body: NotificationCreate,
): Promise<Notification | null> {
  let notification: Notification;
  try {
    notification = await new NotificationRepository(ctx.db).create(channelId, body, ctx.clock.now());
  } catch (error) {
    if (pgErrorCode(error) === PG_FOREIGN_KEY_VIOLATION) return null;
    throw error;
  }
  await ctx.events.publish({ type: 'notification.created', notification }, [rooms.channel(channelId)]);
  return notification;
}
