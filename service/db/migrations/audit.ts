import { columnTypes } from '../column-types';
import type { Queryable } from '../database';

/**
 * Version 24: the audit trail (docs/audit.md). Its rows are written by the store's triggers in
 * the transaction of each change (audit/triggers.ts, made after every migration by migrate.ts),
 * and by the service for sign-ins (audit/record.ts). Read newest first within an account, by
 * resource, and pruned by age.
 */
export async function audit(db: Queryable): Promise<void> {
  const t = columnTypes(db.kind);
  const { schema } = db.kysely;
  await schema
    .createTable('audit_log')
    .addColumn('seq', t.serialType, t.serial)
    .addColumn('at', t.timestamp, (c) => c.notNull())
    .addColumn('actor_kind', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text', (c) => c.notNull())
    .addColumn('actor_name', 'text', (c) => c.notNull())
    .addColumn('address', 'text')
    .addColumn('resource', 'text', (c) => c.notNull())
    .addColumn('resource_id', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('before', t.json)
    .addColumn('after', t.json)
    .addColumn('account_id', 'text', (c) => c.notNull())
    .execute();
  await schema.createIndex('audit_log_account').on('audit_log').columns(['account_id', 'seq']).execute();
  await schema
    .createIndex('audit_log_resource')
    .on('audit_log')
    .columns(['account_id', 'resource', 'resource_id', 'seq'])
    .execute();
  await schema.createIndex('audit_log_at').on('audit_log').column('at').execute();
}
