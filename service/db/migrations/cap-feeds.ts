import { sql, type ColumnDefinitionBuilder } from 'kysely';
import { DEFAULT_ACCOUNT_ID } from '../../accounts/scope';
import type { Queryable } from '../database';
import { columnTypes } from '../column-types';

/** As migration 11 gave every table before it (accounts/account-plugin.ts fills it). */
const accountColumn = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(DEFAULT_ACCOUNT_ID);

const SEVERITIES = ['Extreme', 'Severe', 'Moderate', 'Minor', 'Unknown'];

/**
 * Version 19: CAP feeds (docs/api/overrides.md, "CAP feeds"). `cap_feeds` holds what each feed
 * reads and how its last poll went; an override a feed raised names the feed and the CAP
 * `<identifier>` of its alert, so the next poll finds it (once per identifier) and the audit list
 * says where it came from. As for overrides, the target group is no foreign key: a feed whose
 * group is gone records the error at its next poll instead of vanishing unseen. A deleted feed's
 * overrides keep its id, as the audit keeps them.
 */
export async function capFeeds({ kysely, kind }: Queryable): Promise<void> {
  const t = columnTypes(kind);
  await kysely.schema
    .createTable('cap_feeds')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('target_group_id', 'text')
    .addColumn('target_device_tag', 'text')
    .addColumn('min_severity', 'text', (c) =>
      c.notNull().check(sql`min_severity in (${sql.join(SEVERITIES.map((s) => sql.lit(s)))})`),
    )
    .addColumn('areas', t.json, (c) => c.notNull().defaultTo(t.jsonDefault('[]')))
    .addColumn('poll_seconds', 'integer', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('last_polled_at', t.timestamp)
    .addColumn('last_ok_at', t.timestamp)
    .addColumn('last_error', 'text')
    .addColumn('account_id', 'text', accountColumn)
    .addCheckConstraint('cap_feeds_one_target', sql`target_group_id is null or target_device_tag is null`)
    .execute();
  await kysely.schema.createIndex('cap_feeds_account').on('cap_feeds').column('account_id').execute();

  // SQLite adds one column a statement.
  await kysely.schema.alterTable('overrides').addColumn('source_feed_id', 'text').execute();
  await kysely.schema.alterTable('overrides').addColumn('source_cap_identifier', 'text').execute();
  // Each poll reads its feed's overrides.
  await kysely.schema
    .createIndex('overrides_source')
    .on('overrides')
    .columns(['source_feed_id', 'source_cap_identifier'])
    .execute();
}
