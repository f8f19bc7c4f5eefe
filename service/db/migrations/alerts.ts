import { sql, type ColumnDefinitionBuilder } from 'kysely';
import { DEFAULT_ACCOUNT_ID } from '../../accounts/scope';
import type { Queryable } from '../database';
import { columnTypes } from '../column-types';

const inList = (column: string, values: readonly string[]) =>
  sql`${sql.ref(column)} in (${sql.join(values.map((value) => sql.lit(value)))})`;

/** As migration 11 gave every table before it (accounts/account-plugin.ts fills it). */
const accountColumn = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(DEFAULT_ACCOUNT_ID);

/**
 * Version 15: offline alerts (docs/alerts.md). Each row is an account's; what hangs from a rule,
 * a destination or a group goes with it.
 *
 * - `alert_destinations`: where messages go. A webhook's secret is kept as it is: signing needs it.
 * - `alert_rules` and `alert_rule_destinations`: which screens are watched, after how long, and
 *   where each rule sends. A group's rules go with the group.
 * - `alerts`: the incidents, each naming its screens (JSON `[{tag, name}]`); screens that fall
 *   within `gather_until` of the first join it, so a power cut is one message.
 * - `alert_deliveries`: one per incident, destination and phase (the alert, then the recovery),
 *   with its attempts and the time of the next one, so retries outlive a restart and the node
 *   that leads (cluster/leases.ts) picks them up.
 */
export async function alerts({ kysely, kind }: Queryable): Promise<void> {
  const t = columnTypes(kind);
  const { schema } = kysely;

  await schema
    .createTable('alert_destinations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) =>
      c.notNull().check(inList('kind', ['webhook', 'email', 'slack', 'teams'])),
    )
    .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('url', 'text')
    .addColumn('recipients', t.json)
    .addColumn('secret', 'text')
    .addColumn('created_at', t.timestamp, t.stamped)
    .addColumn('account_id', 'text', accountColumn)
    .execute();
  await schema
    .createIndex('alert_destinations_account')
    .on('alert_destinations')
    .column('account_id')
    .execute();

  await schema
    .createTable('alert_rules')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('event', 'text', (c) => c.notNull().check(inList('event', ['device.offline'])))
    .addColumn('after_seconds', 'integer', (c) => c.notNull())
    // Neither set: every screen of the account.
    .addColumn('target_group_id', 'text', (c) => c.references('groups.id').onDelete('cascade'))
    .addColumn('target_device_tag', 'text')
    .addColumn('created_at', t.timestamp, t.stamped)
    .addColumn('account_id', 'text', accountColumn)
    .addCheckConstraint('alert_rules_one_target', sql`target_group_id is null or target_device_tag is null`)
    .execute();
  await schema.createIndex('alert_rules_account').on('alert_rules').column('account_id').execute();

  await schema
    .createTable('alert_rule_destinations')
    .addColumn('rule_id', 'text', (c) => c.notNull().references('alert_rules.id').onDelete('cascade'))
    .addColumn('destination_id', 'text', (c) =>
      c.notNull().references('alert_destinations.id').onDelete('cascade'),
    )
    .addColumn('account_id', 'text', accountColumn)
    .addPrimaryKeyConstraint('alert_rule_destinations_key', ['rule_id', 'destination_id'])
    .execute();
  await schema
    .createIndex('alert_rule_destinations_destination')
    .on('alert_rule_destinations')
    .column('destination_id')
    .execute();

  await schema
    .createTable('alerts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('rule_id', 'text', (c) => c.notNull().references('alert_rules.id').onDelete('cascade'))
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(inList('status', ['firing', 'resolved'])))
    .addColumn('devices', t.json, (c) => c.notNull())
    .addColumn('started_at', t.timestamp, (c) => c.notNull())
    .addColumn('gather_until', t.timestamp, (c) => c.notNull())
    .addColumn('resolved_at', t.timestamp)
    .addColumn('account_id', 'text', accountColumn)
    .execute();
  // Each pass reads a rule's firing and recently resolved incidents.
  await schema
    .createIndex('alerts_rule')
    .on('alerts')
    .columns(['rule_id', 'status', 'resolved_at'])
    .execute();
  await schema
    .createIndex('alerts_account_started')
    .on('alerts')
    .columns(['account_id', 'started_at'])
    .execute();

  await schema
    .createTable('alert_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('alert_id', 'text', (c) => c.notNull().references('alerts.id').onDelete('cascade'))
    .addColumn('destination_id', 'text', (c) =>
      c.notNull().references('alert_destinations.id').onDelete('cascade'),
    )
    .addColumn('phase', 'text', (c) => c.notNull().check(inList('phase', ['firing', 'resolved'])))
    .addColumn('status', 'text', (c) =>
      c.notNull().check(inList('status', ['pending', 'delivered', 'failed'])),
    )
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', t.timestamp)
    .addColumn('delivered_at', t.timestamp)
    .addColumn('last_error', 'text')
    .addColumn('created_at', t.timestamp, t.stamped)
    .addColumn('account_id', 'text', accountColumn)
    .addUniqueConstraint('alert_deliveries_once', ['alert_id', 'destination_id', 'phase'])
    .execute();
  // The pass looks for the pending ones that are due.
  await schema
    .createIndex('alert_deliveries_due')
    .on('alert_deliveries')
    .columns(['status', 'next_attempt_at'])
    .execute();
}
