/** What repositories need of a database: the embedded store and PostgreSQL both provide it. */
export interface Queryable {
  query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<Row[]>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export interface Database extends Queryable {
  readonly kind: 'embedded' | 'postgres';
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** PostgreSQL's error codes that a repository turns into answers. */
export const PG_UNIQUE_VIOLATION = '23505';
export const PG_FOREIGN_KEY_VIOLATION = '23503';

export function pgErrorCode(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string') {
    return error.code;
  }
  return undefined;
}

/**
 * Runs `work` in a transaction of `db`; when `db` already is one (a repository built on a
 * transaction's handle), inside it. Repositories take either, so an import can run several of
 * them in one transaction.
 */
export function transact<T>(db: Queryable | Database, work: (tx: Queryable) => Promise<T>): Promise<T> {
  return 'transaction' in db ? db.transaction(work) : work(db);
}
