import { sql } from 'kysely';
import type { Queryable } from '../database';
import { columnTypes } from '../column-types';
import { allowWakeCommands } from './wake-command';

/**
 * Version 8: groups of screens, and what a screen plays and how (src/shared/group.ts).
 *
 * A group's and a screen's `playlist_id`, `schedule` (JSON), `power` (JSON), `rotation` and
 * `time_zone` are each null when not set there: the screen's own setting wins over its group's,
 * and the group's over the default (service/domain/screen-settings.ts). Deleting a playlist
 * clears the groups' `playlist_id` as it clears the devices' (on delete set null); deleting a
 * group leaves its screens in none. `reported_time_zone` is what the screen's last heartbeat
 * said its system's zone is, where its schedules are read when no zone is set. The commands
 * take `wake` (a screen woken from a power window: wake-command.ts).
 */
export async function schedules({ kysely, kind }: Queryable): Promise<void> {
  const t = columnTypes(kind);
  const { schema } = kysely;
  await schema
    .createTable('groups')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('playlist_id', 'text', (c) => c.references('playlists.id').onDelete('set null'))
    .addColumn('schedule', t.json)
    .addColumn('power', t.json)
    .addColumn('rotation', 'integer', (c) => c.check(sql`rotation in (0, 90, 180, 270)`))
    .addColumn('time_zone', 'text')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await schema.createIndex('groups_playlist').on('groups').column('playlist_id').execute();

  // One statement per column: SQLite adds one column per `alter table`.
  const columns = [
    schema
      .alterTable('devices')
      .addColumn('group_id', 'text', (c) => c.references('groups.id').onDelete('set null')),
    schema.alterTable('devices').addColumn('schedule', t.json),
    schema.alterTable('devices').addColumn('power', t.json),
    schema
      .alterTable('devices')
      .addColumn('rotation', 'integer', (c) => c.check(sql`rotation in (0, 90, 180, 270)`)),
    schema.alterTable('devices').addColumn('time_zone', 'text'),
    schema.alterTable('devices').addColumn('reported_time_zone', 'text'),
  ];
  for (const column of columns) await column.execute();
  await schema.createIndex('devices_group').on('devices').column('group_id').execute();
  await schema.createIndex('devices_playlist').on('devices').column('playlist_id').execute();
  await allowWakeCommands({ kysely, kind });
}
