import { sql } from 'kysely';
import { MIGRATION_11_TABLES } from '../../accounts/account-plugin';
import { DEFAULT_ACCOUNT_ID } from '../../accounts/scope';
import type { Queryable } from '../database';
import { columnTypes } from '../column-types';

/** The names and tags unique within an account (they were unique in the whole store before). */
const PER_ACCOUNT: readonly { table: string; column: string }[] = [
  { table: 'channels', column: 'tag' },
  { table: 'flows', column: 'tag' },
  { table: 'devices', column: 'tag' },
  { table: 'groups', column: 'name' },
];

/** The tables listed and looked up by account often enough to want an index on it. */
const INDEXED = ['tokens', 'users', 'boards', 'playlists', 'scripts', 'media', 'notifications', 'events'];

/**
 * Version 11: accounts. Every resource's row belongs to one (`account_id`, the default account
 * for every row made before: a single-account install goes on as it was), and the tags and names
 * that were unique in the store are unique within an account. Users' logins stay unique in the
 * whole store: a person signs in by login alone, before any account is known.
 */
export async function accounts(db: Queryable): Promise<void> {
  const { kysely, kind } = db;
  const t = columnTypes(kind);
  await kysely.schema
    .createTable('accounts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', t.timestamp, t.stamped)
    .execute();
  await kysely.insertInto('accounts').values({ id: DEFAULT_ACCOUNT_ID, name: 'Default' }).execute();
  for (const table of MIGRATION_11_TABLES) {
    await sql`alter table ${sql.table(table)} add column account_id text not null default ${sql.lit(DEFAULT_ACCOUNT_ID)}`.execute(
      kysely,
    );
  }
  for (const table of INDEXED) {
    await kysely.schema.createIndex(`${table}_account`).on(table).column('account_id').execute();
  }
  // A pairing's screen is in the account that claimed it.
  await sql`alter table pairings add column account_id text not null default ${sql.lit(DEFAULT_ACCOUNT_ID)}`.execute(
    kysely,
  );
  if (kind === 'postgres') await perAccountPostgres(db);
  else await perAccountSqlite(db);
}

/** The tokens and pairings bound to a screen name it by tag, within their account. */
const BOUND_TO_DEVICE = ['tokens', 'pairings'];

async function perAccountPostgres(db: Queryable): Promise<void> {
  const { kysely } = db;
  for (const table of BOUND_TO_DEVICE) await dropPostgresConstraint(db, table, 'device_tag', 'f');
  for (const { table, column } of PER_ACCOUNT) {
    await dropPostgresConstraint(db, table, column, 'u');
    await uniquePerAccount(db, table, column);
  }
  for (const table of BOUND_TO_DEVICE) {
    await sql`alter table ${sql.table(table)} add foreign key (account_id, device_tag)
      references devices (account_id, tag) on delete cascade`.execute(kysely);
  }
}

export async function uniquePerAccount({ kysely }: Queryable, table: string, column: string): Promise<void> {
  await kysely.schema
    .createIndex(`${table}_account_${column}`)
    .on(table)
    .columns(['account_id', column])
    .unique()
    .execute();
}

/** Drops the single-column constraint of `type` (u: unique, f: foreign key) on `table.column`, whatever its name. */
export async function dropPostgresConstraint(
  { kysely }: Queryable,
  table: string,
  column: string,
  type: 'u' | 'f',
): Promise<void> {
  const { rows } = await sql<{ name: string }>`
    select con.conname as name from pg_constraint con
    join pg_class rel on rel.oid = con.conrelid
    join pg_attribute att on att.attrelid = rel.oid and att.attnum = con.conkey[1]
    where rel.relname = ${table} and con.contype = ${type} and cardinality(con.conkey) = 1
      and att.attname = ${column}`.execute(kysely);
  for (const { name } of rows) {
    await sql`alter table ${sql.table(table)} drop constraint ${sql.ref(name)}`.execute(kysely);
  }
}

/**
 * SQLite cannot drop or change a constraint: each table is made again from its own definition,
 * edited, as SQLite's documentation prescribes. This migration runs with the foreign keys off
 * (`foreignKeysOff`, migrate.ts), or dropping the old table would cascade to the rows that name
 * it; the runner checks every row against them before it commits.
 */
async function perAccountSqlite(db: Queryable): Promise<void> {
  for (const { table, column } of PER_ACCOUNT) {
    await remakeSqliteTable(db, table, (create) =>
      edit(create, new RegExp(`("${column}" text not null) unique`, 'i'), '$1'),
    );
    await uniquePerAccount(db, table, column);
  }
  for (const table of BOUND_TO_DEVICE) {
    await remakeSqliteTable(db, table, (create) =>
      edit(create, /("device_tag" text) references "devices" \("tag"\) on delete cascade/i, '$1').replace(
        /\)$/,
        ', foreign key ("account_id", "device_tag") references "devices" ("account_id", "tag") on delete cascade)',
      ),
    );
  }
}

function edit(create: string, pattern: RegExp, replacement: string): string {
  if (!pattern.test(create)) throw new Error(`migration 11: "${create}" is not the table it should be`);
  return create.replace(pattern, replacement);
}

/** Makes `table` again from its definition as `change` edits it, with its rows and indexes. */
export async function remakeSqliteTable(
  { kysely }: Queryable,
  table: string,
  change: (create: string) => string,
): Promise<void> {
  const { rows } = await sql<{ type: string; sql: string }>`
    select type, sql from sqlite_master where tbl_name = ${table} and sql is not null`.execute(kysely);
  const create = rows.find((row) => row.type === 'table')?.sql ?? '';
  const next = `${table}_next`;
  const made = change(create).replace(/^create table "?\w+"?/i, `create table "${next}"`);
  await sql.raw(made).execute(kysely);
  await sql`insert into ${sql.table(next)} select * from ${sql.table(table)}`.execute(kysely);
  await sql`drop table ${sql.table(table)}`.execute(kysely);
  await sql`alter table ${sql.table(next)} rename to ${sql.table(table)}`.execute(kysely);
  for (const index of rows.filter((row) => row.type === 'index')) await sql.raw(index.sql).execute(kysely);
}
