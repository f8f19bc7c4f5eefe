import { sql, type ColumnDefinitionBuilder } from 'kysely';
import { DEFAULT_ACCOUNT_ID } from '../../accounts/scope';
import { columnTypes } from '../column-types';
import type { Queryable } from '../database';

/** As migration 11 gave every table before it (accounts/account-plugin.ts fills it). */
const accountColumn = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(DEFAULT_ACCOUNT_ID);

/**
 * Version 28: sync groups and walls (docs/sync.md). `sync_groups` holds each group's timeline
 * (`epoch`) and, when its screens make a wall, its size and bezels (all wall columns set, or
 * none); `sync_group_members` puts a screen in at most one group, at one cell of its wall. A
 * deleted screen or group takes its memberships with it.
 */
export async function syncGroups({ kysely, kind }: Queryable): Promise<void> {
  const t = columnTypes(kind);
  await kysely.schema
    .createTable('sync_groups')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('wall_columns', 'integer')
    .addColumn('wall_rows', 'integer')
    .addColumn('screen_width_mm', 'double precision')
    .addColumn('screen_height_mm', 'double precision')
    .addColumn('bezel_x_mm', 'double precision')
    .addColumn('bezel_y_mm', 'double precision')
    .addColumn('epoch', t.timestamp, (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addColumn('account_id', 'text', accountColumn)
    .addCheckConstraint(
      'sync_groups_wall_whole',
      sql`(wall_columns is null) = (wall_rows is null) and (wall_columns is null) = (screen_width_mm is null)
        and (wall_columns is null) = (screen_height_mm is null) and (wall_columns is null) = (bezel_x_mm is null)
        and (wall_columns is null) = (bezel_y_mm is null)`,
    )
    .execute();
  await kysely.schema
    .createIndex('sync_groups_account_name')
    .on('sync_groups')
    .columns(['account_id', 'name'])
    .unique()
    .execute();
  await kysely.schema
    .createTable('sync_group_members')
    .addColumn('device_id', 'text', (c) => c.primaryKey().references('devices.id').onDelete('cascade'))
    .addColumn('sync_group_id', 'text', (c) => c.notNull().references('sync_groups.id').onDelete('cascade'))
    .addColumn('wall_column', 'integer')
    .addColumn('wall_row', 'integer')
    .addColumn('account_id', 'text', accountColumn)
    .addCheckConstraint('sync_group_members_cell', sql`(wall_column is null) = (wall_row is null)`)
    .execute();
  // One screen a cell.
  await kysely.schema
    .createIndex('sync_group_members_cell')
    .on('sync_group_members')
    .columns(['sync_group_id', 'wall_column', 'wall_row'])
    .unique()
    .where(sql.ref('wall_column'), 'is not', null)
    .execute();
}
