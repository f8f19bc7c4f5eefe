import { sql } from 'kysely';
import type { Queryable } from '../database';
import { remakeSqliteTable } from './accounts';

/** At most one of the three names where a notification went; none of them is every screen. */
const ONE_TARGET =
  '((case when channel_id is null then 0 else 1 end)' +
  ' + (case when target_group_id is null then 0 else 1 end)' +
  ' + (case when target_device_tag is null then 0 else 1 end) <= 1)';

/**
 * Version 20: a notification goes to a channel, as before, or to screens (docs/api/notifications.md):
 * every screen of the account (no column set), a group's (`target_group_id`) or one screen
 * (`target_device_tag`). So `channel_id` may be null. The group and the screen are not foreign
 * keys: the history keeps where a notification went after the group or the screen is gone, as the
 * overrides' audit does. Every row before is a channel's, and stays so.
 */
export async function notificationTargets(db: Queryable): Promise<void> {
  const { kysely, kind } = db;
  await kysely.schema.alterTable('notifications').addColumn('target_group_id', 'text').execute();
  await kysely.schema.alterTable('notifications').addColumn('target_device_tag', 'text').execute();
  if (kind === 'postgres') {
    await sql`alter table notifications alter column channel_id drop not null`.execute(kysely);
    await sql`alter table notifications add constraint notifications_one_target check ${sql.raw(ONE_TARGET)}`.execute(
      kysely,
    );
    return;
  }
  // SQLite can neither drop a NOT NULL nor add a check: the table is made again from its
  // definition, edited (nothing names a notification, so the foreign keys may stay on).
  await remakeSqliteTable(db, 'notifications', (create) => {
    const pattern = /("channel_id" text) not null( references "channels")/i;
    if (!pattern.test(create)) throw new Error(`migration 20: "${create}" is not the table it should be`);
    return create
      .replace(pattern, '$1$2')
      .replace(/\)$/, `, constraint "notifications_one_target" check ${ONE_TARGET})`);
  });
}
