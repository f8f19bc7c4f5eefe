import { sql } from 'kysely';
import { acrossAccounts } from '../accounts/scope';
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

/**
 * Events read for pushing to sockets, and what the read's snapshot says of the holes between
 * their ids (EventRepository.after).
 */
export interface LogRead {
  events: { event: RealtimeEvent; rooms: string[] }[];
  /** Null when no writing transaction was in flight; else a mark to settle (EventRepository.settle). */
  inFlight: string | null;
  /** Whether the mark read with was settled already. */
  passed: boolean;
}

/** The oldest transaction still in flight, and the next to start, at the statement's snapshot. */
const SNAPSHOT_XMIN = sql`pg_snapshot_xmin(pg_current_snapshot())`;
const SNAPSHOT_XMAX = sql`pg_snapshot_xmax(pg_current_snapshot())`;

/** A mark (a transaction id PostgreSQL gave as text) back into SQL. */
function xid(mark: string) {
  if (!/^\d+$/.test(mark)) throw new Error(`not a transaction id: ${mark}`);
  return sql`${mark}::xid8`;
}

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
    // On PostgreSQL two writers may draw ids 100 and 101 and commit 101 first. Readers do not pass
    // a hole in the ids while a transaction that may fill it is in flight (`after`, `settle`),
    // which they can only tell if the writer shows in their snapshots from before its first id
    // is drawn: so its transaction id is assigned first (an insert assigns it only after drawing
    // the row's id). SQLite has one writer.
    if (kind === 'postgres') await sql`select pg_current_xact_id()`.execute(kysely);
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
   * Every room's events after `afterId`, oldest first, at most `limit`, each with its rooms (what
   * a node pushes to its own sockets, realtime/delivery.ts), and what the same snapshot says of
   * the holes between their ids: `inFlight` is null when no writing transaction was in flight, so
   * every hole is for good; otherwise it is a mark to pass to `settle`, after which every hole
   * below the newest id read here is for good. `passed` says whether `mark` (an earlier read's
   * `inFlight`) was settled already at this read.
   */
  async after(afterId: number, limit: number, mark: string | null = null): Promise<LogRead> {
    const { kind, kysely } = this.db;
    const rows = await kysely
      .selectFrom('events')
      .select(['id', 'type', 'payload', 'rooms'])
      .$if(kind === 'postgres', (query) =>
        query.select([
          sql<
            string | null
          >`case when ${SNAPSHOT_XMIN} < ${SNAPSHOT_XMAX} then ${SNAPSHOT_XMAX}::text end`.as('in_flight'),
          sql<boolean>`${mark === null ? sql`false` : sql`${SNAPSHOT_XMIN} >= ${xid(mark)}`}`.as('passed'),
        ]),
      )
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(limit)
      .execute();
    const first = rows[0] as { in_flight?: string | null; passed?: boolean } | undefined;
    return {
      events: rows.map((row) => ({
        event: { ...fromJson<object>(row.payload), id: row.id, type: row.type } as RealtimeEvent,
        rooms: fromTextArray(row.rooms),
      })),
      inFlight: first?.in_flight ?? null,
      passed: mark === null || first?.passed === true,
    };
  }

  /**
   * Waits (at most about a second) for every transaction in flight at the read that gave `mark`
   * to end; whether they all have. The store does the waiting, which needs no timer of this
   * process: it sleeps a millisecond at a time until its oldest transaction in flight is newer.
   */
  async settle(mark: string): Promise<boolean> {
    const until = xid(mark);
    // A DO block takes no parameters; `xid` checked that the mark is digits only.
    await sql`do ${sql.lit(`begin
      for i in 1..1000 loop
        exit when pg_snapshot_xmin(pg_current_snapshot()) >= '${mark}'::xid8;
        perform pg_sleep(0.001);
      end loop;
    end`)}`.execute(this.db.kysely);
    const row = await sql<{ passed: boolean }>`select ${SNAPSHOT_XMIN} >= ${until} as passed`.execute(
      this.db.kysely,
    );
    return row.rows[0]?.passed === true;
  }

  /**
   * The newest id below which no hole will ever fill (every id up to it committed or for good
   * gone): where a node starts pushing (realtime/delivery.ts). On PostgreSQL the newest id logged,
   * once every transaction in flight when it was read has ended, waiting `settleRounds` times at
   * most (about a second each); `settled` is false when one was still in flight (a session left
   * idle in a transaction must not keep a node from starting: an event it logs later, below
   * `last`, reaches devices at their next replay only).
   */
  async settledLastId(settleRounds = 10): Promise<{ last: number; settled: boolean }> {
    if (this.db.kind !== 'postgres') return { last: await this.lastId(), settled: true };
    const { rows } = await sql<{ last: number | null; in_flight: string | null }>`
      select (select max(id) from events) as last,
        case when ${SNAPSHOT_XMIN} < ${SNAPSHOT_XMAX} then ${SNAPSHOT_XMAX}::text end as in_flight`.execute(
      this.db.kysely,
    );
    const { last, in_flight: inFlight } = rows[0] ?? { last: null, in_flight: null };
    let settled = inFlight === null;
    for (let round = 0; !settled && round < settleRounds; round += 1)
      settled = await this.settle(inFlight as string);
    return { last: Number(last ?? 0), settled };
  }

  /**
   * The newest id up to which every id after `from` is logged (of any account), looking at
   * `limit` ids at most. A transaction in flight leaves a hole, so no id up to the one answered
   * can commit any more when none below `from` can: what a hello may be answered up to.
   */
  async contiguousAfter(from: number, limit = ID_CHUNK): Promise<number> {
    const rows = await acrossAccounts(() =>
      this.db.kysely
        .selectFrom('events')
        .select('id')
        .where('id', '>', from)
        .orderBy('id')
        .limit(limit)
        .execute(),
    );
    let end = from;
    for (const { id } of rows) {
      if (id !== end + 1) break;
      end = id;
    }
    return end;
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
   * The events after `afterId` and up to `upTo` sent to any of `rooms`, oldest first, at most
   * `limit`, as summaries: the store reads the payloads for their subjects and sizes, but none is
   * handed to this process.
   */
  async summariesSince(
    afterId: number,
    upTo: number,
    rooms: readonly string[],
    limit: number,
  ): Promise<EventSummary[]> {
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
      .where('id', '<=', upTo)
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
