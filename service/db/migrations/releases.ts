import { sql, type ColumnDefinitionBuilder } from 'kysely';
import { DEFAULT_ACCOUNT_ID } from '../../accounts/scope';
import type { Queryable } from '../database';
import { columnTypes } from '../column-types';

/** As migration 11 gave every table before it (accounts/account-plugin.ts fills it). */
const accountColumn = (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(DEFAULT_ACCOUNT_ID);
const oneOf = (column: string, values: readonly string[]) =>
  sql`${sql.ref(column)} in (${sql.join(values.map((value) => sql.lit(value)))})`;

/**
 * Version 27: player releases, rollouts, pins and update reports (docs/updates.md).
 *
 * - `releases`: one version of the shell or the web player; `ready` turns true once every file's
 *   bytes are kept, so a release being uploaded is never listed or offered.
 * - `release_files`: its files; the bytes are the media storage's (service/media/), kept once per
 *   content by `sha256`, so a deleted release's bytes go when nothing else names them.
 * - `rollouts`: a release offered to screen groups or to a percentage of the screens; a rolled
 *   back one stays, for the record, and no longer applies.
 * - `release_pins`: a screen held to one release of a kind, whatever the rollouts say.
 * - `update_reports`: a screen's last report per kind, from which a rollout's progress is counted.
 */
export async function releases({ kysely, kind }: Queryable): Promise<void> {
  const t = columnTypes(kind);
  const { schema } = kysely;
  await schema
    .createTable('releases')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull().check(oneOf('kind', ['shell', 'web'])))
    .addColumn('channel', 'text', (c) => c.notNull().check(oneOf('channel', ['stable', 'beta'])))
    .addColumn('version', 'text', (c) => c.notNull())
    .addColumn('notes', 'text', (c) => c.notNull())
    .addColumn('ready', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('account_id', 'text', accountColumn)
    .addUniqueConstraint('releases_version', ['account_id', 'kind', 'version'])
    .execute();

  await schema
    .createTable('release_files')
    .addColumn('release_id', 'text', (c) => c.notNull().references('releases.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('sha512', 'text', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('account_id', 'text', accountColumn)
    .addPrimaryKeyConstraint('release_files_pk', ['release_id', 'name'])
    .execute();
  // The media storage asks whether any row still names a content before removing it.
  await schema.createIndex('release_files_sha256').on('release_files').column('sha256').execute();

  await schema
    .createTable('rollouts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('release_id', 'text', (c) => c.notNull().references('releases.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull().check(oneOf('kind', ['shell', 'web'])))
    .addColumn('group_ids', t.json)
    .addColumn('percentage', 'integer')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('rolled_back_at', t.timestamp)
    .addColumn('account_id', 'text', accountColumn)
    .addCheckConstraint(
      'rollouts_one_target',
      sql`(group_ids is null) <> (percentage is null) and (percentage is null or percentage between 1 and 100)`,
    )
    .execute();
  await schema.createIndex('rollouts_kind').on('rollouts').columns(['account_id', 'kind']).execute();

  await schema
    .createTable('release_pins')
    .addColumn('device_tag', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull().check(oneOf('kind', ['shell', 'web'])))
    .addColumn('release_id', 'text', (c) => c.notNull().references('releases.id'))
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('account_id', 'text', accountColumn)
    .addPrimaryKeyConstraint('release_pins_pk', ['account_id', 'device_tag', 'kind'])
    .addForeignKeyConstraint(
      'release_pins_device',
      ['account_id', 'device_tag'],
      'devices',
      ['account_id', 'tag'],
      (fk) => fk.onDelete('cascade'),
    )
    .execute();

  await schema
    .createTable('update_reports')
    .addColumn('device_tag', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull().check(oneOf('kind', ['shell', 'web'])))
    .addColumn('version', 'text', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) =>
      c.notNull().check(oneOf('outcome', ['downloading', 'installed', 'failed', 'rolled_back'])),
    )
    .addColumn('detail', 'text', (c) => c.notNull())
    .addColumn('reported_at', t.timestamp, (c) => c.notNull())
    .addColumn('account_id', 'text', accountColumn)
    .addPrimaryKeyConstraint('update_reports_pk', ['account_id', 'device_tag', 'kind'])
    .addForeignKeyConstraint(
      'update_reports_device',
      ['account_id', 'device_tag'],
      'devices',
      ['account_id', 'tag'],
      (fk) => fk.onDelete('cascade'),
    )
    .execute();
}
