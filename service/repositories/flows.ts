import type { Flow } from '../../src/shared/flow';
import type { FieldIssue } from '../../src/shared/issues';
import type { MetricsData } from '../../src/shared/metrics';
import type { Variant } from '../../src/shared/variants';
import { transact, type Queryable } from '../db/database';
import { newId } from '../ids';
import { isoRequired, one, setClause } from './rows';

interface FlowRow {
  id: string;
  type: Flow['type'];
  variant: Variant;
  tag: string;
  errored: boolean;
  enabled: boolean;
  channel_id: string | null;
  source: string | null;
  parameters: Record<string, unknown> | null;
  created_at: Date;
}

/** Everything but `data`, which is served by the metrics routes and may be large. */
const COLUMNS = 'id, type, variant, tag, errored, enabled, channel_id, source, parameters, created_at';

function fromRow(row: FlowRow): Flow {
  return {
    id: row.id,
    type: row.type,
    variant: row.variant,
    tag: row.tag,
    errored: row.errored,
    enabled: row.enabled,
    channel_id: row.channel_id,
    source: row.source,
    parameters: row.parameters,
    created_at: isoRequired(row.created_at),
  };
}

const jsonOrNull = (value: Record<string, unknown> | null | undefined) =>
  value === undefined ? undefined : value === null ? null : JSON.stringify(value);

export type NewFlow = Omit<Flow, 'id' | 'errored' | 'created_at'> & { created_at: Date };

export type FlowPatch = Partial<
  Pick<Flow, 'tag' | 'channel_id' | 'errored' | 'source' | 'parameters' | 'enabled'>
>;

/** How a metrics write changes the stored data. */
export type MetricsWrite =
  | { kind: 'replace'; data: MetricsData }
  /** Top-level keys of `set` overwrite, keys in `remove` go. */
  | { kind: 'merge'; set: MetricsData; remove: string[] };

/** Checks the data a write would leave against the flow's variant; issues refuse the write. */
export type MetricsCheck = (variant: Variant, data: MetricsData) => FieldIssue[] | null;

export type MetricsWriteResult =
  | { status: 'updated'; id: string; tag: string; data: MetricsData }
  | { status: 'missing' }
  | { status: 'invalid'; variant: Variant; details: FieldIssue[] };

class RefusedMetrics extends Error {
  constructor(
    readonly variant: Variant,
    readonly details: FieldIssue[],
  ) {
    super('refused metrics');
  }
}

export class FlowRepository {
  constructor(private readonly db: Queryable) {}

  async list(): Promise<Flow[]> {
    const rows = await this.db.query<FlowRow>(`select ${COLUMNS} from flows order by created_at, id`);
    return rows.map(fromRow);
  }

  async get(id: string): Promise<Flow | null> {
    const rows = await this.db.query<FlowRow>(`select ${COLUMNS} from flows where id = $1`, [id]);
    return rows[0] ? fromRow(rows[0]) : null;
  }

  async getByTag(tag: string): Promise<Flow | null> {
    const rows = await this.db.query<FlowRow>(`select ${COLUMNS} from flows where tag = $1`, [tag]);
    return rows[0] ? fromRow(rows[0]) : null;
  }

  /** Throws the database's unique violation when the tag is taken. `data` seeds its metrics. */
  async create(input: NewFlow, data: MetricsData = {}): Promise<Flow> {
    const rows = await this.db.query<FlowRow>(
      `insert into flows (id, type, variant, tag, enabled, channel_id, source, parameters, created_at, data,
         data_updated_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $10::jsonb, $11) returning ${COLUMNS}`,
      [
        newId('fl'),
        input.type,
        input.variant,
        input.tag,
        input.enabled,
        input.channel_id,
        input.source,
        jsonOrNull(input.parameters),
        input.created_at,
        JSON.stringify(data),
        Object.keys(data).length > 0 ? input.created_at : null,
      ],
    );
    return fromRow(one(rows));
  }

  /**
   * Applies a patch in one transaction; `derive` sees the flow as it is (locked) and may add
   * fields computed from it. Null when there is no such flow.
   */
  async update(id: string, derive: (current: Flow) => FlowPatch): Promise<Flow | null> {
    return transact(this.db, async (tx) => {
      const rows = await tx.query<FlowRow>(`select ${COLUMNS} from flows where id = $1 for update`, [id]);
      if (!rows[0]) return null;
      const patch = derive(fromRow(rows[0]));
      // The parameter of a jsonb column is typed by the column, so a JSON text is enough.
      const { sql, params } = setClause(
        { ...patch, parameters: jsonOrNull(patch.parameters) },
        {
          tag: 'tag',
          channel_id: 'channel_id',
          errored: 'errored',
          source: 'source',
          parameters: 'parameters',
          enabled: 'enabled',
        },
        2,
      );
      if (!sql) return fromRow(rows[0]);
      const updated = await tx.query<FlowRow>(`update flows set ${sql} where id = $1 returning ${COLUMNS}`, [
        id,
        ...params,
      ]);
      return fromRow(one(updated));
    });
  }

  /** Deletes the flow (its widgets go by cascade); the boards that showed it, or null when unknown. */
  async delete(id: string): Promise<{ boardIds: string[] } | null> {
    return transact(this.db, async (tx) => {
      const boards = await tx.query<{ board_id: string }>(
        'select distinct board_id from widgets where flow_id = $1 order by board_id',
        [id],
      );
      const deleted = await tx.query('delete from flows where id = $1 returning id', [id]);
      return deleted.length ? { boardIds: boards.map((b) => b.board_id) } : null;
    });
  }

  async setErrored(tag: string, errored: boolean): Promise<Flow | null> {
    const rows = await this.db.query<FlowRow>(
      `update flows set errored = $2 where tag = $1 returning ${COLUMNS}`,
      [tag, errored],
    );
    return rows[0] ? fromRow(rows[0]) : null;
  }

  /** The flow's metrics, or null when there is no such flow. */
  async readData(tag: string): Promise<MetricsData | null> {
    const rows = await this.db.query<{ data: MetricsData }>('select data from flows where tag = $1', [tag]);
    return rows[0] ? rows[0].data : null;
  }

  /**
   * The hot path: one UPDATE by tag in its own transaction, checked against the variant it
   * returns and rolled back when refused. Nothing is cached, so renamed, deleted or recreated
   * flows are always seen as they are.
   */
  async writeData(
    tag: string,
    write: MetricsWrite,
    at: Date,
    check: MetricsCheck,
  ): Promise<MetricsWriteResult> {
    try {
      return await transact(this.db, async (tx): Promise<MetricsWriteResult> => {
        if (write.kind === 'replace') {
          const rows = await tx.query<{ id: string; tag: string; variant: Variant }>(
            `update flows set data = $2::jsonb, data_updated_at = $3 where tag = $1
             returning id, tag, variant`,
            [tag, JSON.stringify(write.data), at],
          );
          const row = rows[0];
          if (!row) return { status: 'missing' };
          const details = check(row.variant, write.data);
          if (details) throw new RefusedMetrics(row.variant, details);
          return { status: 'updated', id: row.id, tag: row.tag, data: write.data };
        }
        const rows = await tx.query<{ id: string; tag: string; variant: Variant; data: MetricsData }>(
          `update flows set data = (data - $2::text[]) || $3::jsonb, data_updated_at = $4 where tag = $1
           returning id, tag, variant, data`,
          [tag, write.remove, JSON.stringify(write.set), at],
        );
        const row = rows[0];
        if (!row) return { status: 'missing' };
        const details = check(row.variant, row.data);
        if (details) throw new RefusedMetrics(row.variant, details);
        return { status: 'updated', id: row.id, tag: row.tag, data: row.data };
      });
    } catch (error) {
      if (error instanceof RefusedMetrics) {
        return { status: 'invalid', variant: error.variant, details: error.details };
      }
      throw error;
    }
  }
}
