import { sql, type ColumnDefinitionBuilder } from 'kysely';
import { DATA_SOURCE_AUTHS, DATA_SOURCE_KINDS } from '../../../src/shared/data-source';
import { DEFAULT_ACCOUNT_ID } from '../../accounts/scope';
import type { Queryable } from '../database';
import { columnTypes } from '../column-types';

/** As migration 11 gave every table before it (accounts/account-plugin.ts fills it). */
const accountColumn = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(DEFAULT_ACCOUNT_ID);

const oneOf = (column: string, values: readonly string[]) =>
  sql`${sql.ref(column)} in (${sql.join(values.map((value) => sql.lit(value)))})`;

/**
 * Version 22: data sources (docs/data-sources.md). `data_sources` holds each connection and how
 * its last pass went; its `secret` (a password or token) is kept as it is, since connecting needs
 * it, and is never answered. `data_bindings` feeds one flow each from a source's query through a
 * mapping; a flow's deletion takes its binding, a source's deletion its bindings. A source's runs
 * are its history, the newest kept (jobs/data-sources.ts trims them).
 */
export async function dataSources({ kysely, kind }: Queryable): Promise<void> {
  const t = columnTypes(kind);
  await kysely.schema
    .createTable('data_sources')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull().check(oneOf('kind', DATA_SOURCE_KINDS)))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('auth', 'text', (c) => c.notNull().check(oneOf('auth', DATA_SOURCE_AUTHS)))
    .addColumn('username', 'text')
    .addColumn('secret', 'text')
    .addColumn('headers', t.json, (c) => c.notNull().defaultTo(t.jsonDefault('{}')))
    .addColumn('interval_seconds', 'integer', (c) => c.notNull())
    .addColumn('timeout_seconds', 'integer', (c) => c.notNull())
    .addColumn('allow_private', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('last_run_at', t.timestamp)
    .addColumn('last_ok_at', t.timestamp)
    .addColumn('last_error', 'text')
    .addColumn('account_id', 'text', accountColumn)
    .execute();
  await kysely.schema.createIndex('data_sources_account').on('data_sources').column('account_id').execute();

  await kysely.schema
    .createTable('data_bindings')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('source_id', 'text', (c) => c.notNull().references('data_sources.id').onDelete('cascade'))
    .addColumn('flow_id', 'text', (c) => c.notNull().unique().references('flows.id').onDelete('cascade'))
    .addColumn('query', 'text', (c) => c.notNull())
    .addColumn('range', t.json)
    .addColumn('mapping', t.json, (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('last_run_at', t.timestamp)
    .addColumn('last_ok_at', t.timestamp)
    .addColumn('last_error', 'text')
    .addColumn('account_id', 'text', accountColumn)
    .execute();
  await kysely.schema.createIndex('data_bindings_source').on('data_bindings').column('source_id').execute();

  await kysely.schema
    .createTable('data_source_runs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('source_id', 'text', (c) => c.notNull().references('data_sources.id').onDelete('cascade'))
    .addColumn('started_at', t.timestamp, (c) => c.notNull())
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('ok', 'boolean', (c) => c.notNull())
    .addColumn('updated', 'integer', (c) => c.notNull())
    .addColumn('failed', 'integer', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('account_id', 'text', accountColumn)
    .execute();
  await kysely.schema
    .createIndex('data_source_runs_source')
    .on('data_source_runs')
    .columns(['source_id', 'started_at'])
    .execute();
}
