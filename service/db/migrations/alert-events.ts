import { sql } from 'kysely';
import { DEFAULT_ACCOUNT_ID } from '../../accounts/scope';
import type { Queryable } from '../database';
import { columnTypes } from '../column-types';

/** The events of alert rules from this version on (src/shared/alert.ts, ALERT_EVENTS). */
const EVENTS = ['device.offline', 'device.failing', 'script.failing', 'node.unwritable'] as const;

const eventCheck = sql`event in (${sql.join(EVENTS.map((event) => sql.lit(event)))})`;

/** At most one target column set; none: every screen, script or node of the account. */
const oneTarget = sql`(case when target_group_id is null then 0 else 1 end)
  + (case when target_device_tag is null then 0 else 1 end)
  + (case when target_script_id is null then 0 else 1 end) <= 1`;

/** script.failing counts failed runs (`failures`); every other event counts time (`after_seconds`). */
const fieldsOfEvent = sql`case when event = 'script.failing'
  then failures is not null and after_seconds is null
  else after_seconds is not null and failures is null end`;

/** The columns migration 15 gave `alert_rules`, copied as they are. */
const KEPT = [
  'id',
  'event',
  'after_seconds',
  'target_group_id',
  'target_device_tag',
  'created_at',
  'account_id',
] as const;

/**
 * Version 18: alert rules of more events than `device.offline` (docs/alerts.md).
 *
 * - `alert_rules.event` takes the four events. Its CHECK named one: PostgreSQL drops it and adds
 *   the new one; SQLite cannot alter a CHECK, so the table is made again and its rows copied (the
 *   migration runs with the foreign keys off, or dropping the old table would cascade to the
 *   incidents and destinations that name its rules; the runner checks every row against them
 *   before it commits).
 * - `after_seconds` may be null: `script.failing` counts failed runs in a row instead, in the new
 *   `failures`. `target_script_id` names the one script a rule watches, and goes with it.
 * - `alerts.scripts` and `alerts.node`: what an incident of a script or a node names (JSON), as
 *   `alerts.devices` names its screens.
 */
export async function alertEvents(db: Queryable): Promise<void> {
  if (db.kind === 'postgres') await rulesPostgres(db);
  else await rulesSqlite(db);
  const t = columnTypes(db.kind);
  await db.kysely.schema
    .createIndex('alert_rules_script')
    .on('alert_rules')
    .column('target_script_id')
    .execute();
  await db.kysely.schema.alterTable('alerts').addColumn('scripts', t.json).execute();
  await db.kysely.schema.alterTable('alerts').addColumn('node', t.json).execute();
}

async function rulesPostgres({ kysely }: Queryable): Promise<void> {
  // The column's CHECK of migration 15, whatever name PostgreSQL gave it.
  const { rows } = await sql<{ name: string }>`
    select con.conname as name from pg_constraint con
    join pg_class rel on rel.oid = con.conrelid
    join pg_attribute att on att.attrelid = rel.oid and att.attnum = con.conkey[1]
    where rel.relname = 'alert_rules' and con.contype = 'c' and cardinality(con.conkey) = 1
      and att.attname = 'event'`.execute(kysely);
  if (rows.length !== 1) throw new Error(`migration 18: alert_rules has ${rows.length} checks of its event`);
  const schema = kysely.schema.alterTable('alert_rules');
  await sql`alter table alert_rules drop constraint ${sql.ref(rows[0]?.name ?? '')}`.execute(kysely);
  await schema.dropConstraint('alert_rules_one_target').execute();
  await schema.alterColumn('after_seconds', (c) => c.dropNotNull()).execute();
  await schema.addColumn('failures', 'integer').execute();
  await schema
    .addColumn('target_script_id', 'text', (c) => c.references('scripts.id').onDelete('cascade'))
    .execute();
  await schema.addCheckConstraint('alert_rules_event', eventCheck).execute();
  await schema.addCheckConstraint('alert_rules_one_target', oneTarget).execute();
  await schema.addCheckConstraint('alert_rules_fields', fieldsOfEvent).execute();
}

/** The table made anew as version 18 has it, the rules copied, then put in the old one's place. */
async function rulesSqlite({ kysely, kind }: Queryable): Promise<void> {
  const t = columnTypes(kind);
  await kysely.schema
    .createTable('alert_rules_next')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('after_seconds', 'integer')
    .addColumn('failures', 'integer')
    .addColumn('target_group_id', 'text', (c) => c.references('groups.id').onDelete('cascade'))
    .addColumn('target_device_tag', 'text')
    .addColumn('target_script_id', 'text', (c) => c.references('scripts.id').onDelete('cascade'))
    .addColumn('created_at', t.timestamp, t.stamped)
    .addColumn('account_id', 'text', (c) => c.notNull().defaultTo(DEFAULT_ACCOUNT_ID))
    .addCheckConstraint('alert_rules_event', eventCheck)
    .addCheckConstraint('alert_rules_one_target', oneTarget)
    .addCheckConstraint('alert_rules_fields', fieldsOfEvent)
    .execute();
  const columns = sql.join(KEPT.map((column) => sql.ref(column)));
  await sql`insert into alert_rules_next (${columns}) select ${columns} from alert_rules`.execute(kysely);
  await kysely.schema.dropTable('alert_rules').execute();
  await kysely.schema.alterTable('alert_rules_next').renameTo('alert_rules').execute();
  // Dropped with the old table.
  await kysely.schema.createIndex('alert_rules_account').on('alert_rules').column('account_id').execute();
}
