import { sql, type RawBuilder } from 'kysely';
import type { Failure } from '../../src/shared/device';
import type { ScriptState } from '../alerts/scripts';
import type { WatchedDevice } from '../alerts/screens';
import type { Queryable } from '../db/database';
import { flag, fromJsonOrNull } from '../db/dialect';

/**
 * What the alert job reads of the account's screens and scripts at each pass (docs/alerts.md),
 * in as few statements as it can: a pass runs every 5 s for every account with rules.
 */
export class AlertWatchRepository {
  constructor(private readonly db: Queryable) {}

  /**
   * Every screen of the account with what the rules read of it; its last heartbeat's failures
   * only when `withFailures` (a rule of device.failing needs them), read out of the stored
   * heartbeat by the store rather than the whole heartbeat shipped.
   */
  async devices(withFailures: boolean): Promise<WatchedDevice[]> {
    const failures: RawBuilder<string | null> =
      this.db.kind === 'postgres'
        ? sql`d.diagnostics -> 'failures'`
        : sql`json_extract(d.diagnostics, '$.failures')`;
    const rows = await this.db.kysely
      .selectFrom('devices as d')
      .select(['d.tag', 'd.name', 'd.online', 'd.last_seen_date', 'd.group_id'])
      .select((withFailures ? failures : sql<null>`null`).as('failures'))
      .execute();
    return rows.map((row) => ({
      tag: row.tag,
      name: row.name,
      online: flag(row.online),
      lastSeen: row.last_seen_date === null ? null : new Date(row.last_seen_date).getTime(),
      groupId: row.group_id,
      failures: failuresOf(row.failures),
    }));
  }

  /**
   * Each script of the account with its streak of failed runs since its newest `ok` one. Two
   * statements whatever the number of scripts: the streaks (an aggregate over the runs after each
   * script's last `ok`), then the newest failed run of each streak for its reason.
   */
  async scripts(): Promise<ScriptState[]> {
    const { kysely } = this.db;
    // Correlated with the script of the row (whose account the plugin has checked already).
    const lastOk = sql<number | string | null>`(select max(o.seq) from script_runs o
      where o.script_id = s.id and o.outcome = 'ok')`;
    const rows = await kysely
      .selectFrom('scripts as s')
      .leftJoin('script_runs as r', (join) =>
        join
          .onRef('r.script_id', '=', 's.id')
          .on('r.outcome', '<>', 'ok')
          .on(sql<boolean>`r.seq > coalesce(${lastOk}, 0)`),
      )
      .select(['s.id', 's.name'])
      .select((eb) => [
        eb.fn.count('r.seq').as('streak'),
        eb.fn.max('r.seq').as('last_failed'),
        lastOk.as('last_ok'),
      ])
      .groupBy(['s.id', 's.name'])
      .execute();
    const newest = rows.flatMap((row) => (row.last_failed === null ? [] : [Number(row.last_failed)]));
    const reasons = new Map<number, string>();
    if (newest.length > 0) {
      const runs = await kysely
        .selectFrom('script_runs')
        .select(['seq', 'outcome', 'error'])
        .where('seq', 'in', newest)
        .execute();
      for (const run of runs) reasons.set(Number(run.seq), reasonOf(run.outcome, run.error));
    }
    return rows.map((row) => {
      const lastFailed = row.last_failed === null ? null : Number(row.last_failed);
      return {
        id: row.id,
        name: row.name,
        streak: Number(row.streak),
        reason: lastFailed === null ? '' : (reasons.get(lastFailed) ?? ''),
        lastFailedSeq: lastFailed,
        lastOkSeq: row.last_ok === null || row.last_ok === undefined ? null : Number(row.last_ok),
      };
    });
  }
}

/** Said in a message: long errors (a stack, a page of HTML) cut short. */
const REASON_MAX = 300;

function reasonOf(outcome: string, error: string | null): string {
  const what =
    outcome === 'timeout' ? 'timed out' : outcome === 'invalid' ? 'gave an invalid result' : 'failed';
  const why = error?.trim().split('\n')[0]?.slice(0, REASON_MAX);
  return why ? `${what}: ${why}` : what;
}

/** The stored failures as the heartbeat schema checked them; anything else reads as none. */
function failuresOf(text: string | null): Failure[] {
  const parsed = fromJsonOrNull<unknown>(text);
  if (!Array.isArray(parsed)) return [];
  return parsed.filter(
    (failure): failure is Failure =>
      typeof failure === 'object' &&
      failure !== null &&
      typeof (failure as Failure).item === 'string' &&
      typeof (failure as Failure).reason === 'string' &&
      typeof (failure as Failure).at === 'string',
  );
}
