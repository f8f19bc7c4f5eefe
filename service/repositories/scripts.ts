import { acrossAccounts } from '../accounts/scope';
import type { Selectable } from 'kysely';
import { parseDuration, SCRIPT_RUNS_KEPT, type Script, type ScriptRun } from '../../src/shared/script';
import { isForeignKeyViolation } from '../db/constraint-errors';
import type { Queryable } from '../db/database';
import { flag, fromJson, toJson } from '../db/dialect';
import type { ScriptRunsTable, ScriptsTable } from '../db/schema';
import { conflict, invalid } from '../domain/errors';
import { newId } from '../ids';
import { foreignToCaller } from '../visibility/groups';
import { refusing } from './refusals';
import { isoRequired } from './rows';

type ScriptRow = Omit<Selectable<ScriptsTable>, 'account_id'>;
type RunRow = Omit<Selectable<ScriptRunsTable>, 'seq' | 'account_id'>;

const COLUMNS = [
  'id',
  'name',
  'code',
  'run_interval',
  'timeout_seconds',
  'enabled',
  'flow_id',
  'created_at',
  'updated_at',
] as const;
const RUN_COLUMNS = [
  'id',
  'script_id',
  'started_at',
  'duration_ms',
  'outcome',
  'trigger',
  'logs',
  'error',
] as const;

function fromRow(row: ScriptRow): Script {
  return {
    id: row.id,
    name: row.name,
    code: row.code,
    interval: row.run_interval,
    // Stored intervals were checked on the way in.
    interval_seconds: (parseDuration(row.run_interval) ?? 0) / 1000,
    timeout_seconds: row.timeout_seconds,
    enabled: flag(row.enabled),
    flow_id: row.flow_id,
    created_at: isoRequired(row.created_at),
    updated_at: isoRequired(row.updated_at),
  };
}

function runFromRow(row: RunRow): ScriptRun {
  return {
    id: row.id,
    script_id: row.script_id,
    started_at: isoRequired(row.started_at),
    duration_ms: row.duration_ms,
    outcome: row.outcome,
    trigger: row.trigger,
    logs: fromJson<string[]>(row.logs),
    error: row.error,
  };
}

export interface NewScript {
  name: string;
  code: string;
  interval: string;
  timeout_seconds: number;
  enabled: boolean;
  flow_id: string | null;
}

export type ScriptPatch = Partial<NewScript>;

export type NewScriptRun = Omit<ScriptRun, 'id' | 'started_at'> & { started_at: Date };

/**
 * A flow is fed by one script at most. The store knows only the flow's id; the script actions
 * word it with the flow's tag.
 */
export const flowAlreadyFed = (flow: string, by: string) =>
  conflict(`flow ${flow} is already fed by script ${by}`, [
    { path: 'body.flow_id', message: 'a flow is fed by one script at most' },
  ]);

/** A script write's refusals: its flow fed by another script, or deleted meanwhile. */
const refusals = (flowId: string | null | undefined) =>
  flowId
    ? {
        unique: () => flowAlreadyFed(flowId, 'another script'),
        foreignKey: () =>
          invalid(`flow ${flowId} does not exist`, [
            { path: 'body.flow_id', message: 'the flow was deleted meanwhile' },
          ]),
      }
    : {};

export class ScriptRepository {
  constructor(private readonly db: Queryable) {}

  /**
   * The flows whose scripts a person kept to some screen groups does not read: those screens of
   * other groups show (visibility/groups.ts). Scripts are where keys were kept; a department's
   * editors read their own. Null: every script is read.
   */
  private async hiddenFlows(): Promise<Set<string> | null> {
    const foreign = foreignToCaller(this.db);
    return foreign ? (await foreign).flow : null;
  }

  async list(): Promise<Script[]> {
    const rows = await this.db.kysely
      .selectFrom('scripts')
      .select(COLUMNS)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    const hidden = await this.hiddenFlows();
    return rows.filter((row) => !(row.flow_id && hidden?.has(row.flow_id))).map(fromRow);
  }

  /** The account of the script, looked up in every account (the scheduler's runs); null when none. */
  async accountOf(id: string): Promise<string | null> {
    const row = await acrossAccounts(() =>
      this.db.kysely.selectFrom('scripts').select('account_id').where('id', '=', id).executeTakeFirst(),
    );
    return row?.account_id ?? null;
  }

  /** When each script's last run started, by script id. */
  async lastRunStarts(): Promise<Map<string, Date>> {
    const rows = await this.db.kysely
      .selectFrom('script_runs')
      .select((eb) => ['script_id', eb.fn.max('started_at').as('started_at')])
      .groupBy('script_id')
      .execute();
    return new Map(rows.map((row) => [row.script_id, new Date(row.started_at)]));
  }

  async get(id: string): Promise<Script | null> {
    const row = await this.db.kysely
      .selectFrom('scripts')
      .select(COLUMNS)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row || (row.flow_id && (await this.hiddenFlows())?.has(row.flow_id))) return null;
    return fromRow(row);
  }

  /** The script that feeds the flow, if any. */
  async findByFlow(flowId: string): Promise<Script | null> {
    const row = await this.db.kysely
      .selectFrom('scripts')
      .select(COLUMNS)
      .where('flow_id', '=', flowId)
      .executeTakeFirst();
    return row ? fromRow(row) : null;
  }

  /** A conflict when another script feeds the flow, invalid when the flow is gone. */
  async create(input: NewScript, at: Date): Promise<Script> {
    const now = at.toISOString();
    const insert = this.db.kysely
      .insertInto('scripts')
      .values({
        id: newId('sc'),
        name: input.name,
        code: input.code,
        run_interval: input.interval,
        timeout_seconds: input.timeout_seconds,
        enabled: input.enabled,
        flow_id: input.flow_id,
        created_at: now,
        updated_at: now,
      })
      .returning(COLUMNS)
      .executeTakeFirstOrThrow();
    return fromRow(await refusing(insert, refusals(input.flow_id)));
  }

  /** Null when there is no such script; refused as `create` is. `updated_at` moves on every call. */
  async update(id: string, patch: ScriptPatch, at: Date): Promise<Script | null> {
    const set = {
      name: patch.name,
      code: patch.code,
      run_interval: patch.interval,
      timeout_seconds: patch.timeout_seconds,
      enabled: patch.enabled,
      flow_id: patch.flow_id,
    };
    const update = this.db.kysely
      .updateTable('scripts')
      .set({ ...set, updated_at: at.toISOString() })
      .where('id', '=', id)
      .returning(COLUMNS)
      .executeTakeFirst();
    const row = await refusing(update, refusals(patch.flow_id));
    return row ? fromRow(row) : null;
  }

  /** The deleted script (its runs go by cascade), or null when unknown. */
  async delete(id: string): Promise<Script | null> {
    const row = await this.db.kysely
      .deleteFrom('scripts')
      .where('id', '=', id)
      .returning(COLUMNS)
      .executeTakeFirst();
    return row ? fromRow(row) : null;
  }

  /**
   * Stores a run and drops the script's runs beyond the newest `keep`; null when the script was
   * deleted meanwhile.
   */
  async addRun(input: NewScriptRun, keep: number = SCRIPT_RUNS_KEPT): Promise<ScriptRun | null> {
    const { kysely } = this.db;
    let row: RunRow;
    try {
      row = await kysely
        .insertInto('script_runs')
        .values({
          id: newId('run'),
          script_id: input.script_id,
          started_at: input.started_at.toISOString(),
          duration_ms: input.duration_ms,
          outcome: input.outcome,
          trigger: input.trigger,
          logs: toJson(input.logs),
          error: input.error,
        })
        .returning(RUN_COLUMNS)
        .executeTakeFirstOrThrow();
    } catch (error) {
      if (isForeignKeyViolation(error)) return null;
      throw error;
    }
    await kysely
      .deleteFrom('script_runs')
      .where('script_id', '=', input.script_id)
      .where('seq', '<=', (eb) =>
        eb
          .selectFrom('script_runs')
          .select('seq')
          .where('script_id', '=', input.script_id)
          .orderBy('seq', 'desc')
          .limit(1)
          .offset(keep),
      )
      .execute();
    return runFromRow(row);
  }

  /** Newest first. */
  async listRuns(scriptId: string, limit: number = SCRIPT_RUNS_KEPT): Promise<ScriptRun[]> {
    const rows = await this.db.kysely
      .selectFrom('script_runs')
      .select(RUN_COLUMNS)
      .where('script_id', '=', scriptId)
      .orderBy('seq', 'desc')
      .limit(limit)
      .execute();
    return rows.map(runFromRow);
  }
}
