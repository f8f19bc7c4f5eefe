import type { Play, PlayUpload } from '../../src/shared/play';
import type { Queryable } from '../db/database';
import { isoRequired } from './rows';

/** Rows per insert: far under both stores' limits on bound parameters (9 a row). */
const CHUNK = 500;

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

  /** The plays of a device that started in [from, to), oldest first, at most `limit`. */
  async list(tag: string, from: Date, to: Date, limit: number): Promise<Play[]> {
    const rows = await this.db.kysely
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
      .orderBy('p.started_at')
      .orderBy('p.id')
      .limit(limit)
      .execute();
    return rows.map(fromRow);
  }

  /** Drops the plays that started before `before`. */
  async prune(before: Date): Promise<void> {
    await this.db.kysely.deleteFrom('plays').where('started_at', '<', before.toISOString()).execute();
  }
}
