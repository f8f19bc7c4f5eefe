import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** Statements prepared once and reused: the service runs the same few hundred over and over. */
const CACHED_STATEMENTS = 500;

/**
 * A parameter as SQLite takes it. node:sqlite binds a Date as NULL without a word, so Dates
 * become ISO 8601 text (how the stores' timestamps are written), booleans 1 and 0, and anything
 * else it cannot take is refused here rather than stored as something else.
 */
function bindable(value: unknown, index: number): SQLInputValue {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (
    value === null ||
    typeof value === 'number' ||
    typeof value === 'bigint' ||
    typeof value === 'string' ||
    ArrayBuffer.isView(value)
  ) {
    return value as SQLInputValue;
  }
  throw new TypeError(`parameter ${index + 1} cannot be stored in SQLite: ${typeof value}`);
}

/** Parameters as SQLite takes them (a statement run here, or on a worker: aside-reader.ts). */
export function sqliteParameters(parameters: readonly unknown[]): SQLInputValue[] {
  return parameters.map(bindable);
}

/** Statements that never commit a write: reads, and ending a transaction without keeping it. */
const NEVER_WRITES = /^\s*(select|rollback)\b/i;

function adapt(database: DatabaseSync, sql: string, onCommit: () => void): SqliteStatement {
  const statement = database.prepare(sql);
  // A statement that may write, run outside a transaction (a write on its own, or `commit`),
  // has committed once it returns: durability.ts waits for that commit's sync.
  const mayCommit = !NEVER_WRITES.test(sql);
  const noting = <T>(result: T): T => {
    if (mayCommit && !database.isTransaction) onCommit();
    return result;
  };
  return {
    // Kysely asks whether a statement returns rows (better-sqlite3's `reader`); node:sqlite's
    // statements say so by their result columns, which `insert … returning` has too.
    reader: statement.columns().length > 0,
    all: (parameters) => noting(statement.all(...sqliteParameters(parameters))),
    run: (parameters) => noting(statement.run(...sqliteParameters(parameters))),
    // Only selects are streamed (Kysely refuses the rest), and they commit nothing.
    iterate: (parameters) => statement.iterate(...sqliteParameters(parameters)),
  };
}

const NO_OP: SqliteStatement = {
  reader: false,
  all: () => [],
  run: () => ({ changes: 0, lastInsertRowid: 0 }),
  iterate: () => [][Symbol.iterator](),
};

/**
 * node:sqlite's DatabaseSync as the better-sqlite3 database Kysely's SQLite driver drives;
 * `onCommit` hears of every commit, once it has returned.
 */
export function kyselySqliteDatabase(database: DatabaseSync, onCommit: () => void): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  return {
    prepare(sql) {
      // SQLite rolls a transaction back by itself on some errors (a full disk, SQLITE_FULL): the
      // rollback Kysely then sends would fail and hide the error that matters.
      if (/^rollback$/i.test(sql.trim()) && !database.isTransaction) return NO_OP;
      let statement = statements.get(sql);
      if (statement) {
        // Most recently used last, so the oldest is the first to go.
        statements.delete(sql);
      } else {
        statement = adapt(database, sql, onCommit);
        if (statements.size >= CACHED_STATEMENTS) {
          statements.delete(statements.keys().next().value as string);
        }
      }
      statements.set(sql, statement);
      return statement;
    },
    close() {
      statements.clear();
      database.close();
    },
  };
}
