import type { Selectable } from 'kysely';
import type { Notification, NotificationCreate, NotificationTarget } from '../../src/shared/notification';
import type { Queryable } from '../db/database';
import type { NotificationsTable } from '../db/schema';
import { notFound } from '../domain/errors';
import { newId } from '../ids';
import { currentVisibility } from '../visibility/scope';
import { refusing } from './refusals';
import { isoRequired } from './rows';

/** Where a row went: its channel, a group, a screen, or (none of them) every screen. */
function targetOf(row: Selectable<NotificationsTable>): NotificationTarget {
  if (row.channel_id !== null) return { channel_id: row.channel_id };
  if (row.target_group_id !== null) return { group_id: row.target_group_id };
  if (row.target_device_tag !== null) return { device_tag: row.target_device_tag };
  return { all: true };
}

function fromRow(row: Selectable<NotificationsTable>): Notification {
  return {
    id: row.id,
    channel_id: row.channel_id,
    target: targetOf(row),
    title: row.title,
    message: row.message,
    icon: row.icon,
    duration: row.duration,
    sound_url: row.sound_url,
    created_at: isoRequired(row.created_at),
  };
}

/** A notification to store: where it goes (a channel by its id) and what it says. */
export interface NewNotification {
  target: NotificationTarget;
  input: NotificationCreate;
}

export interface NotificationQuery {
  channelId?: string;
  /** Only those created strictly after this instant. */
  since?: Date;
  limit: number;
}

export class NotificationRepository {
  constructor(private readonly db: Queryable) {}

  /**
   * The notifications, in their order, in one statement; not found when a channel is gone (then
   * none is created).
   */
  async create(notifications: readonly NewNotification[], at: Date): Promise<Notification[]> {
    if (notifications.length === 0) return [];
    const rows = notifications.map(({ target, input }) => ({
      id: newId('nt'),
      channel_id: 'channel_id' in target ? target.channel_id : null,
      target_group_id: 'group_id' in target ? target.group_id : null,
      target_device_tag: 'device_tag' in target ? target.device_tag : null,
      title: input.title ?? null,
      message: input.message ?? null,
      // "" is how scripts say "no icon".
      icon: input.icon ? input.icon : null,
      duration: input.duration,
      sound_url: input.sound_url ?? null,
      created_at: at.toISOString(),
    }));
    const insert = this.db.kysely.insertInto('notifications').values(rows).returningAll().execute();
    const channels = [
      ...new Set(notifications.flatMap(({ target }) => ('channel_id' in target ? [target.channel_id] : []))),
    ].join(', ');
    const created = await refusing(insert, { foreignKey: () => notFound(`channel ${channels}`) });
    // The store answers the rows in an order of its own: back in the order asked.
    const byId = new Map(created.map((row) => [row.id, fromRow(row)]));
    return rows.flatMap((row) => byId.get(row.id) ?? []);
  }

  /**
   * Newest first. A device-bound token (visibility/scope.ts) sees those that reach its screen
   * only: of the channels it shows, to every screen, to its group, to itself.
   */
  async list(query: NotificationQuery): Promise<Notification[]> {
    const { channelId, since } = query;
    const visibility = await currentVisibility(this.db);
    const screen = visibility.screen();
    const channelIds = visibility.channelIds() ?? [];
    const rows = await this.db.kysely
      .selectFrom('notifications')
      .selectAll()
      .$if(channelId !== undefined, (q) => q.where('channel_id', '=', channelId as string))
      .$if(screen !== null, (q) =>
        q.where((eb) => {
          const { tag, group } = screen as { tag: string; group: string | null };
          const everyScreen = eb.and([
            eb('channel_id', 'is', null),
            eb('target_group_id', 'is', null),
            eb('target_device_tag', 'is', null),
          ]);
          return eb.or([
            ...(channelIds.length > 0 ? [eb('channel_id', 'in', channelIds)] : []),
            everyScreen,
            eb('target_device_tag', '=', tag),
            ...(group === null ? [] : [eb('target_group_id', '=', group)]),
          ]);
        }),
      )
      .$if(since !== undefined, (q) => q.where('created_at', '>', (since as Date).toISOString()))
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(query.limit)
      .execute();
    return rows.map(fromRow);
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.db.kysely.deleteFrom('notifications').where('id', '=', id).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  /** Keeps the newest `keep` notifications, none created before `before`. */
  async prune(keep: number, before: Date): Promise<void> {
    await this.db.kysely.deleteFrom('notifications').where('created_at', '<', before.toISOString()).execute();
    const cut = await this.db.kysely
      .selectFrom('notifications')
      .select(['created_at', 'id'])
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .offset(keep)
      .limit(1)
      .executeTakeFirst();
    if (!cut) return;
    const at = isoRequired(cut.created_at);
    await this.db.kysely
      .deleteFrom('notifications')
      .where((eb) =>
        eb.or([eb('created_at', '<', at), eb.and([eb('created_at', '=', at), eb('id', '<=', cut.id)])]),
      )
      .execute();
  }
}
