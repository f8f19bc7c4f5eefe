import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
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

function bind(parameters: readonly unknown[]): SQLInputValue[] {
  return parameters.map(bindable);
}

function adapt(statement: StatementSync): SqliteStatement {
  return {
    // Kysely asks whether a statement returns rows (better-sqlite3's `reader`); node:sqlite's
    // statements say so by their result columns, which `insert … returning` has too.
    reader: statement.columns().length > 0,
    all: (parameters) => statement.all(...bind(parameters)),
    run: (parameters) => statement.run(...bind(parameters)),
    iterate: (parameters) => statement.iterate(...bind(parameters)),
  };
}

const NO_OP: SqliteStatement = {
  reader: false,
  all: () => [],
  run: () => ({ changes: 0, lastInsertRowid: 0 }),
  iterate: () => [][Symbol.iterator](),
};

/** node:sqlite's DatabaseSync as the better-sqlite3 database Kysely's SqliteDialect drives. */
export function kyselySqliteDatabase(database: DatabaseSync): SqliteDatabase {
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
        statement = adapt(database.prepare(sql));
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
