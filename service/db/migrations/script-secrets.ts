import type { ColumnDefinitionBuilder } from 'kysely';
import { DEFAULT_ACCOUNT_ID } from '../../accounts/scope';
import type { Queryable } from '../database';
import { columnTypes } from '../column-types';

/** As migration 11 gave every table before it (accounts/account-plugin.ts fills it). */
const accountColumn = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(DEFAULT_ACCOUNT_ID);

/**
 * Version 25: scripts' named secrets (docs/scripts.md#secrets). A value is kept as it is, since
 * a run needs it, and is never answered; one name per script, and a script's deletion takes its
 * secrets.
 */
export async function scriptSecrets({ kysely, kind }: Queryable): Promise<void> {
  const t = columnTypes(kind);
  await kysely.schema
    .createTable('script_secrets')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('script_id', 'text', (c) => c.notNull().references('scripts.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .addColumn('account_id', 'text', accountColumn)
    .addUniqueConstraint('script_secrets_name', ['script_id', 'name'])
    .execute();
}
