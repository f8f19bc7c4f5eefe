import type { Notification, NotificationCreate } from '../../src/shared/notification';
import type { Queryable } from '../db/database';
import { newId } from '../ids';
import { isoRequired, one } from './rows';

interface NotificationRow extends Omit<Notification, 'created_at'> {
  created_at: Date;
}

const COLUMNS = 'id, channel_id, title, message, icon, duration, sound_url, created_at';

function fromRow(row: NotificationRow): Notification {
  return {
    id: row.id,
    channel_id: row.channel_id,
    title: row.title,
    message: row.message,
    icon: row.icon,
    duration: row.duration,
    sound_url: row.sound_url,
    created_at: isoRequired(row.created_at),
  };
}

export interface NotificationQuery {
  channelId?: string;
  /** Only those created strictly after this instant. */
  since?: Date;
  limit: number;
}

export class NotificationRepository {
  constructor(private readonly db: Queryable) {}

  async create(channelId: string, input: NotificationCreate, at: Date): Promise<Notification> {
    const rows = await this.db.query<NotificationRow>(
      `insert into notifications (id, channel_id, title, message, icon, duration, sound_url, created_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8) returning ${COLUMNS}`,
      [
        newId('nt'),
        channelId,
        input.title ?? null,
        input.message ?? null,
        // "" is how scripts say "no icon".
        input.icon ? input.icon : null,
        input.duration,
        input.sound_url ?? null,
        at,
      ],
    );
    return fromRow(one(rows));
  }

  /** Newest first. */
  async list(query: NotificationQuery): Promise<Notification[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (query.channelId !== undefined) {
      params.push(query.channelId);
      where.push(`channel_id = $${params.length}`);
    }
    if (query.since !== undefined) {
      params.push(query.since);
      where.push(`created_at > $${params.length}`);
    }
    params.push(query.limit);
    const rows = await this.db.query<NotificationRow>(
      `select ${COLUMNS} from notifications ${where.length ? `where ${where.join(' and ')}` : ''}
       order by created_at desc, id desc limit $${params.length}`,
      params,
    );
    return rows.map(fromRow);
  }

  async delete(id: string): Promise<boolean> {
    return (await this.db.query('delete from notifications where id = $1 returning id', [id])).length > 0;
  }
}
