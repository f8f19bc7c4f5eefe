// Its default export: Node's own loader of a CommonJS package sees no named exports in this one.
import jsonPatch, { type Operation } from 'fast-json-patch';
import type { Flow } from '../../src/shared/flow';
import { toFieldIssues, type FieldIssue } from '../../src/shared/issues';
import { metricsDataSchema, type MetricsData } from '../../src/shared/metrics';
import type { Variant } from '../../src/shared/variants';
import { transact, type Queryable } from '../db/database';
import { flag, fromJson, fromJsonOrNull, lockRows, toJson } from '../db/dialect';
import { conflict, invalid } from '../domain/errors';
import { newId } from '../ids';
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

/** How a metrics write changes the stored data. */
export type MetricsWrite =
  | { kind: 'replace'; data: MetricsData }
  /** Top-level keys of `set` overwrite, keys in `remove` go. */
  | { kind: 'merge'; set: MetricsData; remove: string[] }
  /**
   * RFC 6902 operations applied in turn to the stored data (the original's JSON Patch batches);
   * `at` is where they are in the request, for the path of a refusal.
   */
  | { kind: 'patch'; operations: Operation[]; at: string };

/** Checks the data a write would leave against the flow's variant; issues refuse the write. */
export type MetricsCheck = (variant: Variant, data: MetricsData) => FieldIssue[] | null;

export type MetricsWriteResult =
  | { status: 'updated'; id: string; tag: string; data: MetricsData }
  | { status: 'missing' }
  | { status: 'invalid'; variant: Variant; details: FieldIssue[] };

/** JSON Patch operations that cannot be applied to the data: the one that failed, and why. */
class PatchRefused extends Error {
  constructor(readonly issues: FieldIssue[]) {
    super(issues[0]?.message ?? 'refused');
  }
}

/** `operations` applied to a copy of `current`; PatchRefused when one cannot be (a failed `test`, a missing path). */
function patched(
  current: MetricsData,
  { operations, at }: Extract<MetricsWrite, { kind: 'patch' }>,
): MetricsData {
  try {
    const result: unknown = jsonPatch.applyPatch(current, operations, true, false).newDocument;
    // What the operations leave is held to what any write may store (an object, the storage limits).
    const shape = metricsDataSchema.safeParse(result);
    if (shape.success) return shape.data;
    throw new PatchRefused(
      toFieldIssues(shape.error).map(({ path, message }) => ({ path: path ? `${at}.${path}` : at, message })),
    );
  } catch (error) {
    if (error instanceof PatchRefused) throw error;
    const index = error instanceof jsonPatch.JsonPatchError ? error.index : undefined;
    const message = error instanceof Error ? (error.message.split('\n')[0] ?? 'refused') : 'refused';
    throw new PatchRefused([{ path: index === undefined ? at : `${at}.${index}`, message }]);
  }
}

/**
 * The data a write leaves: a merge replaces each top-level key it sets whole (no deep merge); a
 * patch applies its operations (PatchRefused when one cannot be).
 */
function written(current: MetricsData, write: MetricsWrite): MetricsData {
  if (write.kind === 'replace') return write.data;
  if (write.kind === 'patch') return patched(current, write);
  const removed = new Set(write.remove);
  const kept = Object.entries(current).filter(([key]) => !removed.has(key));
  return { ...Object.fromEntries(kept), ...write.set };
}

export class FlowRepository {
  constructor(private readonly db: Queryable) {}

  async list(): Promise<Flow[]> {
    const rows = await this.db.kysely
      .selectFrom('flows')
      .select(COLUMNS)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(fromRow);
  }

  async get(id: string): Promise<Flow | null> {
    const row = await this.db.kysely
      .selectFrom('flows')
      .select(COLUMNS)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? fromRow(row) : null;
  }

  async getByTag(tag: string): Promise<Flow | null> {
    const row = await this.db.kysely
      .selectFrom('flows')
      .select(COLUMNS)
      .where('tag', '=', tag)
      .executeTakeFirst();
    return row ? fromRow(row) : null;
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
    return row ? fromRow(row) : null;
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
    const row = await this.db.kysely
      .selectFrom('flows')
      .select('data')
      .where('tag', '=', tag)
      .executeTakeFirst();
    return row ? fromJson<MetricsData>(row.data) : null;
  }

  /**
   * The hot path: the flow is read by tag under its row's lock (its variant, and its data when
   * merging), the data the write leaves is checked against the variant, and only data that fits
   * is written; a refusal writes nothing. In a transaction of its own, or in the caller's (a
   * batch of many flows). Nothing is cached, so renamed, deleted or recreated flows are always
   * seen as they are.
   */
  async writeData(
    tag: string,
    write: MetricsWrite,
    at: Date,
    check: MetricsCheck,
  ): Promise<MetricsWriteResult> {
    return transact(this.db, async ({ kind, kysely }): Promise<MetricsWriteResult> => {
      const row = await lockRows(
        kind,
        kysely
          .selectFrom('flows')
          .select(['id', 'tag', 'variant'])
          // A replacement needs not read what it replaces.
          .$if(write.kind !== 'replace', (query) => query.select('data'))
          .where('tag', '=', tag),
      ).executeTakeFirst();
      if (!row) return { status: 'missing' };
      let data: MetricsData;
      try {
        data = written(row.data === undefined ? {} : fromJson<MetricsData>(row.data), write);
      } catch (error) {
        if (!(error instanceof PatchRefused)) throw error;
        return { status: 'invalid', variant: row.variant, details: error.issues };
      }
      const details = check(row.variant, data);
      if (details) return { status: 'invalid', variant: row.variant, details };
      await kysely
        .updateTable('flows')
        .set({ data: toJson(data), data_updated_at: at.toISOString() })
        .where('id', '=', row.id)
        .execute();
      return { status: 'updated', id: row.id, tag: row.tag, data };
    });
  }
}
