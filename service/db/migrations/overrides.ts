import { sql, type ColumnDefinitionBuilder } from 'kysely';
import { DEFAULT_ACCOUNT_ID } from '../../accounts/scope';
import type { Queryable } from '../database';
import { columnTypes } from '../column-types';

/** As migration 11 gave every table before it (accounts/account-plugin.ts fills it). */
const accountColumn = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(DEFAULT_ACCOUNT_ID);

/**
 * Version 16: emergency overrides (docs/api/overrides.md). A row is kept when its override is
 * cleared or expires: the table is the audit list of who raised what, where, when, and who cleared
 * it. The target is one of: every screen (neither column), a group, a screen by tag. A group's
 * override is not dropped with the group (the audit keeps it), so the group is not a foreign key.
 */
export async function overrides({ kysely, kind }: Queryable): Promise<void> {
  const t = columnTypes(kind);
  await kysely.schema
    .createTable('overrides')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('image_url', 'text')
    .addColumn('sound_url', 'text')
    .addColumn('background_color', 'text')
    .addColumn('target_group_id', 'text')
    .addColumn('target_device_tag', 'text')
    .addColumn('expires_at', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('cleared_at', t.timestamp)
    .addColumn('cleared_by', 'text')
    .addColumn('account_id', 'text', accountColumn)
    .addCheckConstraint('overrides_one_target', sql`target_group_id is null or target_device_tag is null`)
    .execute();
  // What the screens ask at every state they fetch: the account's overrides not cleared.
  await kysely.schema
    .createIndex('overrides_uncleared')
    .on('overrides')
    .columns(['account_id', 'cleared_at'])
    .execute();
}
