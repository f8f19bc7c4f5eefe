import { sql, type RawBuilder } from 'kysely';
import { libraryMediaId } from '../../src/shared/media';
import { dayStarts, type NamedPlay, type PlayTotal, type TotalType } from '../../src/shared/play-report';
import type { Queryable } from '../db/database';
import { boundDevice } from '../visibility/scope';
import { PLAY_PAGE } from './plays';
import { isoRequired } from './rows';

/** Which plays a report holds: those that started in [from, to), and the filters given. */
export interface PlayFilters {
  from: Date;
  to: Date;
  deviceTag?: string | undefined;
  /** The screens of a group now (a screen moved since counts where it is). */
  groupId?: string | undefined;
  boardId?: string | undefined;
  /** A medium's URL (a library one is `/media/<id>/content`) or a web page's. */
  url?: string | undefined;
}

/** Ids per `in (…)` of a name lookup: far under both stores' limits on bound parameters. */
const NAMES_CHUNK = 500;

/** A start as the store gives it back: a Date (PostgreSQL) or ISO 8601 text (SQLite). */
type Start = Date | string;

interface PageRow {
  id: string;
  device_tag: string;
  device_name: string;
  group_id: string | null;
  group_name: string | null;
  type: NamedPlay['type'];
  board_id: string | null;
  board_name: string | null;
  url: string | null;
  channel_id: string | null;
  started_at: Start;
  ended_at: Start;
}

/**
 * Proof of play across the account's screens (`GET /plays`, `GET /plays/totals`). Every statement
 * is the account's (accounts/account-plugin.ts); a token bound to a screen sees that screen's
 * plays alone, as `GET /devices/:tag/plays` lets it see its own only.
 */
export class PlayReportRepository {
  constructor(private readonly db: Queryable) {}

  /**
   * The plays, oldest first (by start, then id), at most `limit`, in pages of `size` read one
   * after another (service/http/paged-answer.ts). Each page starts after the last one's end, a
   * key the index on (account, start, id) of migration 17 walks to directly, so that no page
   * reads the plays before it again.
   */
  async *pages(filters: PlayFilters, limit: number, size = PLAY_PAGE): AsyncGenerator<NamedPlay[]> {
    let after: { start: Start; id: string } | undefined;
    for (let left = limit; left > 0;) {
      const wanted = Math.min(size, left);
      const rows = await this.page(filters, after, wanted);
      const last = rows.at(-1);
      if (last === undefined) return;
      yield await this.named(rows);
      if (rows.length < wanted) return;
      left -= rows.length;
      after = { start: last.started_at, id: last.id };
    }
  }

  private page(
    filters: PlayFilters,
    after: { start: Start; id: string } | undefined,
    size: number,
  ): Promise<PageRow[]> {
    return this.filtered(filters)
      .innerJoin('devices as d', 'd.id', 'p.device_id')
      .leftJoin('groups as g', 'g.id', 'd.group_id')
      .leftJoin('boards as b', 'b.id', 'p.board_id')
      .select([
        'p.id',
        'd.tag as device_tag',
        'd.name as device_name',
        'd.group_id',
        'g.name as group_name',
        'p.type',
        'p.board_id',
        'b.name as board_name',
        'p.url',
        'p.channel_id',
        'p.started_at',
        'p.ended_at',
      ])
      .$if(after !== undefined, (query) => {
        const { start, id } = after as { start: Start; id: string };
        // The lower bound alone bounds the index's range; the rest skips the page's own instant.
        return query
          .where('p.started_at', '>=', start)
          .where((eb) => eb.or([eb('p.started_at', '>', start), eb('p.id', '>', id)]));
      })
      .orderBy('p.started_at')
      .orderBy('p.id')
      .limit(size)
      .execute();
  }

  /**
   * The plays of the filters. The screen's are asked of a subquery (its primary key or its
   * account's unique tag), so that the totals, which need nothing else of it, join no screen.
   */
  private filtered(filters: PlayFilters) {
    const bound = boundDevice();
    const { deviceTag, groupId, boardId, url } = filters;
    return this.db.kysely
      .selectFrom('plays as p')
      .where('p.started_at', '>=', filters.from.toISOString())
      .where('p.started_at', '<', filters.to.toISOString())
      .$if(bound !== undefined, (query) => query.where('p.device_id', 'in', this.devices('tag', bound)))
      .$if(deviceTag !== undefined, (query) =>
        query.where('p.device_id', 'in', this.devices('tag', deviceTag)),
      )
      .$if(groupId !== undefined, (query) =>
        query.where('p.device_id', 'in', this.devices('group_id', groupId)),
      )
      .$if(boardId !== undefined, (query) => query.where('p.board_id', '=', boardId as string))
      .$if(url !== undefined, (query) => query.where('p.url', '=', url as string));
  }

  /** The ids of the account's screens whose `column` is `value`. */
  private devices(column: 'tag' | 'group_id', value: string | undefined) {
    return this.db.kysely
      .selectFrom('devices')
      .select('id')
      .where(column, '=', value as string);
  }

  /** A page's rows with the names of the library media they name (read once per page). */
  private async named(rows: readonly PageRow[]): Promise<NamedPlay[]> {
    const mediaIds = rows.map((row) => (row.url ? libraryMediaId(row.url) : null));
    const media = await this.names('media', mediaIds);
    return rows.map((row, n) => {
      const started = isoRequired(row.started_at);
      const ended = isoRequired(row.ended_at);
      const mediaId = mediaIds[n] ?? null;
      return {
        id: row.id,
        device_tag: row.device_tag,
        device_name: row.device_name,
        group_id: row.group_id,
        group_name: row.group_name,
        type: row.type,
        board_id: row.board_id,
        board_name: row.board_name,
        url: row.url,
        media_id: mediaId,
        media_name: mediaId === null ? null : (media.get(mediaId) ?? null),
        channel_id: row.channel_id,
        started_at: started,
        ended_at: ended,
        seconds: (Date.parse(ended) - Date.parse(started)) / 1000,
      };
    });
  }

  /** The names of the account's boards or media of these ids (the deleted ones absent). */
  private async names(
    table: 'boards' | 'media',
    ids: readonly (string | null)[],
  ): Promise<Map<string, string>> {
    const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
    const found = new Map<string, string>();
    for (let start = 0; start < wanted.length; start += NAMES_CHUNK) {
      const rows = await this.db.kysely
        .selectFrom(table)
        .select(['id', 'name'])
        .where('id', 'in', wanted.slice(start, start + NAMES_CHUNK))
        .execute();
      for (const row of rows) found.set(row.id, row.name);
    }
    return found;
  }

  /**
   * The plays per item (a board, a medium, a web page) per day of `timeZone`, across the screens:
   * how many, how long, on how many screens; by day, then name. The store adds them up: it sends
   * one row per item and day, never the plays.
   */
  async totals(filters: PlayFilters, timeZone: string): Promise<PlayTotal[]> {
    const day = this.dayOf(filters, timeZone);
    const kind = sql<TotalType>`case p.type when 'board' then 'board' when 'web' then 'web' else 'medium' end`;
    const query = this.filtered(filters)
      .select([
        day.as('day'),
        kind.as('kind'),
        'p.board_id',
        'p.url',
        sql<number | string>`count(*)`.as('plays'),
        this.milliseconds().as('ms'),
        sql<number | string>`count(distinct p.device_id)`.as('screens'),
      ])
      // By the output's names: the day's expression holds bound parameters, which PostgreSQL
      // would not match between the select and a group by written out again.
      .groupBy([sql.ref('day'), sql.ref('kind'), 'p.board_id', 'p.url']);
    // Some seconds over a fleet's month: beside the event loop where the store would hold it.
    const rows = this.db.readAside ? await this.db.readAside(query.compile()) : await query.execute();
    const boards = await this.names(
      'boards',
      rows.map((row) => row.board_id),
    );
    const media = await this.names(
      'media',
      rows.map((row) => (row.url ? libraryMediaId(row.url) : null)),
    );
    const totals = rows.map((row): PlayTotal => {
      const mediaId = row.kind === 'medium' && row.url ? libraryMediaId(row.url) : null;
      const itemId = row.kind === 'board' ? row.board_id : mediaId;
      const name =
        row.kind === 'board'
          ? (boards.get(row.board_id ?? '') ?? row.board_id ?? '')
          : mediaId !== null
            ? (media.get(mediaId) ?? mediaId)
            : (row.url ?? '');
      return {
        day: row.day,
        type: row.kind,
        item_id: itemId,
        url: row.kind === 'board' ? null : row.url,
        name,
        plays: Number(row.plays),
        seconds: Number(row.ms) / 1000,
        screens: Number(row.screens),
      };
    });
    return totals.sort(
      (a, b) =>
        compare(a.day, b.day) ||
        a.name.localeCompare(b.name) ||
        compare(a.type, b.type) ||
        compare(a.item_id ?? a.url ?? '', b.item_id ?? b.url ?? ''),
    );
  }

  /**
   * A play's day, `YYYY-MM-DD`. In UTC, from the start itself (SQLite's ISO 8601 text, or
   * PostgreSQL's timestamp). In a zone, by the instants its days start (asked of the zone in
   * dayStarts, daylight saving time included): one comparison per day of the range, the same
   * statement on both stores (SQLite knows no zone).
   */
  private dayOf(filters: PlayFilters, timeZone: string): RawBuilder<string> {
    if (timeZone === 'UTC') {
      return this.db.kind === 'postgres'
        ? sql<string>`to_char(p.started_at at time zone 'UTC', 'YYYY-MM-DD')`
        : sql<string>`substr(p.started_at, 1, 10)`;
    }
    const days = dayStarts(filters.from.getTime(), filters.to.getTime(), timeZone);
    // Days from the last: a start at or after a day's first instant is in it.
    const branches = days
      .slice(1)
      .reverse()
      .map(
        ({ day, start }) => sql`when p.started_at >= ${new Date(start).toISOString()} then ${sql.lit(day)}`,
      );
    return sql<string>`case ${sql.join(branches, sql` `)} else ${sql.lit(days[0]?.day ?? '')} end`;
  }

  /** The sum of the plays' lengths in whole milliseconds (each rounded first, so the sum is exact). */
  private milliseconds(): RawBuilder<number | string> {
    return this.db.kind === 'postgres'
      ? sql<string>`cast(sum(round(extract(epoch from (p.ended_at - p.started_at)) * 1000)) as bigint)`
      : sql<number>`sum(cast(round((julianday(p.ended_at) - julianday(p.started_at)) * 86400000) as integer))`;
  }
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
