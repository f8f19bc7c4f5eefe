import pg from 'pg';
import { SOURCE_ROWS_MAX } from '../../../src/shared/data-source';
import type { SourceConnection, SourceKind } from './kind';
import { SourceError } from './kind';
import { checkSqlQuery, readSqlQuery, type SqlTarget } from './sql-check';
import {
  POOL_IDLE_MS,
  POOL_MAX,
  SqlPools,
  exactNumber,
  jsonValue,
  prepareRun,
  racing,
  sourceErrorOf,
} from './sql-common';

/**
 * The `postgres` kind. A binding's query is one SELECT (or WITH, VALUES, TABLE) statement; its
 * result is an array of rows, at most SOURCE_ROWS_MAX, each an object of column name → value:
 * - numbers as numbers; bigint and numeric as numbers when the number is exactly the value, else
 *   their text ("12345678901234567890", "NaN");
 * - timestamptz as an ISO string in UTC ("2026-01-02T03:04:05.000Z"); timestamp (no zone) as
 *   "2026-01-02T03:04:05"; date, time and interval as PostgreSQL writes them ("2026-01-02");
 * - json and jsonb as their value; arrays as arrays; bytea as base64; the rest as text;
 * - of two columns of one name, the last.
 *
 * It runs inside `BEGIN READ ONLY`, with `statement_timeout` set to the source's timeout, through
 * a cursor that fetches SOURCE_ROWS_MAX rows and no more, then rolls back. Give the source a role
 * that may only read what its widgets show: a read-only transaction stops writes, not reads.
 */

const { builtins } = pg.types;
const asText = (text: string) => text;
const PARSERS = new Map<number, (text: string) => unknown>([
  [builtins.INT8, exactNumber],
  [builtins.NUMERIC, exactNumber],
  [builtins.TIMESTAMP, (text) => text.replace(' ', 'T')],
  [builtins.DATE, asText],
  [builtins.INTERVAL, asText],
  [builtins.MONEY, asText],
]);

/** The pools' own reading of values, leaving pg's defaults alone for the rest of the process. */
const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    PARSERS.get(oid) ?? pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig['getTypeParser'],
};

const pools = new SqlPools();

function poolOf(target: SqlTarget, address: string, connection: SourceConnection): pg.Pool {
  const pool = new pg.Pool({
    // The checked address, never the name again: DNS gets no second say.
    host: address,
    port: target.port,
    user: target.user,
    database: target.database ?? target.user,
    password: connection.secret ?? undefined,
    ssl:
      target.ssl === 'disable'
        ? false
        : target.ssl === 'require'
          ? { rejectUnauthorized: false }
          : // The certificate is checked against the name written, not the address connected to.
            { rejectUnauthorized: true, ...(address === target.host ? {} : { servername: target.host }) },
    max: POOL_MAX,
    idleTimeoutMillis: POOL_IDLE_MS,
    connectionTimeoutMillis: connection.timeoutMs,
    allowExitOnIdle: true,
    application_name: 'wallboard data source',
    types,
  });
  // A connection the server closes while idle is dropped; without a listener it would end the process.
  pool.on('error', () => undefined);
  return pool;
}

const CURSOR = 'wallboard_rows';

/**
 * Runs one statement read-only and answers its rows, without the query's check: the tests use it
 * to prove that the database itself refuses writes.
 */
export async function queryPostgres(
  connection: SourceConnection,
  statement: string,
  signal: AbortSignal,
): Promise<unknown[]> {
  const { target, deadline, address, key, timeoutMs } = await prepareRun('postgres', connection, signal);
  try {
    return await pools.use(
      key,
      () => {
        const pool = poolOf(target, address, connection);
        return { pool, end: () => pool.end() };
      },
      async (pool) => {
        const connecting = pool.connect();
        const client = await racing(connecting, deadline, timeoutMs, () => {
          // A connection that arrives after the deadline goes back unused.
          void connecting.then(
            (late) => late.release(),
            () => undefined,
          );
        });
        let released = false;
        // Out of the pool for good: the connection may be mid-statement or mid-transaction.
        const drop = () => {
          if (released) return;
          released = true;
          client.release(true);
        };
        try {
          return await racing(readRows(client, statement, timeoutMs), deadline, timeoutMs, drop);
        } catch (error) {
          // The statement failed inside the transaction: end it, or drop the connection.
          if (!released) await racing(client.query('ROLLBACK'), deadline, timeoutMs, drop).catch(drop);
          throw error;
        } finally {
          if (!released) {
            released = true;
            client.release();
          }
        }
      },
    );
  } catch (error) {
    throw sourceErrorOf(error, connection.secret);
  }
}

async function readRows(client: pg.PoolClient, statement: string, timeoutMs: number): Promise<unknown[]> {
  await client.query('BEGIN READ ONLY');
  await client.query(`SET LOCAL statement_timeout = ${Math.max(1, Math.ceil(timeoutMs))}`);
  // The extended protocol takes one statement only, whatever the check let through. The cursor
  // computes the rows it is asked for and no more.
  await client.query({
    text: `DECLARE ${CURSOR} NO SCROLL CURSOR FOR\n${statement}\n`,
    queryMode: 'extended',
  } as pg.QueryConfig);
  const result = await client.query(`FETCH FORWARD ${SOURCE_ROWS_MAX} FROM ${CURSOR}`);
  await client.query('ROLLBACK');
  return result.rows.map((row: Record<string, unknown>) => jsonValue(row));
}

export const postgresKind: SourceKind = {
  check: (query, range) => checkSqlQuery('postgres', query, range),
  async run(connection, query, signal) {
    const problem = checkSqlQuery('postgres', query.query, query.range);
    if (problem) throw new SourceError(`the query ${problem}`);
    const read = readSqlQuery('postgres', query.query);
    if ('error' in read) throw new SourceError(`the query ${read.error}`);
    return queryPostgres(connection, read.statement, signal);
  },
};

export function closePostgresPools(): Promise<void> {
  return pools.closeAll();
}
