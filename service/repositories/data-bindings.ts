import type { Selectable } from 'kysely';
import type { DataBinding, DataBindingUpdate } from '../../src/shared/data-source';
import type { Queryable } from '../db/database';
import { flag, fromJson, fromJsonOrNull, toJson } from '../db/dialect';
import type { DataBindingsTable } from '../db/schema';
import { newId } from '../ids';
import { iso, isoRequired, setsNothing } from './rows';

type BindingRow = Selectable<DataBindingsTable> & { flow_tag: string };

function fromRow(row: BindingRow): DataBinding {
  return {
    id: row.id,
    source_id: row.source_id,
    flow_id: row.flow_id,
    flow_tag: row.flow_tag,
    query: row.query,
    range: fromJsonOrNull<DataBinding['range']>(row.range),
    mapping: fromJson<Record<string, string>>(row.mapping),
    created_at: isoRequired(row.created_at),
    last_run_at: iso(row.last_run_at),
    last_ok_at: iso(row.last_ok_at),
    last_error: row.last_error,
  };
}

/** A binding to create: its flow already found by tag or id. */
export interface NewBinding {
  source_id: string;
  flow_id: string;
  query: string;
  range: DataBinding['range'];
  mapping: Record<string, string>;
}

/** How one binding's refresh went: `error` null when its flow has the source's data. */
export interface BindingRun {
  id: string;
  error: string | null;
}

/** The account's data bindings (migration 22): one a flow, each from one source's query. */
export class DataBindingRepository {
  constructor(private readonly db: Queryable) {}

  private select() {
    return this.db.kysely
      .selectFrom('data_bindings')
      .innerJoin('flows', 'flows.id', 'data_bindings.flow_id')
      .selectAll('data_bindings')
      .select('flows.tag as flow_tag');
  }

  async list(sourceId?: string): Promise<DataBinding[]> {
    let query = this.select().orderBy('data_bindings.created_at').orderBy('data_bindings.id');
    if (sourceId !== undefined) query = query.where('data_bindings.source_id', '=', sourceId);
    return (await query.execute()).map(fromRow);
  }

  /**
   * A source's bindings as its refresh needs them: each with its flow's `errored` flag, read in
   * the same statement, so a refresh reads no flow one by one.
   */
  async ofSource(sourceId: string): Promise<(DataBinding & { flow_errored: boolean })[]> {
    const rows = await this.select()
      .select('flows.errored as flow_errored')
      .where('data_bindings.source_id', '=', sourceId)
      .orderBy('data_bindings.created_at')
      .orderBy('data_bindings.id')
      .execute();
    return rows.map((row) => ({ ...fromRow(row), flow_errored: flag(row.flow_errored) }));
  }

  async find(id: string): Promise<DataBinding | null> {
    const row = await this.select().where('data_bindings.id', '=', id).executeTakeFirst();
    return row ? fromRow(row) : null;
  }

  async ofFlow(flowId: string): Promise<DataBinding | null> {
    const row = await this.select().where('data_bindings.flow_id', '=', flowId).executeTakeFirst();
    return row ? fromRow(row) : null;
  }

  async count(): Promise<number> {
    const row = await this.db.kysely
      .selectFrom('data_bindings')
      .select((eb) => eb.fn.countAll<number | string | bigint>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async create(input: NewBinding, at: Date): Promise<string> {
    const id = newId('dbind');
    await this.db.kysely
      .insertInto('data_bindings')
      .values({
        id,
        source_id: input.source_id,
        flow_id: input.flow_id,
        query: input.query,
        range: input.range === null ? null : toJson(input.range),
        mapping: toJson(input.mapping),
        created_at: at.toISOString(),
      })
      .execute();
    return id;
  }

  /** Applies a patch and has the binding run at its source's next pass; false when it is gone. */
  async update(id: string, patch: DataBindingUpdate): Promise<boolean> {
    const set = {
      query: patch.query,
      range: patch.range === undefined ? undefined : patch.range === null ? null : toJson(patch.range),
      mapping: patch.mapping === undefined ? undefined : toJson(patch.mapping),
    };
    if (setsNothing(set)) return (await this.find(id)) !== null;
    const result = await this.db.kysely
      .updateTable('data_bindings')
      .set(set)
      .where('id', '=', id)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.db.kysely.deleteFrom('data_bindings').where('id', '=', id).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  /**
   * Notes a refresh of several bindings at `at`: those that went well in one statement, each
   * failure with its error, so a source's refresh costs a write or two whatever its bindings.
   */
  async recordRuns(runs: readonly BindingRun[], at: Date): Promise<void> {
    const when = at.toISOString();
    const fine = runs.filter((run) => run.error === null).map((run) => run.id);
    if (fine.length > 0) {
      await this.db.kysely
        .updateTable('data_bindings')
        .set({ last_run_at: when, last_ok_at: when, last_error: null })
        .where('id', 'in', fine)
        .execute();
    }
    for (const run of runs) {
      if (run.error === null) continue;
      await this.db.kysely
        .updateTable('data_bindings')
        .set({ last_run_at: when, last_error: run.error })
        .where('id', '=', run.id)
        .execute();
    }
  }
}
