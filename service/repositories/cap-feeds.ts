import type { Selectable } from 'kysely';
import type { CapFeed, CapFeedCreate } from '../../src/shared/cap-feed';
import type { OverrideTarget } from '../../src/shared/override';
import type { Queryable } from '../db/database';
import { fromJson, lockRows, toJson } from '../db/dialect';
import type { CapFeedsTable } from '../db/schema';
import { newId } from '../ids';
import { iso, isoRequired } from './rows';

type FeedRow = Selectable<CapFeedsTable>;

/** A feed as the job polls it: the answer's fields and its account, read outside any account. */
export type PolledFeed = CapFeed & { account_id: string };

function targetOf(row: FeedRow): OverrideTarget {
  if (row.target_group_id !== null) return { group_id: row.target_group_id };
  if (row.target_device_tag !== null) return { device_tag: row.target_device_tag };
  return { all: true };
}

function fromRow(row: FeedRow): CapFeed {
  return {
    id: row.id,
    name: row.name,
    url: row.url,
    target: targetOf(row),
    min_severity: row.min_severity,
    areas: fromJson<string[]>(row.areas),
    poll_seconds: Number(row.poll_seconds),
    created_at: isoRequired(row.created_at),
    created_by: row.created_by,
    last_polled_at: iso(row.last_polled_at),
    last_ok_at: iso(row.last_ok_at),
    last_error: row.last_error,
  };
}

/** How a poll went: at `at`, with `error` when it failed (then `last_ok_at` stays). */
export interface PollOutcome {
  at: Date;
  error: string | null;
}

/** The account's CAP feeds (migration 19), oldest first. */
export class CapFeedRepository {
  constructor(private readonly db: Queryable) {}

  async list(): Promise<CapFeed[]> {
    const rows = await this.db.kysely
      .selectFrom('cap_feeds')
      .selectAll()
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(fromRow);
  }

  async find(id: string): Promise<CapFeed | null> {
    const row = await this.db.kysely
      .selectFrom('cap_feeds')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? fromRow(row) : null;
  }

  /**
   * The feed, its row locked until the transaction ends on PostgreSQL (SQLite has one writer): a
   * poll and the feed's removal take turns, so no override is raised for a feed being removed
   * after the removal read what to clear.
   */
  async lock(id: string): Promise<CapFeed | null> {
    const { kind, kysely } = this.db;
    const row = await lockRows(
      kind,
      kysely.selectFrom('cap_feeds').selectAll().where('id', '=', id),
    ).executeTakeFirst();
    return row ? fromRow(row) : null;
  }

  async create(input: CapFeedCreate & { name: string }, at: Date, by: string): Promise<CapFeed> {
    const { target } = input;
    const row = await this.db.kysely
      .insertInto('cap_feeds')
      .values({
        id: newId('capf'),
        name: input.name,
        url: input.url,
        target_group_id: 'group_id' in target ? target.group_id : null,
        target_device_tag: 'device_tag' in target ? target.device_tag : null,
        min_severity: input.min_severity,
        areas: toJson(input.areas),
        poll_seconds: input.poll_seconds,
        created_at: at.toISOString(),
        created_by: by,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return fromRow(row);
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.db.kysely.deleteFrom('cap_feeds').where('id', '=', id).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  /** Notes a poll; false when the feed is gone (deleted while it was read). */
  async recordPoll(id: string, outcome: PollOutcome): Promise<boolean> {
    const at = outcome.at.toISOString();
    const result = await this.db.kysely
      .updateTable('cap_feeds')
      .set(
        outcome.error === null
          ? { last_polled_at: at, last_ok_at: at, last_error: null }
          : { last_polled_at: at, last_error: outcome.error },
      )
      .where('id', '=', id)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /**
   * Every account's feeds due a poll at `now`: never polled, or polled `poll_seconds` ago or
   * longer. Read outside any account (the job's own upkeep; each poll then runs as its feed's
   * account). Feeds are few, a handful an account, so the time is compared here rather than in
   * each store's own interval arithmetic.
   */
  async due(now: Date): Promise<PolledFeed[]> {
    const rows = await this.db.kysely.selectFrom('cap_feeds').selectAll().orderBy('id').execute();
    return rows
      .filter((row) => {
        const last = iso(row.last_polled_at);
        return last === null || Date.parse(last) + Number(row.poll_seconds) * 1000 <= now.getTime();
      })
      .map((row) => ({ ...fromRow(row), account_id: row.account_id }));
  }
}
