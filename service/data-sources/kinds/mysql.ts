import { connect } from 'node:net';
import type Mysql from 'mysql2';
import type { Pool, PoolConnection, TypeCast } from 'mysql2';
import { SOURCE_ROWS_MAX } from '../../../src/shared/data-source';
import type { SourceConnection, SourceKind } from './kind';
import { SourceError } from './kind';
import { checkSqlQuery, readSqlQuery, type SqlTarget } from './sql-check';
import { POOL_MAX, SqlPools, exactNumber, jsonValue, prepareRun, racing, sourceErrorOf } from './sql-common';

/**
 * The `mysql` kind, for MySQL and MariaDB. A binding's query is one SELECT (or WITH, VALUES,
 * TABLE, SHOW, DESCRIBE, EXPLAIN) statement; its result is an array of rows, at most
 * SOURCE_ROWS_MAX, each an object of column name → value:
 * - numbers as numbers; BIGINT and DECIMAL as numbers when the number is exactly the value, else
 *   their text ("12345678901234567890");
 * - TIMESTAMP as an ISO string in UTC ("2026-01-02T03:04:05Z"); DATETIME as "2026-01-02T03:04:05";
 *   DATE and TIME as the server writes them ("2026-01-02");
 * - JSON (MySQL's type, or MariaDB's json-checked text) as its value; binary strings, BLOBs and
 *   BIT as base64; the rest as text;
 * - of two columns of one name, the last.
 *
 * The session is read-only (so DDL, which commits on its own, is refused too), inside
 * `START TRANSACTION READ ONLY`, with the statement time capped at the source's timeout and
 * `sql_select_limit` at SOURCE_ROWS_MAX; rows past it are never kept. Give the source a user that
 * may only read what its widgets show: read-only stops writes, not reads, and a procedure the
 * user may call can change its own transaction.
 */

/** Reads values as the comment above says: mysql2's own reading otherwise. */
const typeCast: TypeCast = (field, next) => {
  switch (field.type) {
    case 'LONGLONG':
    case 'NEWDECIMAL':
    case 'DECIMAL': {
      const text = field.string();
      return text === null ? null : exactNumber(text);
    }
    case 'TIMESTAMP':
    case 'TIMESTAMP2': {
      // The session's zone is UTC (set below), so the text is a UTC time.
      const text = field.string();
      return text === null ? null : /^0000-/.test(text) ? text : `${text.replace(' ', 'T')}Z`;
    }
    case 'DATETIME':
    case 'DATETIME2': {
      const text = field.string();
      return text === null ? null : text.replace(' ', 'T');
    }
    default:
      if (field.extendedFormat === 'json') {
        const text = field.string();
        if (text === null) return null;
        try {
          return JSON.parse(text) as unknown;
        } catch {
          return text;
        }
      }
      return next();
  }
};

interface MysqlPool {
  pool: Pool;
  /** Which statement-time variable the server has: MariaDB's (seconds) or MySQL's (ms, SELECT only). */
  mariadb: boolean | null;
}

const pools = new SqlPools();

function poolOf(mysql: typeof Mysql, target: SqlTarget, address: string, connection: SourceConnection): Pool {
  const pool = mysql.createPool({
    // Named as written, for TLS's check of the certificate; the socket goes to the checked
    // address, so DNS gets no second say.
    host: target.host,
    port: target.port,
    stream: () => connect({ host: address, port: target.port }).setNoDelay(true),
    user: target.user,
    password: connection.secret ?? undefined,
    database: target.database ?? undefined,
    ...(target.ssl === 'disable'
      ? {}
      : {
          ssl: {
            rejectUnauthorized: target.ssl === 'verify-full',
            verifyIdentity: target.ssl === 'verify-full',
          },
        }),
    connectionLimit: POOL_MAX,
    // SqlPools ends the whole pool once unused; mysql2's own idle sweep would tick every second.
    maxIdle: POOL_MAX,
    connectTimeout: connection.timeoutMs,
    // One statement a query, refused by the server otherwise; no file of ours is ever sent.
    multipleStatements: false,
    flags: ['-LOCAL_FILES', '-MULTI_STATEMENTS'],
    supportBigNumbers: true,
    bigNumberStrings: true,
    dateStrings: true,
    typeCast,
  });
  // An idle connection the server closes is dropped by the pool; no listener would end the process.
  pool.on('connection', (socket) => socket.on('error', () => undefined));
  return pool;
}

/**
 * Closes a connection at once. mysql2's destroy() only half-closes its socket, so the client would
 * go on receiving and parsing whatever the server still sends (a hundred million rows past the
 * limit), and the server would go on sending it.
 */
function drop(pooled: PoolConnection): void {
  pooled.destroy();
  (pooled as unknown as { stream?: { destroy(): void } }).stream?.destroy();
}

function statement(pooled: PoolConnection, text: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    pooled.query(text, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

/**
 * Runs one statement read-only and answers its rows, without the query's check: the tests use it
 * to prove that the database itself refuses writes.
 */
export async function queryMysql(
  connection: SourceConnection,
  text: string,
  signal: AbortSignal,
): Promise<unknown[]> {
  const { target, deadline, address, key, timeoutMs } = await prepareRun('mysql', connection, signal);
  // The driver loads at the first MySQL source's run (the module system keeps it after): most
  // services have none, and evaluating it at every start cost the start and its memory
  // (bench/README.md, the start).
  const { default: mysql } = await import('mysql2');
  try {
    return await pools.use<MysqlPool, unknown[]>(
      key,
      () => {
        const entry: MysqlPool = { pool: poolOf(mysql, target, address, connection), mariadb: null };
        return { pool: entry, end: () => new Promise<void>((resolve) => entry.pool.end(() => resolve())) };
      },
      async (entry) => {
        const getting = new Promise<PoolConnection>((resolve, reject) => {
          entry.pool.getConnection((error, pooled) => (error ? reject(error) : resolve(pooled)));
        });
        const pooled = await racing(getting, deadline, timeoutMs, () => {
          // A connection that arrives after the deadline goes back unused.
          void getting.then(
            (late) => late.release(),
            () => undefined,
          );
        });
        let released = false;
        // Out of the pool for good: the connection may be mid-statement or mid-transaction.
        const dropOnce = () => {
          if (released) return;
          released = true;
          drop(pooled);
        };
        try {
          const read = await racing(readRows(entry, pooled, text, timeoutMs), deadline, timeoutMs, dropOnce);
          // The server is still sending rows nobody reads: the connection goes, not the rows into memory.
          if (read.overflow) dropOnce();
          return read.rows;
        } catch (error) {
          // The statement failed inside the transaction: end it, or drop the connection.
          if (!released)
            await racing(statement(pooled, 'ROLLBACK'), deadline, timeoutMs, dropOnce).catch(dropOnce);
          throw error;
        } finally {
          if (!released) {
            released = true;
            pooled.release();
          }
        }
      },
    );
  } catch (error) {
    throw sourceErrorOf(error, connection.secret);
  }
}

async function readRows(
  entry: MysqlPool,
  pooled: PoolConnection,
  text: string,
  timeoutMs: number,
): Promise<{ rows: unknown[]; overflow: boolean }> {
  if (entry.mariadb === null) {
    const [row] = (await statement(pooled, 'SELECT VERSION() AS version')) as { version: string }[];
    entry.mariadb = /mariadb/i.test(row?.version ?? '');
  }
  const timeLimit = entry.mariadb
    ? `max_statement_time = ${Math.max(0.001, timeoutMs / 1000)}`
    : `max_execution_time = ${Math.max(1, Math.ceil(timeoutMs))}`;
  // Set on every run: a statement could have changed them for the connection's next user.
  await statement(pooled, 'SET SESSION TRANSACTION READ ONLY');
  await statement(
    pooled,
    `SET SESSION ${timeLimit}, sql_select_limit = ${SOURCE_ROWS_MAX}, time_zone = '+00:00'`,
  );
  await statement(pooled, 'START TRANSACTION READ ONLY');
  const read = await streamRows(pooled, text);
  // Past the limit the connection is dropped, which ends the transaction with it.
  if (!read.overflow) await statement(pooled, 'ROLLBACK');
  return read;
}

/** The statement's rows, up to SOURCE_ROWS_MAX; `overflow` when the server has more. */
function streamRows(pooled: PoolConnection, text: string): Promise<{ rows: unknown[]; overflow: boolean }> {
  return new Promise((resolve, reject) => {
    const rows: unknown[] = [];
    let done = false;
    const query = pooled.query(text);
    query.on('result', (row) => {
      if (done) return;
      if (rows.length === SOURCE_ROWS_MAX) {
        done = true;
        resolve({ rows, overflow: true });
        return;
      }
      // A statement answering an OK packet (no rows) gives a result that is not a row.
      if (row && typeof row === 'object' && !('affectedRows' in row && 'insertId' in row))
        rows.push(jsonValue(row));
    });
    query.on('error', (error) => {
      if (done) return;
      done = true;
      reject(error);
    });
    query.on('end', () => {
      if (done) return;
      done = true;
      resolve({ rows, overflow: false });
    });
  });
}

export const mysqlKind: SourceKind = {
  check: (query, range) => checkSqlQuery('mysql', query, range),
  async run(connection, query, signal) {
    const problem = checkSqlQuery('mysql', query.query, query.range);
    if (problem) throw new SourceError(`the query ${problem}`);
    const read = readSqlQuery('mysql', query.query);
    if ('error' in read) throw new SourceError(`the query ${read.error}`);
    return queryMysql(connection, read.statement, signal);
  },
};

export function closeMysqlPools(): Promise<void> {
  return pools.closeAll();
}
