import { sql } from 'kysely';
import type { RealtimeEvent } from '../../src/shared/events';
import type { Queryable } from '../db/database';
import { fromJson, fromTextArray, overlaps, toJson, toTextArray, textLength } from '../db/dialect';

/** An event to log: its type, its payload (the event without type and id) and its rooms. */
export interface EventEntry {
  type: RealtimeEvent['type'];
  payload: object;
  rooms: readonly string[];
}

/**
 * A logged event as replay weighs it before reading it: what it is about (the flow, playlist,
 * board or device its payload names; null for a notification) and its payload's size in bytes.
 */
export interface EventSummary {
  id: number;
  type: RealtimeEvent['type'];
  subject: string | null;
  bytes: number;
}

/** Any number, the same on every node: the key of the lock that orders the events' commits. */
const EVENT_ORDER_LOCK = 5_206_118;

/** Ids per `in (...)` list when events are read by id. */
const ID_CHUNK = 1000;

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
    // On PostgreSQL two writers may draw ids 100 and 101 and commit 101 first: a device that
    // heard 101 and replays from there (on any node) would never get 100, and a node reading the
    // log after 101 (realtime/delivery.ts) would skip it. Events are appended last in their
    // transaction (realtime/changes.ts), so holding this lock from here to the commit makes the
    // transactions that log events commit in the order of their ids, at the cost of their last
    // statement only. SQLite has one writer.
    if (kind === 'postgres')
      await sql`select pg_advisory_xact_lock(${sql.lit(EVENT_ORDER_LOCK)})`.execute(kysely);
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

  /**
   * Every room's events after `afterId`, oldest first, at most `limit`, each with its rooms: what a
   * node pushes to its own sockets (realtime/delivery.ts).
   */
  async after(afterId: number, limit: number): Promise<{ event: RealtimeEvent; rooms: string[] }[]> {
    const rows = await this.db.kysely
      .selectFrom('events')
      .select(['id', 'type', 'payload', 'rooms'])
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((row) => ({
      event: { ...fromJson<object>(row.payload), id: row.id, type: row.type } as RealtimeEvent,
      rooms: fromTextArray(row.rooms),
    }));
  }

  /** The oldest and newest ids logged (null and 0 when there is none), in one query. */
  async bounds(): Promise<{ first: number | null; last: number }> {
    const row = await this.db.kysely
      .selectFrom('events')
      .select((eb) => [eb.fn.min('id').as('first'), eb.fn.max('id').as('last')])
      .executeTakeFirst();
    return { first: row?.first ?? null, last: row?.last ?? 0 };
  }

  /**
   * The events after `afterId` sent to any of `rooms`, oldest first, at most `limit`, as summaries:
   * the store reads the payloads for their subjects and sizes, but none is handed to this process.
   */
  async summariesSince(afterId: number, rooms: readonly string[], limit: number): Promise<EventSummary[]> {
    const field = (key: string) => sql`${sql.ref('payload')} ->> ${sql.lit(key)}`;
    const subject = sql<string | null>`coalesce(${sql.join(
      ['flow_id', 'playlist_id', 'board_id', 'device_tag'].map(field),
    )})`;
    const rows = await this.db.kysely
      .selectFrom('events')
      .select([
        'id',
        'type',
        subject.as('subject'),
        sql<number>`${textLength(this.db.kind, 'payload')}`.as('bytes'),
      ])
      .where('id', '>', afterId)
      .where(overlaps(this.db.kind, 'rooms', rooms))
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((row) => ({
      id: row.id,
      type: row.type as RealtimeEvent['type'],
      subject: row.subject,
      bytes: Number(row.bytes),
    }));
  }

  /** The events of `ids`, oldest first (ids no longer logged are left out). */
  async byIds(ids: readonly number[]): Promise<RealtimeEvent[]> {
    const events: RealtimeEvent[] = [];
    for (let start = 0; start < ids.length; start += ID_CHUNK) {
      const rows = await this.db.kysely
        .selectFrom('events')
        .select(['id', 'type', 'payload'])
        .where('id', 'in', ids.slice(start, start + ID_CHUNK))
        .execute();
      for (const row of rows) {
        events.push({ ...fromJson<object>(row.payload), id: row.id, type: row.type } as RealtimeEvent);
      }
    }
    return events.sort((a, b) => a.id - b.id);
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
