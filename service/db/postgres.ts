import { Kysely, PostgresDialect, sql, type LogConfig } from 'kysely';
import pg from 'pg';
import { accountScopePlugin } from '../accounts/account-plugin';
import { actorCarryingPool } from '../audit/pg-actor';
import { groupScopePlugin } from '../visibility/group-plugin';
import { databaseOn, type Database } from './database';
import type { Schema } from './schema';

const { builtins } = pg.types;
const asText = (value: string) => value;

/**
 * How this pool reads values, without changing pg's defaults for anyone else in the process:
 * - bigint (event ids, counts) as numbers: they stay far below 2^53;
 * - json and jsonb as their text, as SQLite hands them back, so both stores have one reading of
 *   JSON columns (dialect.ts `fromJson`).
 */
const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (oid === builtins.INT8) return Number;
    if (oid === builtins.JSON || oid === builtins.JSONB) return asText;
    return pg.types.getTypeParser(oid, format);
  }) as pg.CustomTypesConfig['getTypeParser'],
};

export async function openPostgres(connectionString: string, log?: LogConfig): Promise<Database> {
  const pool = new pg.Pool({ connectionString, max: 10, types });
  // An idle connection the server closes (restart, admin command) is dropped by the pool and the
  // next query opens another; without a listener the error would end the process.
  pool.on('error', () => undefined);
  const kysely = new Kysely<Schema>({
    dialect: new PostgresDialect({ pool: actorCarryingPool(pool) }),
    plugins: [accountScopePlugin, groupScopePlugin],
    ...(log ? { log } : {}),
  });
  try {
    // Fail at start, with the server's own words, rather than on the first request.
    await sql`select 1`.execute(kysely);
  } catch (error) {
    await kysely.destroy();
    throw error;
  }
  return { ...databaseOn('postgres', kysely, () => kysely.destroy()), url: connectionString };
}
