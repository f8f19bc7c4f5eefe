import type { RealtimeEvent } from '../../src/shared/events';
import type { Queryable } from '../db/database';
import { one } from './rows';

interface EventRow {
  id: number | string;
  type: RealtimeEvent['type'];
  payload: Record<string, unknown>;
}

function fromRow(row: EventRow): RealtimeEvent {
  return { ...row.payload, id: Number(row.id), type: row.type } as RealtimeEvent;
}

/** The event log that reconnecting devices replay from. */
export class EventRepository {
  constructor(private readonly db: Queryable) {}

  async append(type: RealtimeEvent['type'], payload: object, rooms: readonly string[]): Promise<number> {
    const rows = await this.db.query<{ id: number | string }>(
      'insert into events (type, payload, rooms) values ($1, $2::jsonb, $3) returning id',
      [type, JSON.stringify(payload), rooms],
    );
    return Number(one(rows).id);
  }

  async lastId(): Promise<number> {
    const rows = await this.db.query<{ id: number | string | null }>('select max(id) as id from events');
    return Number(rows[0]?.id ?? 0);
  }

  async firstId(): Promise<number | null> {
    const rows = await this.db.query<{ id: number | string | null }>('select min(id) as id from events');
    return rows[0]?.id === null || rows[0]?.id === undefined ? null : Number(rows[0].id);
  }

  /** Events after `afterId` sent to any of `rooms`, oldest first, at most `limit`. */
  async since(afterId: number, rooms: readonly string[], limit: number): Promise<RealtimeEvent[]> {
    const rows = await this.db.query<EventRow>(
      'select id, type, payload from events where id > $1 and rooms && $2 order by id limit $3',
      [afterId, rooms, limit],
    );
    return rows.map(fromRow);
  }

  /** Keeps the newest `keep` events. */
  async prune(keep: number): Promise<void> {
    await this.db.query('delete from events where id <= (select max(id) from events) - $1', [keep]);
  }
}
