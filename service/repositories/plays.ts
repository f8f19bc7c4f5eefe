import type { Play, PlayUpload } from '../../src/shared/play';
import type { Queryable } from '../db/database';
import { isoRequired } from './rows';

/** Rows per insert: far under both stores' limits on bound parameters (9 a row). */
const CHUNK = 500;

/** Plays per page of a list (see `pages`): a few milliseconds of the event loop each. */
export const PLAY_PAGE = 250;

interface PlayRow {
  id: string;
  device_tag: string;
  type: Play['type'];
  board_id: string | null;
  url: string | null;
  channel_id: string | null;
  started_at: Date | string;
  ended_at: Date | string;
}

/**
 * A start as text that orders as time does: PostgreSQL gives Dates, SQLite the ISO 8601 text
 * `add` wrote (normalised to UTC and milliseconds).
 */
function instant(value: PlayRow['started_at']): string {
  return value instanceof Date ? value.toISOString() : value;
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Rows by start, then id: how the list orders plays of one instant. */
function byStartAndId(rows: readonly PlayRow[]): PlayRow[] {
  return rows
    .map((row) => ({ row, at: instant(row.started_at) }))
    .sort((a, b) => byText(a.at, b.at) || byText(a.row.id, b.row.id))
    .map(({ row }) => row);
}

function fromRow(row: PlayRow): Play {
  const started = isoRequired(row.started_at);
  const ended = isoRequired(row.ended_at);
  return {
    id: row.id,
    device_tag: row.device_tag,
    type: row.type,
    board_id: row.board_id,
    url: row.url,
    channel_id: row.channel_id,
    started_at: started,
    ended_at: ended,
    seconds: (Date.parse(ended) - Date.parse(started)) / 1000,
  };
}

/** Proof of play, by device; a record's id is the device's, so a repeated upload keeps one. */
export class PlayRepository {
  constructor(private readonly db: Queryable) {}

  /** Stores the plays the store does not have yet; how many were new. */
  async add(deviceId: string, plays: readonly PlayUpload[]): Promise<number> {
    let stored = 0;
    for (let start = 0; start < plays.length; start += CHUNK) {
      const rows = await this.db.kysely
        .insertInto('plays')
        .values(
          plays.slice(start, start + CHUNK).map((play) => ({
            id: play.id,
            device_id: deviceId,
            type: play.type,
            board_id: play.board_id,
            url: play.url,
            channel_id: play.channel_id,
            // Normalised, so that text comparisons in SQLite order them as time does.
            started_at: new Date(play.started_at).toISOString(),
            ended_at: new Date(play.ended_at).toISOString(),
          })),
        )
        .onConflict((conflict) => conflict.column('id').doNothing())
        .returning('id')
        .execute();
      stored += rows.length;
    }
    return stored;
  }

  /**
   * The plays of a device that started in [from, to), oldest first (by start, then id), at most
   * `limit`, in pages of about `size` read one after another, so that a list of 50,000 is never
   * read, shaped and answered at once. A page is read by start alone, the order of the index
   * (device, start), which the store walks and stops at the page's end; ordering by id too would
   * have it sort every play left for each page. So a page takes with its last play every other
   * play of the same instant (read by a second statement), and orders those by id itself.
   */
  async *pages(tag: string, from: Date, to: Date, limit: number, size = PLAY_PAGE): AsyncGenerator<Play[]> {
    let after: PlayRow['started_at'] | undefined;
    for (let left = limit; left > 0;) {
      const page = await this.startingAfter(tag, from, to, after, size).execute();
      const last = page.at(-1);
      if (last === undefined) return;
      const full = page.length === size;
      // The page may end amid plays of one instant: all of them are in it, or none.
      const rows = full
        ? [
            ...page.filter((row) => instant(row.started_at) !== instant(last.started_at)),
            ...(await this.startingAfter(tag, from, to, undefined, undefined)
              .where('p.started_at', '=', last.started_at)
              .execute()),
          ]
        : page;
      const taken = byStartAndId(rows).slice(0, left);
      yield taken.map(fromRow);
      if (!full) return;
      left -= taken.length;
      after = last.started_at;
    }
  }

  /** The plays of a device in [from, to) that started after `after` (all without), by start. */
  private startingAfter(
    tag: string,
    from: Date,
    to: Date,
    after: PlayRow['started_at'] | undefined,
    size: number | undefined,
  ) {
    return this.db.kysely
      .selectFrom('plays as p')
      .innerJoin('devices as d', 'd.id', 'p.device_id')
      .select([
        'p.id',
        'd.tag as device_tag',
        'p.type',
        'p.board_id',
        'p.url',
        'p.channel_id',
        'p.started_at',
        'p.ended_at',
      ])
      .where('d.tag', '=', tag)
      .where('p.started_at', '>=', from.toISOString())
      .where('p.started_at', '<', to.toISOString())
      .$if(after !== undefined, (query) => query.where('p.started_at', '>', after as PlayRow['started_at']))
      .orderBy('p.started_at')
      .$if(size !== undefined, (query) => query.limit(size as number));
  }

  /** Drops the plays that started before `before`. */
  async prune(before: Date): Promise<void> {
    await this.db.kysely.deleteFrom('plays').where('started_at', '<', before.toISOString()).execute();
  }
}
