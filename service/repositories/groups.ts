import type { Group, GroupCreate, GroupUpdate } from '../../src/shared/group';
import type { Queryable } from '../db/database';
import { lockRows } from '../db/dialect';
import { conflict, invalid } from '../domain/errors';
import { newId } from '../ids';
import { currentVisibility } from '../visibility/scope';
import { refusing } from './refusals';
import { isoRequired } from './rows';
import { everySetting, settingsFromRow, settingsToRow, type SettingsRow } from './setting-columns';

const COLUMNS = [
  'id',
  'name',
  'playlist_id',
  'schedule',
  'power',
  'rotation',
  'time_zone',
  'created_at',
  'updated_at',
] as const;

interface GroupRow extends SettingsRow {
  id: string;
  name: string;
  created_at: Date | string;
  updated_at: Date | string;
}

function fromRow(row: GroupRow): Group {
  return {
    id: row.id,
    name: row.name,
    ...settingsFromRow(row),
    created_at: isoRequired(row.created_at),
    updated_at: isoRequired(row.updated_at),
  };
}

const nameTaken = (name: string) =>
  conflict(`a group named "${name}" already exists`, [
    { path: 'body.name', message: 'is already used by another group' },
  ]);

/** The playlist was deleted between the action's check and the write. */
const playlistGone = (id: string | null | undefined) => () =>
  invalid(`playlist ${id ?? ''} does not exist`, [
    { path: 'body.playlist_id', message: 'must name an existing playlist' },
  ]);

/** Groups of screens (migration 8), by name. */
export class GroupRepository {
  constructor(private readonly db: Queryable) {}

  async list(): Promise<Group[]> {
    const rows = await this.db.kysely.selectFrom('groups').select(COLUMNS).orderBy('name').execute();
    const visible = await currentVisibility(this.db);
    return rows.map(fromRow).filter((group) => visible.group(group.id));
  }

  async find(id: string): Promise<Group | null> {
    if (!(await currentVisibility(this.db)).group(id)) return null;
    const row = await this.db.kysely
      .selectFrom('groups')
      .select(COLUMNS)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? fromRow(row) : null;
  }

  /**
   * Whether the group exists, its row locked until the transaction ends on PostgreSQL (SQLite
   * has one writer): a screen is not put in a group that a delete is taking away.
   */
  async lock(id: string): Promise<boolean> {
    const { kind, kysely } = this.db;
    const row = await lockRows(
      kind,
      kysely.selectFrom('groups').select('id').where('id', '=', id),
    ).executeTakeFirst();
    return row !== undefined;
  }

  /** A conflict for a taken name. */
  async create(input: GroupCreate, at: Date): Promise<Group> {
    const now = at.toISOString();
    const insert = this.db.kysely
      .insertInto('groups')
      .values({
        id: newId('grp'),
        name: input.name,
        ...settingsToRow(everySetting(input)),
        created_at: now,
        updated_at: now,
      })
      .returning(COLUMNS)
      .executeTakeFirstOrThrow();
    return fromRow(
      await refusing(insert, {
        unique: () => nameTaken(input.name),
        foreignKey: playlistGone(input.playlist_id),
      }),
    );
  }

  /** Null when there is no such group; what the patch leaves out is left as it is. */
  async update(id: string, patch: GroupUpdate, at: Date): Promise<Group | null> {
    const update = this.db.kysely
      .updateTable('groups')
      .set({ name: patch.name, ...settingsToRow(patch), updated_at: at.toISOString() })
      .where('id', '=', id)
      .returning(COLUMNS)
      .executeTakeFirst();
    const row = await refusing(update, {
      unique: () => nameTaken(patch.name ?? ''),
      foreignKey: playlistGone(patch.playlist_id),
    });
    return row ? fromRow(row) : null;
  }

  /** Its screens are left in no group through the foreign key (on delete set null). */
  async delete(id: string): Promise<boolean> {
    const result = await this.db.kysely.deleteFrom('groups').where('id', '=', id).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  /** The tags of the group's screens, sorted. */
  async memberTags(id: string): Promise<string[]> {
    const rows = await this.db.kysely
      .selectFrom('devices')
      .select('tag')
      .where('group_id', '=', id)
      .orderBy('tag')
      .execute();
    return rows.map((row) => row.tag);
  }
}
