import {
  parseDuration,
  SCRIPT_RUNS_KEPT,
  type Script,
  type ScriptRun,
  type ScriptRunOutcome,
} from '../../src/shared/script';
import type { Queryable } from '../db/database';
import { newId } from '../ids';
import { isoRequired, one, setClause } from './rows';

interface ScriptRow {
  id: string;
  name: string;
  code: string;
  run_interval: string;
  timeout_seconds: number;
  enabled: boolean;
  flow_id: string | null;
  created_at: Date;
  updated_at: Date;
}

interface RunRow {
  id: string;
  script_id: string;
  started_at: Date;
  duration_ms: number;
  outcome: ScriptRunOutcome;
  trigger: ScriptRun['trigger'];
  logs: string[];
  error: string | null;
}

const COLUMNS = 'id, name, code, run_interval, timeout_seconds, enabled, flow_id, created_at, updated_at';
const RUN_COLUMNS = 'id, script_id, started_at, duration_ms, outcome, trigger, logs, error';

function fromRow(row: ScriptRow): Script {
  return {
    id: row.id,
    name: row.name,
    code: row.code,
    interval: row.run_interval,
    // Stored intervals were checked on the way in.
    interval_seconds: (parseDuration(row.run_interval) ?? 0) / 1000,
    timeout_seconds: row.timeout_seconds,
    enabled: row.enabled,
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
    logs: row.logs,
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

export class ScriptRepository {
  constructor(private readonly db: Queryable) {}

  async list(): Promise<Script[]> {
    const rows = await this.db.query<ScriptRow>(`select ${COLUMNS} from scripts order by created_at, id`);
    return rows.map(fromRow);
  }

  async get(id: string): Promise<Script | null> {
    const rows = await this.db.query<ScriptRow>(`select ${COLUMNS} from scripts where id = $1`, [id]);
    return rows[0] ? fromRow(rows[0]) : null;
  }

  /** The script that feeds the flow, if any. */
  async findByFlow(flowId: string): Promise<Script | null> {
    const rows = await this.db.query<ScriptRow>(`select ${COLUMNS} from scripts where flow_id = $1`, [
      flowId,
    ]);
    return rows[0] ? fromRow(rows[0]) : null;
  }

  /** Throws the database's unique violation when another script feeds the flow. */
  async create(input: NewScript, at: Date): Promise<Script> {
    const rows = await this.db.query<ScriptRow>(
      `insert into scripts (id, name, code, run_interval, timeout_seconds, enabled, flow_id, created_at,
         updated_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $8) returning ${COLUMNS}`,
      [
        newId('sc'),
        input.name,
        input.code,
        input.interval,
        input.timeout_seconds,
        input.enabled,
        input.flow_id,
        at,
      ],
    );
    return fromRow(one(rows));
  }

  /** Null when there is no such script; `updated_at` moves on every call (the scheduler reads it). */
  async update(id: string, patch: ScriptPatch, at: Date): Promise<Script | null> {
    const { sql, params } = setClause(
      patch,
      {
        name: 'name',
        code: 'code',
        interval: 'run_interval',
        timeout_seconds: 'timeout_seconds',
        enabled: 'enabled',
        flow_id: 'flow_id',
      },
      3,
    );
    const rows = await this.db.query<ScriptRow>(
      `update scripts set ${sql ? `${sql}, ` : ''}updated_at = $2 where id = $1 returning ${COLUMNS}`,
      [id, at, ...params],
    );
    return rows[0] ? fromRow(rows[0]) : null;
  }

  /** The deleted script (its runs go by cascade), or null when unknown. */
  async delete(id: string): Promise<Script | null> {
    const rows = await this.db.query<ScriptRow>(`delete from scripts where id = $1 returning ${COLUMNS}`, [
      id,
    ]);
    return rows[0] ? fromRow(rows[0]) : null;
  }

  /** Stores a run and drops the script's runs beyond the newest `keep`. */
  async addRun(input: NewScriptRun, keep: number = SCRIPT_RUNS_KEPT): Promise<ScriptRun> {
    const rows = await this.db.query<RunRow>(
      `insert into script_runs (id, script_id, started_at, duration_ms, outcome, trigger, logs, error)
       values ($1, $2, $3, $4, $5, $6, $7::jsonb, $8) returning ${RUN_COLUMNS}`,
      [
        newId('run'),
        input.script_id,
        input.started_at,
        input.duration_ms,
        input.outcome,
        input.trigger,
        JSON.stringify(input.logs),
        input.error,
      ],
    );
    await this.db.query(
      `delete from script_runs where script_id = $1 and seq <= (
         select seq from script_runs where script_id = $1 order by seq desc offset $2 limit 1)`,
      [input.script_id, keep],
    );
    return runFromRow(one(rows));
  }

  /** Newest first. */
  async listRuns(scriptId: string, limit: number = SCRIPT_RUNS_KEPT): Promise<ScriptRun[]> {
    const rows = await this.db.query<RunRow>(
      `select ${RUN_COLUMNS} from script_runs where script_id = $1 order by seq desc limit $2`,
      [scriptId, limit],
    );
    return rows.map(runFromRow);
  }
}
