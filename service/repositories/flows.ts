import { sql } from 'kysely';
import type { Flow } from '../../src/shared/flow';
import type { MetricsData } from '../../src/shared/metrics';
import type { Variant } from '../../src/shared/variants';
import { transact, type Queryable } from '../db/database';
import { flag, fromJson, fromJsonOrNull, jsonValue, lockRows, toJson } from '../db/dialect';
import { conflict, invalid } from '../domain/errors';
import { newId } from '../ids';
import { currentVisibility } from '../visibility/scope';
import { refusing } from './refusals';
import { isoRequired, setsNothing } from './rows';

/** Everything but `data`, which is served by the metrics routes and may be large. */
const COLUMNS = [
  'id',
  'type',
  'variant',
  'tag',
  'errored',
  'enabled',
  'channel_id',
  'source',
  'parameters',
  'created_at',
] as const;

interface FlowRow {
  id: string;
  type: Flow['type'];
  variant: Variant;
  tag: string;
  errored: boolean | number;
  enabled: boolean | number;
  channel_id: string | null;
  source: string | null;
  parameters: string | null;
  created_at: Date | string;
}

function fromRow(row: FlowRow): Flow {
  return {
    id: row.id,
    embed_id: row.id,
    type: row.type,
    variant: row.variant,
    tag: row.tag,
    errored: flag(row.errored),
    enabled: flag(row.enabled),
    channel_id: row.channel_id,
    source: row.source,
    parameters: fromJsonOrNull<Record<string, unknown>>(row.parameters),
    created_at: isoRequired(row.created_at),
  };
}

const flowTagTaken = (tag: string) => conflict(`a flow with tag "${tag}" already exists`);

export const unknownChannel = (id: string) =>
  invalid(`channel ${id} does not exist`, [
    { path: 'body.channel_id', message: `no channel has the id "${id}"` },
  ]);

/** A flow write's refusals: its tag taken, or its channel gone between a check and the write. */
const refusals = (tag: string | undefined, channelId: string | null | undefined) => ({
  unique: tag === undefined ? undefined : () => flowTagTaken(tag),
  foreignKey: channelId ? () => unknownChannel(channelId) : undefined,
});

const jsonOrNull = (value: Record<string, unknown> | null | undefined) =>
  value === undefined ? undefined : value === null ? null : toJson(value);

export type NewFlow = Omit<Flow, 'id' | 'embed_id' | 'errored' | 'created_at'> & { created_at: Date };

export type FlowPatch = Partial<
  Pick<Flow, 'tag' | 'channel_id' | 'errored' | 'source' | 'parameters' | 'enabled'>
>;

/** A flow read under its row's lock for a write of its metrics. */
export interface LockedFlow {
  id: string;
  tag: string;
  variant: Variant;
  /** `{}` when read without its data. */
  data: MetricsData;
}

/** Flows named per statement at most (a bound well below either store's parameter limit). */
const KEY_CHUNK = 500;

export class FlowRepository {
  constructor(private readonly db: Queryable) {}

  async list(): Promise<Flow[]> {
    const rows = await this.db.kysely
      .selectFrom('flows')
      .select(COLUMNS)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    const visible = await currentVisibility(this.db);
    return rows.map(fromRow).filter((flow) => visible.flow(flow.id));
  }

  async get(id: string): Promise<Flow | null> {
    if (!(await currentVisibility(this.db)).flow(id)) return null;
    const row = await this.db.kysely
      .selectFrom('flows')
      .select(COLUMNS)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? fromRow(row) : null;
  }

  async getByTag(tag: string): Promise<Flow | null> {
    if (!(await currentVisibility(this.db)).flowTag(tag)) return null;
    const row = await this.db.kysely
      .selectFrom('flows')
      .select(COLUMNS)
      .where('tag', '=', tag)
      .executeTakeFirst();
    return row ? fromRow(row) : null;
  }

  /** The channel of each of the flows with these tags that there is: its id, or null for none. */
  async channelsOf(tags: readonly string[]): Promise<Map<string, string | null>> {
    const rows = await this.db.kysely
      .selectFrom('flows')
      .select(['tag', 'channel_id'])
      .where('tag', 'in', [...new Set(tags)])
      .execute();
    return new Map(rows.map(({ tag, channel_id }) => [tag, channel_id]));
  }

  /**
   * The flow named by `key`, as the original product's clients name one: its id (or embed id,
   * the same) or its tag. One read; `prefer` decides when one flow's tag is another's id.
   */
  async find(key: string, prefer: 'id' | 'tag'): Promise<Flow | null> {
    const rows = await this.db.kysely
      .selectFrom('flows')
      .select(COLUMNS)
      .where((eb) => eb.or([eb('id', '=', key), eb('tag', '=', key)]))
      .limit(2)
      .execute();
    const row = rows.find((candidate) => candidate[prefer] === key) ?? rows[0];
    // The flow the key names, which a device-bound token may not see: then none, not another.
    return row && (await currentVisibility(this.db)).flow(row.id) ? fromRow(row) : null;
  }

  /** A conflict when the tag is taken, invalid when the channel is gone. `data` seeds its metrics. */
  async create(input: NewFlow, data: MetricsData = {}): Promise<Flow> {
    const createdAt = input.created_at.toISOString();
    const insert = this.db.kysely
      .insertInto('flows')
      .values({
        id: newId('fl'),
        type: input.type,
        variant: input.variant,
        tag: input.tag,
        enabled: input.enabled,
        channel_id: input.channel_id,
        source: input.source,
        parameters: jsonOrNull(input.parameters) ?? null,
        created_at: createdAt,
        data: toJson(data),
        data_updated_at: Object.keys(data).length > 0 ? createdAt : null,
      })
      .returning(COLUMNS)
      .executeTakeFirstOrThrow();
    return fromRow(await refusing(insert, refusals(input.tag, input.channel_id)));
  }

  /**
   * Applies a patch in one transaction; `derive` sees the flow as it is (locked) and may add
   * fields computed from it. Null when there is no such flow; refused as `create` is.
   */
  async update(id: string, derive: (current: Flow) => FlowPatch): Promise<Flow | null> {
    return transact(this.db, async ({ kind, kysely }) => {
      const row = await lockRows(
        kind,
        kysely.selectFrom('flows').select(COLUMNS).where('id', '=', id),
      ).executeTakeFirst();
      if (!row) return null;
      const patch = derive(fromRow(row));
      const set = {
        tag: patch.tag,
        channel_id: patch.channel_id,
        errored: patch.errored,
        source: patch.source,
        parameters: jsonOrNull(patch.parameters),
        enabled: patch.enabled,
      };
      if (setsNothing(set)) return fromRow(row);
      const updated = kysely
        .updateTable('flows')
        .set(set)
        .where('id', '=', id)
        .returning(COLUMNS)
        .executeTakeFirstOrThrow();
      return fromRow(await refusing(updated, refusals(patch.tag, patch.channel_id)));
    });
  }

  /** Deletes the flow (its widgets go by cascade); the boards that showed it, or null when unknown. */
  async delete(id: string): Promise<{ boardIds: string[] } | null> {
    return transact(this.db, async ({ kysely }) => {
      const boards = await kysely
        .selectFrom('widgets')
        .select('board_id')
        .distinct()
        .where('flow_id', '=', id)
        .orderBy('board_id')
        .execute();
      const deleted = await kysely.deleteFrom('flows').where('id', '=', id).executeTakeFirst();
      return deleted.numDeletedRows > 0n ? { boardIds: boards.map((b) => b.board_id) } : null;
    });
  }

  async setErrored(tag: string, errored: boolean): Promise<Flow | null> {
    const row = await this.db.kysely
      .updateTable('flows')
      .set({ errored })
      .where('tag', '=', tag)
      .returning(COLUMNS)
      .executeTakeFirst();
    return row ? fromRow(row) : null;
  }

  /** The flow's metrics, or null when there is no such flow. */
  async readData(tag: string): Promise<MetricsData | null> {
    if (!(await currentVisibility(this.db)).flowTag(tag)) return null;
    const row = await this.db.kysely
      .selectFrom('flows')
      .select('data')
      .where('tag', '=', tag)
      .executeTakeFirst();
    return row ? fromJson<MetricsData>(row.data) : null;
  }

  /**
   * The flows named by `tags` (and by `ids`), each under its row's lock until the transaction ends
   * (the caller's: the write of metrics, actions/write-metrics.ts), with its data when `withData`
   * (replacements need not read what they replace). Rows are locked in the order of their tags, so
   * two writers naming the same flows wait for each other rather than deadlock. Nothing is cached,
   * so renamed, deleted or recreated flows are always seen as they are.
   */
  async lockForData(
    tags: readonly string[],
    ids: readonly string[],
    withData: boolean,
  ): Promise<LockedFlow[]> {
    const locked: LockedFlow[] = [];
    const named = [...new Set(tags)].sort();
    // Flows named by id come from single writes, a few at most: all in the first statement.
    const byId = [...new Set(ids)];
    for (let start = 0; start === 0 || start < named.length; start += KEY_CHUNK) {
      const someTags = named.slice(start, start + KEY_CHUNK);
      const someIds = start === 0 ? byId : [];
      if (someTags.length === 0 && someIds.length === 0) break;
      const rows = await lockRows(
        this.db.kind,
        this.db.kysely
          .selectFrom('flows')
          .select(['id', 'tag', 'variant'])
          .$if(withData, (query) => query.select('data'))
          .where((eb) =>
            eb.or([
              ...(someTags.length > 0 ? [eb('tag', 'in', someTags)] : []),
              ...(someIds.length > 0 ? [eb('id', 'in', someIds)] : []),
            ]),
          )
          .orderBy('tag'),
      ).execute();
      for (const row of rows) {
        locked.push({ ...row, data: row.data === undefined ? {} : fromJson<MetricsData>(row.data) });
      }
    }
    return locked;
  }

  /** Stores each flow's metrics, written at `at`: one statement for up to KEY_CHUNK flows. */
  async storeData(written: ReadonlyMap<string, MetricsData>, at: Date): Promise<void> {
    const entries = [...written];
    for (let start = 0; start < entries.length; start += KEY_CHUNK) {
      const some = entries.slice(start, start + KEY_CHUNK);
      const cases = some.map(([id, data]) => sql`when ${id} then ${jsonValue(this.db.kind, toJson(data))}`);
      await this.db.kysely
        .updateTable('flows')
        .set({
          data: sql<string>`case ${sql.ref('id')} ${sql.join(cases, sql` `)} end`,
          data_updated_at: at.toISOString(),
        })
        .where(
          'id',
          'in',
          some.map(([id]) => id),
        )
        .execute();
    }
  }
}
