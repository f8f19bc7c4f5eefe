import { sql } from 'kysely';
import type { Queryable } from '../database';
import { columnTypes } from '../column-types';

/** What a status-history row records (src/shared/device-history.ts). */
const HISTORY_KINDS = ['online', 'offline', 'showing', 'failure', 'recovery'];

/**
 * Version 7: what the console needs of people and screens.
 *
 * `device_history` is a screen's status history, newest first by `seq` (an ever-increasing key:
 * two changes of the same instant keep their order, and paging by it is stable). It goes with its
 * device, and the pruning pass drops what is older than proof of play is kept.
 *
 * `sign_in_codes` are one-time sign-in links (`npm start`, `user link`): only the code's hash is
 * kept, and a code goes with its user.
 */
export async function operators({ kysely, kind }: Queryable): Promise<void> {
  const t = columnTypes(kind);
  const { schema } = kysely;
  await schema
    .createTable('device_history')
    .addColumn('seq', t.serialType, t.serial)
    .addColumn('device_id', 'text', (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('at', t.timestamp, (c) => c.notNull())
    .addColumn('kind', 'text', (c) =>
      c.notNull().check(sql`kind in (${sql.join(HISTORY_KINDS.map((k) => sql.lit(k)))})`),
    )
    .addColumn('detail', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await schema
    .createIndex('device_history_device')
    .on('device_history')
    .columns(['device_id', 'seq'])
    .execute();
  await schema.createIndex('device_history_at').on('device_history').column('at').execute();

  await schema
    .createTable('sign_in_codes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .execute();
}
