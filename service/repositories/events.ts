import type { RealtimeEvent } from '../../src/shared/events';
import type { Queryable } from '../db/database';
import { fromJson, overlaps, toJson, toTextArray, textLength } from '../db/dialect';

/** An event to log: its type, its payload (the event without type and id) and its rooms. */
export interface EventEntry {
  type: RealtimeEvent['type'];
  payload: object;
  rooms: readonly string[];
}

/** The event log that reconnecting devices replay from. */
export class EventRepository {
  constructor(private readonly db: Queryable) {}

  async append(type: RealtimeEvent['type'], payload: object, rooms: readonly string[]): Promise<number> {
    const [id] = await this.appendAll([{ type, payload, rooms }]);
    return id as number;
  }

  /**
   * Logs the entries in one statement; their ids, in the order of `entries`. The ids of one
   * insert are drawn in the order of its rows, so sorting them gives that order back whatever
   * order the store returns them in.
   */
  async appendAll(entries: readonly EventEntry[]): Promise<number[]> {
    if (entries.length === 0) return [];
    const { kind, kysely } = this.db;
    const rows = await kysely
      .insertInto('events')
      .values(
        entries.map((entry) => ({
          type: entry.type,
          payload: toJson(entry.payload),
          rooms: toTextArray(kind, entry.rooms),
        })),
      )
      .returning('id')
      .execute();
    return rows.map((row) => row.id).sort((a, b) => a - b);
  }

  async lastId(): Promise<number> {
    const row = await this.db.kysely
      .selectFrom('events')
      .select((eb) => eb.fn.max('id').as('id'))
      .executeTakeFirst();
    return row?.id ?? 0;
  }

  async firstId(): Promise<number | null> {
    const row = await this.db.kysely
      .selectFrom('events')
      .select((eb) => eb.fn.min('id').as('id'))
      .executeTakeFirst();
    return row?.id ?? null;
  }

  /** Events after `afterId` sent to any of `rooms`, oldest first, at most `limit`. */
  async since(afterId: number, rooms: readonly string[], limit: number): Promise<RealtimeEvent[]> {
    const rows = await this.db.kysely
      .selectFrom('events')
      .select(['id', 'type', 'payload'])
      .where('id', '>', afterId)
      .where(overlaps(this.db.kind, 'rooms', rooms))
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map(
      (row) => ({ ...fromJson<object>(row.payload), id: row.id, type: row.type }) as RealtimeEvent,
    );
  }

  /** Keeps the newest `keep` events, and of those only as many as fit in `bytes` of payload. */
  async prune(keep: number, bytes: number): Promise<void> {
    const last = await this.lastId();
    await this.db.kysely
      .deleteFrom('events')
      .where('id', '<=', last - keep)
      .execute();
    // The newest event past the size: it and everything older go.
    const running = this.db.kysely.selectFrom('events').select((eb) => [
      'id',
      eb.fn
        .sum<number>(textLength(this.db.kind, 'payload'))
        .over((over) => over.orderBy('id', 'desc'))
        .as('total'),
    ]);
    const cut = await this.db.kysely
      .selectFrom(running.as('running'))
      .select('id')
      .where('total', '>', bytes)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (cut) await this.db.kysely.deleteFrom('events').where('id', '<=', cut.id).execute();
  }
}
