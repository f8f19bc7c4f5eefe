import { sql } from 'kysely';
import type { Queryable } from '../database';
import { columnTypes } from '../column-types';

const inList = (column: string, values: readonly string[]) =>
  sql`${sql.ref(column)} in (${sql.join(values.map((value) => sql.lit(value)))})`;

/**
 * Version 4: remote commands, the newest screenshot of each device and proof of play. Each row
 * belongs to its device and goes with it.
 */
export async function commandsAndPlays({ kysely, kind }: Queryable): Promise<void> {
  const t = columnTypes(kind);
  const { schema } = kysely;

  await schema
    .createTable('commands')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('device_id', 'text', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) =>
      c.notNull().check(inList('type', ['reload', 'restart', 'identify', 'screenshot'])),
    )
    .addColumn('status', 'text', (c) =>
      c.notNull().check(inList('status', ['queued', 'delivered', 'done', 'failed'])),
    )
    .addColumn('reason', 'text')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .execute();
  await schema.createIndex('commands_device').on('commands').columns(['device_id', 'created_at']).execute();
  // The expiry pass looks for unfinished commands past their time.
  await schema.createIndex('commands_open').on('commands').columns(['status', 'expires_at']).execute();

  // One per device, the newest: a screen's look now, not an archive of pictures.
  await schema
    .createTable('screenshots')
    .addColumn('device_id', 'text', (c) => c.primaryKey().references('devices.id').onDelete('cascade'))
    .addColumn('png', kind === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('taken_at', t.timestamp, (c) => c.notNull())
    .execute();

  await schema
    .createTable('plays')
    // Given by the device, so that an upload sent twice keeps one record.
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('device_id', 'text', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull().check(inList('type', ['board', 'image', 'video'])))
    .addColumn('board_id', 'text')
    .addColumn('url', 'text')
    .addColumn('channel_id', 'text')
    .addColumn('started_at', t.timestamp, (c) => c.notNull())
    .addColumn('ended_at', t.timestamp, (c) => c.notNull())
    .addColumn('received_at', t.timestamp, t.stamped)
    .execute();
  await schema.createIndex('plays_device').on('plays').columns(['device_id', 'started_at']).execute();
  // The pruning pass drops the oldest of every device.
  await schema.createIndex('plays_started').on('plays').column('started_at').execute();
}
