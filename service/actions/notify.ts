import type { Notification, NotificationCreate } from '../../src/shared/notification';
import type { ServiceContext } from '../context';
import { isForeignKeyViolation } from '../db/constraint-errors';
import { rooms } from '../realtime/rooms';
import { NotificationRepository } from '../repositories/notifications';

/**
 * Stores a notification and announces it to the room of its own channel, in one commit: the one
 * path of the notification routes and of scripts. Null when the channel went away meanwhile.
 */
export async function createNotification(
  ctx: ServiceContext,
  channelId: string,
  body: NotificationCreate,
): Promise<Notification | null> {
  try {
    return await ctx.events.transaction(async (tx, emit) => {
      const notification = await new NotificationRepository(tx).create(channelId, body, ctx.clock.now());
      emit({ type: 'notification.created', notification }, [rooms.channel(channelId)]);
      return notification;
    });
  } catch (error) {
    if (isForeignKeyViolation(error)) return null;
    throw error;
  }
}
