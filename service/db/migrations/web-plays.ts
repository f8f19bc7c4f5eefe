import { sql } from 'kysely';
import type { Queryable } from '../database';
import { columnTypes } from '../column-types';

/** Every play type (src/shared/play.ts), `web` new with web pages in playlists (issue 18). */
const PLAY_TYPES = ['board', 'image', 'video', 'web'];
const typeCheck = sql`type in (${sql.join(PLAY_TYPES.map((type) => sql.lit(type)))})`;

/**
 * Part of version 9: the `plays.type` check takes `web`. PostgreSQL replaces the constraint
 * (named by the store after its column); SQLite cannot alter a check, so the table is made again
 * with it, its rows copied and its indexes made anew, as SQLite's documentation prescribes
 * (nothing references plays).
 */
export async function allowWebPlays({ kysely, kind }: Queryable): Promise<void> {
  if (kind === 'postgres') {
    await sql`alter table plays drop constraint plays_type_check, add constraint plays_type_check check (${typeCheck})`.execute(
      kysely,
    );
    return;
  }
  const t = columnTypes(kind);
  const { schema } = kysely;
  await schema
    .createTable('plays_next')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('device_id', 'text', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull().check(typeCheck))
    .addColumn('board_id', 'text')
    .addColumn('url', 'text')
    .addColumn('channel_id', 'text')
    .addColumn('started_at', t.timestamp, (c) => c.notNull())
    .addColumn('ended_at', t.timestamp, (c) => c.notNull())
    .addColumn('received_at', t.timestamp, t.stamped)
    .execute();
  await sql`insert into plays_next (id, device_id, type, board_id, url, channel_id, started_at, ended_at, received_at)
    select id, device_id, type, board_id, url, channel_id, started_at, ended_at, received_at from plays`.execute(
    kysely,
  );
  await schema.dropTable('plays').execute();
  await schema.alterTable('plays_next').renameTo('plays').execute();
  await schema.createIndex('plays_device').on('plays').columns(['device_id', 'started_at']).execute();
  await schema.createIndex('plays_started').on('plays').column('started_at').execute();
}
