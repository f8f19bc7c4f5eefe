import type { Selectable } from 'kysely';
import type {
  DataSource,
  DataSourceCreate,
  DataSourceRun,
  DataSourceUpdate,
} from '../../src/shared/data-source';
import type { Queryable } from '../db/database';
import { flag, fromJson, toJson } from '../db/dialect';
import type { DataSourcesTable } from '../db/schema';
import { newId } from '../ids';
import { iso, isoRequired, setsNothing } from './rows';

type SourceRow = Selectable<DataSourcesTable>;

/** A source with what connecting needs (its secret) and its account: the job's and the test's view, never answered. */
export type StoredSource = DataSource & { secret: string | null; account_id: string };

/** The newest runs kept of each source: its recent history, enough to see a pattern. */
export const RUNS_KEPT = 50;

function fromRow(row: SourceRow, bindings: number): StoredSource {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    url: row.url,
    auth: row.auth,
    username: row.username,
    has_secret: row.secret !== null,
    headers: fromJson<Record<string, string>>(row.headers),
    interval_seconds: Number(row.interval_seconds),
    timeout_seconds: Number(row.timeout_seconds),
    allow_private: flag(row.allow_private),
    created_at: isoRequired(row.created_at),
    last_run_at: iso(row.last_run_at),
    last_ok_at: iso(row.last_ok_at),
    last_error: row.last_error,
    bindings,
    secret: row.secret,
    account_id: row.account_id,
  };
}

/** What an answer shows of a source: everything but the secret and the account. */
export function answerOf(source: StoredSource): DataSource {
  const { secret: _secret, account_id: _account, ...shown } = source;
  return shown;
}

/** How one pass over a source went. */
export interface RunOutcome {
  startedAt: Date;
  durationMs: number;
  updated: number;
  failed: number;
  /** The source's own failure (unreachable, refused), or null when it answered. */
  error: string | null;
}

/** The account's data sources (migration 22), oldest first, and their runs. */
export class DataSourceRepository {
  constructor(private readonly db: Queryable) {}

  private async counts(ids?: readonly string[]): Promise<Map<string, number>> {
    let query = this.db.kysely
      .selectFrom('data_bindings')
      .select(['source_id', (eb) => eb.fn.countAll<number | string | bigint>().as('count')])
      .groupBy('source_id');
    if (ids) query = query.where('source_id', 'in', ids.length > 0 ? ids : ['']);
    const rows = await query.execute();
    return new Map(rows.map((row) => [row.source_id, Number(row.count)]));
  }

  async list(): Promise<StoredSource[]> {
    const rows = await this.db.kysely
      .selectFrom('data_sources')
      .selectAll()
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    const counts = await this.counts();
    return rows.map((row) => fromRow(row, counts.get(row.id) ?? 0));
  }

  async find(id: string): Promise<StoredSource | null> {
    const row = await this.db.kysely
      .selectFrom('data_sources')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) return null;
    return fromRow(row, (await this.counts([id])).get(id) ?? 0);
  }

  async count(): Promise<number> {
    const row = await this.db.kysely
      .selectFrom('data_sources')
      .select((eb) => eb.fn.countAll<number | string | bigint>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async create(input: DataSourceCreate, at: Date): Promise<StoredSource> {
    const row = await this.db.kysely
      .insertInto('data_sources')
      .values({
        id: newId('dsrc'),
        name: input.name,
        kind: input.kind,
        url: input.url,
        auth: input.auth,
        username: input.username,
        secret: input.secret,
        headers: toJson(input.headers),
        interval_seconds: input.interval_seconds,
        timeout_seconds: input.timeout_seconds,
        allow_private: input.allow_private,
        created_at: at.toISOString(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return fromRow(row, 0);
  }

  /** Applies a patch; false when there is no such source. A changed connection is run again at once. */
  async update(id: string, patch: DataSourceUpdate): Promise<boolean> {
    const { headers, ...rest } = patch;
    const set = { ...rest, headers: headers === undefined ? undefined : toJson(headers) };
    if (setsNothing(set)) return (await this.find(id)) !== null;
    const result = await this.db.kysely
      .updateTable('data_sources')
      .set({ ...set, last_run_at: null })
      .where('id', '=', id)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Has the source run at the job's next pass, whatever its interval. */
  async runSoon(id: string): Promise<void> {
    await this.db.kysely
      .updateTable('data_sources')
      .set({ last_run_at: null })
      .where('id', '=', id)
      .execute();
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.db.kysely.deleteFrom('data_sources').where('id', '=', id).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  /** Notes a pass and keeps the newest RUNS_KEPT runs; false when the source is gone. */
  async recordRun(id: string, outcome: RunOutcome): Promise<boolean> {
    const at = outcome.startedAt.toISOString();
    const ok = outcome.error === null && outcome.failed === 0;
    const result = await this.db.kysely
      .updateTable('data_sources')
      .set(
        outcome.error === null
          ? { last_run_at: at, last_ok_at: at, last_error: null }
          : { last_run_at: at, last_error: outcome.error },
      )
      .where('id', '=', id)
      .executeTakeFirst();
    if (result.numUpdatedRows === 0n) return false;
    await this.db.kysely
      .insertInto('data_source_runs')
      .values({
        id: newId('dsrun'),
        source_id: id,
        started_at: at,
        duration_ms: Math.round(outcome.durationMs),
        ok,
        updated: outcome.updated,
        failed: outcome.failed,
        error: outcome.error,
      })
      .execute();
    const keep = this.db.kysely
      .selectFrom('data_source_runs')
      .select('id')
      .where('source_id', '=', id)
      .orderBy('started_at', 'desc')
      .orderBy('id', 'desc')
      .limit(RUNS_KEPT);
    await this.db.kysely
      .deleteFrom('data_source_runs')
      .where('source_id', '=', id)
      .where('id', 'not in', keep)
      .execute();
    return true;
  }

  async runs(id: string): Promise<DataSourceRun[]> {
    const rows = await this.db.kysely
      .selectFrom('data_source_runs')
      .selectAll()
      .where('source_id', '=', id)
      .orderBy('started_at', 'desc')
      .orderBy('id', 'desc')
      .limit(RUNS_KEPT)
      .execute();
    return rows.map((row) => ({
      id: row.id,
      source_id: row.source_id,
      started_at: isoRequired(row.started_at),
      duration_ms: Number(row.duration_ms),
      ok: flag(row.ok),
      updated: Number(row.updated),
      failed: Number(row.failed),
      error: row.error,
    }));
  }

  /**
   * Every account's sources due a pass at `now` that feed a flow, most overdue first: never run,
   * or run `interval_seconds` ago or longer. Read outside any account (the job's own upkeep; each pass
   * then runs as its source's account).
   */
  async due(now: Date): Promise<StoredSource[]> {
    const rows = await this.db.kysely
      .selectFrom('data_sources')
      .selectAll()
      .where('id', 'in', (eb) => eb.selectFrom('data_bindings').select('source_id'))
      .orderBy('id')
      .execute();
    const dueAt = (row: SourceRow) => {
      const last = iso(row.last_run_at);
      return last === null ? 0 : Date.parse(last) + Number(row.interval_seconds) * 1000;
    };
    // Most overdue first: when more are due than run at once, none waits behind later ones twice.
    return rows
      .filter((row) => dueAt(row) <= now.getTime())
      .sort((a, b) => dueAt(a) - dueAt(b))
      .map((row) => fromRow(row, 0));
  }
}
