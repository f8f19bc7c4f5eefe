import type { SourceKind } from './kind';
import { closeMysqlPools, mysqlKind } from './mysql';
import { closePostgresPools, postgresKind } from './postgres';

/**
 * The database kinds of data sources: PostgreSQL, and MySQL with MariaDB. A query's result is an
 * array of at most SOURCE_ROWS_MAX rows, each an object of column name → JSON value (exact
 * numbers as numbers, else text; times as ISO strings; bytes as base64): postgres.ts and
 * mysql.ts say it type by type. Each run is one reading statement in a read-only transaction,
 * over a small pool per source, to the address the destination rule allowed.
 */
export const SQL_SOURCE_KINDS: Record<'postgres' | 'mysql', SourceKind> = {
  postgres: postgresKind,
  mysql: mysqlKind,
};

/** Ends every pooled connection of the SQL sources: the service calls it when it stops. */
export async function closeSqlPools(): Promise<void> {
  await Promise.all([closePostgresPools(), closeMysqlPools()]);
}

export { checkSqlUrl } from './sql-check';
