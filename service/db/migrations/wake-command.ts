import { sql } from 'kysely';
import type { Queryable } from '../database';
import { columnTypes } from '../column-types';

/** Every command type (src/shared/command.ts), `wake` new with screen power (issue 17). */
const COMMAND_TYPES = ['reload', 'restart', 'identify', 'screenshot', 'wake'];
const typeCheck = sql`type in (${sql.join(COMMAND_TYPES.map((type) => sql.lit(type)))})`;

/**
 * Part of version 8: the `commands.type` check takes `wake`. PostgreSQL replaces the constraint
 * (named by the store after its column); SQLite cannot alter a check, so the table is made again
 * with it and its rows copied, as SQLite's documentation prescribes (nothing references commands).
 */
export async function allowWakeCommands({ kysely, kind }: Queryable): Promise<void> {
  if (kind === 'postgres') {
    await sql`alter table commands drop constraint commands_type_check, add constraint commands_type_check check (${typeCheck})`.execute(
      kysely,
    );
    return;
  }
  const t = columnTypes(kind);
  const { schema } = kysely;
  await schema
    .createTable('commands_next')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('device_id', 'text', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull().check(typeCheck))
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status in ('queued', 'delivered', 'done', 'failed')`),
    )
    .addColumn('reason', 'text')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .execute();
  await sql`insert into commands_next (id, device_id, type, status, reason, created_at, updated_at, expires_at)
    select id, device_id, type, status, reason, created_at, updated_at, expires_at from commands`.execute(
    kysely,
  );
  await schema.dropTable('commands').execute();
  await schema.alterTable('commands_next').renameTo('commands').execute();
  await schema.createIndex('commands_device').on('commands').columns(['device_id', 'created_at']).execute();
  await schema.createIndex('commands_open').on('commands').columns(['status', 'expires_at']).execute();
}
