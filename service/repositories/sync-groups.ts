import type { Selectable } from 'kysely';
import {
  screenSyncOf,
  type ScreenSync,
  type SyncGroup,
  type SyncGroupCreate,
  type SyncGroupUpdate,
  type SyncMember,
  type Wall,
} from '../../src/shared/sync';
import type { Queryable } from '../db/database';
import type { SyncGroupsTable } from '../db/schema';
import { conflict } from '../domain/errors';
import { newId } from '../ids';
import { refusing } from './refusals';
import { isoRequired } from './rows';

const COLUMNS = [
  'id',
  'name',
  'wall_columns',
  'wall_rows',
  'screen_width_mm',
  'screen_height_mm',
  'bezel_x_mm',
  'bezel_y_mm',
  'epoch',
  'created_at',
  'updated_at',
] as const;

type Row = Pick<Selectable<SyncGroupsTable>, (typeof COLUMNS)[number]>;

function wallOf(row: Row): Wall | null {
  const { wall_columns, wall_rows, screen_width_mm, screen_height_mm, bezel_x_mm, bezel_y_mm } = row;
  if (wall_columns === null || wall_rows === null) return null;
  return {
    columns: Number(wall_columns),
    rows: Number(wall_rows),
    screen_width_mm: Number(screen_width_mm),
    screen_height_mm: Number(screen_height_mm),
    bezel_x_mm: Number(bezel_x_mm),
    bezel_y_mm: Number(bezel_y_mm),
  };
}

function wallToRow(wall: Wall | null) {
  return {
    wall_columns: wall?.columns ?? null,
    wall_rows: wall?.rows ?? null,
    screen_width_mm: wall?.screen_width_mm ?? null,
    screen_height_mm: wall?.screen_height_mm ?? null,
    bezel_x_mm: wall?.bezel_x_mm ?? null,
    bezel_y_mm: wall?.bezel_y_mm ?? null,
  };
}

function fromRow(row: Row): SyncGroup {
  return {
    id: row.id,
    name: row.name,
    wall: wallOf(row),
    epoch: isoRequired(row.epoch),
    created_at: isoRequired(row.created_at),
    updated_at: isoRequired(row.updated_at),
  };
}

const nameTaken = (name: string) =>
  conflict(`a sync group named "${name}" already exists`, [
    { path: 'body.name', message: 'is already used by another sync group' },
  ]);

const cellTaken = (column: number, row: number) =>
  conflict(`another screen of the group is at column ${column}, row ${row}`, [
    { path: 'body.column', message: 'names a cell another screen of the group holds' },
  ]);

/** Sync groups and their screens (migration 28, docs/sync.md). */
export class SyncGroupRepository {
  constructor(private readonly db: Queryable) {}

  async list(): Promise<SyncGroup[]> {
    const rows = await this.db.kysely.selectFrom('sync_groups').select(COLUMNS).orderBy('name').execute();
    return rows.map(fromRow);
  }

  async find(id: string): Promise<SyncGroup | null> {
    const row = await this.db.kysely
      .selectFrom('sync_groups')
      .select(COLUMNS)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? fromRow(row) : null;
  }

  /** A conflict for a taken name. The timeline starts at its creation. */
  async create(input: SyncGroupCreate, at: Date): Promise<SyncGroup> {
    const now = at.toISOString();
    const insert = this.db.kysely
      .insertInto('sync_groups')
      .values({
        id: newId('syn'),
        name: input.name,
        ...wallToRow(input.wall ?? null),
        epoch: now,
        created_at: now,
        updated_at: now,
      })
      .returning(COLUMNS)
      .executeTakeFirstOrThrow();
    return fromRow(await refusing(insert, { unique: () => nameTaken(input.name) }));
  }

  /** Null when there is no such group; `restart` starts its timeline over at `at`. */
  async update(id: string, patch: SyncGroupUpdate, at: Date): Promise<SyncGroup | null> {
    const now = at.toISOString();
    const update = this.db.kysely
      .updateTable('sync_groups')
      .set({
        name: patch.name,
        ...(patch.wall === undefined ? {} : wallToRow(patch.wall)),
        ...(patch.restart ? { epoch: now } : {}),
        updated_at: now,
      })
      .where('id', '=', id)
      .returning(COLUMNS)
      .executeTakeFirst();
    const row = await refusing(update, { unique: () => nameTaken(patch.name ?? '') });
    return row ? fromRow(row) : null;
  }

  /** Its memberships go with it (on delete cascade). */
  async delete(id: string): Promise<boolean> {
    const result = await this.db.kysely.deleteFrom('sync_groups').where('id', '=', id).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  /** The group's screens and their cells, by tag. */
  async members(id: string): Promise<SyncMember[]> {
    const rows = await this.db.kysely
      .selectFrom('sync_group_members as m')
      .innerJoin('devices as d', 'd.id', 'm.device_id')
      .select(['d.tag', 'm.wall_column', 'm.wall_row'])
      .where('m.sync_group_id', '=', id)
      .orderBy('d.tag')
      .execute();
    return rows.map((row) => ({ device_tag: row.tag, column: row.wall_column, row: row.wall_row }));
  }

  /** The sync group a screen is in, or null: the group it left is returned too (to tell its screens). */
  async groupOf(deviceId: string): Promise<string | null> {
    const row = await this.db.kysely
      .selectFrom('sync_group_members')
      .select('sync_group_id')
      .where('device_id', '=', deviceId)
      .executeTakeFirst();
    return row?.sync_group_id ?? null;
  }

  /** Puts a screen in the group at a cell (or none), out of any other sync group; a conflict for a taken cell. */
  async place(groupId: string, deviceId: string, cell: { column: number | null; row: number | null }) {
    await this.db.kysely.deleteFrom('sync_group_members').where('device_id', '=', deviceId).execute();
    const insert = this.db.kysely
      .insertInto('sync_group_members')
      .values({ device_id: deviceId, sync_group_id: groupId, wall_column: cell.column, wall_row: cell.row })
      .execute();
    await refusing(insert, { unique: () => cellTaken(cell.column ?? 0, cell.row ?? 0) });
  }

  /** False when the screen was in no group. */
  async remove(groupId: string, deviceId: string): Promise<boolean> {
    const result = await this.db.kysely
      .deleteFrom('sync_group_members')
      .where('device_id', '=', deviceId)
      .where('sync_group_id', '=', groupId)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  /** What a screen is told of its sync group in its settings (src/shared/sync.ts); null: none. */
  async screenSync(tag: string): Promise<ScreenSync | null> {
    const row = await this.db.kysely
      .selectFrom('sync_group_members as m')
      .innerJoin('devices as d', 'd.id', 'm.device_id')
      .innerJoin('sync_groups as g', 'g.id', 'm.sync_group_id')
      .select(COLUMNS.map((column) => `g.${column}` as const))
      .select(['m.wall_column', 'm.wall_row'])
      .where('d.tag', '=', tag)
      .executeTakeFirst();
    if (!row) return null;
    const group = fromRow(row);
    return screenSyncOf(group, { column: row.wall_column, row: row.wall_row });
  }
}
