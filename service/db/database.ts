import type { CompiledQuery, Kysely } from 'kysely';
import type { Schema } from './schema';

export type StoreKind = 'sqlite' | 'postgres';

/**
 * What repositories run on: the store, or one of its transactions. `kind` picks the few SQL
 * fragments that differ between the stores (dialect.ts); everything else is the same query.
 */
export interface Queryable {
  readonly kind: StoreKind;
  readonly kysely: Kysely<Schema>;
  /**
   * Runs a long read (a report over millions of rows) beside the event loop, when the store
   * reads on the event loop's thread otherwise: the embedded store on disk (aside-reader.ts).
   * Absent on PostgreSQL, whose reads never hold the loop, and on a transaction, whose reads must
   * see its own writes: then the caller executes the query as any other.
   */
  readonly readAside?: <R>(query: CompiledQuery<R>) => Promise<R[]>;
}

export interface Database extends Queryable {
  /** PostgreSQL's connection string: the realtime between nodes opens connections of its own. */
  readonly url?: string;
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * A Database over `kysely` (either store, or a test's wrapping of one); `transaction` may be the
 * store's own way of running one (the embedded store's group commit).
 */
export function databaseOn(
  kind: StoreKind,
  kysely: Kysely<Schema>,
  close: () => Promise<void>,
  transaction: Database['transaction'] = (work) => transact({ kind, kysely }, work),
  readAside?: Queryable['readAside'],
): Database {
  return { kind, kysely, transaction, close, ...(readAside ? { readAside } : {}) };
}

/**
 * Runs `work` in a transaction of `db`; when `db` already is one (a repository built on a
 * transaction's handle), inside it. Repositories take either, so an import can run several of
 * them in one transaction.
 */
export function transact<T>(db: Queryable, work: (tx: Queryable) => Promise<T>): Promise<T> {
  const { kind, kysely } = db;
  if (kysely.isTransaction) return work(db);
  return kysely.transaction().execute((trx) => work({ kind, kysely: trx }));
}
