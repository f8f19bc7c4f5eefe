import { sql } from 'kysely';
import { rebuildAuditTriggers } from '../audit/triggers';
import type { Database, Queryable } from './database';
import { columnTypes } from './column-types';
import { MIGRATIONS, type Migration } from './migrations';

/** Any number, the same in every service: the key of PostgreSQL's advisory lock on migrating. */
const MIGRATION_LOCK = 5_206_117;

async function appliedVersions(db: Queryable): Promise<Set<number>> {
  const rows = await db.kysely.selectFrom('schema_migrations').select('version').execute();
  return new Set(rows.map((row) => row.version));
}

/** Fails the migration when a row names one that is not there (SQLite, foreign keys off). */
async function checkForeignKeys(tx: Queryable): Promise<void> {
  const { rows } = await sql<{ table: string; parent: string }>`pragma foreign_key_check`.execute(tx.kysely);
  if (rows.length > 0) {
    const [first] = rows;
    throw new Error(
      `${rows.length} rows name a missing one, the first in ${first?.table} (${first?.parent})`,
    );
  }
}

/**
 * Brings the schema up to the newest migration; returns the versions it applied. One runner for
 * both stores: on a store with a schema, each migration runs in its own transaction, with its row
 * in `schema_migrations`, so a failing one leaves the schema at the version before it. On a new,
 * empty store all of them run in one transaction, which a failure leaves empty: one commit (one
 * sync of the disk) instead of one per migration, a fifth of a new service's start. Kysely's own
 * Migrator is not used because it keeps its own table, and databases made before it record their
 * versions here.
 */
export async function migrate(
  db: Database,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<number[]> {
  const t = columnTypes(db.kind);
  await db.kysely.schema
    .createTable('schema_migrations')
    .ifNotExists()
    .addColumn('version', 'integer', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('applied_at', t.timestamp, t.stamped)
    .execute();
  const applied = await appliedVersions(db);
  const pending = [...migrations]
    .sort((a, b) => a.version - b.version)
    .filter((migration) => !applied.has(migration.version));
  const runs = applied.size === 0 ? [pending] : pending.map((migration) => [migration]);
  const done: number[] = [];
  for (const run of runs) done.push(...(await migrateInOne(db, run)));
  return done;
}

/** Applies `run` in one transaction; returns the versions it applied. */
async function migrateInOne(db: Database, run: readonly Migration[]): Promise<number[]> {
  if (run.length === 0) return [];
  // Outside the transaction: SQLite ignores this pragma inside one.
  const keysOff = run.some((migration) => migration.foreignKeysOff) && db.kind === 'sqlite';
  if (keysOff) await sql`pragma foreign_keys = off`.execute(db.kysely);
  return db
    .transaction(async (tx) => {
      let due = run;
      // Services starting together on one PostgreSQL database take turns; the one that comes
      // second finds the versions applied. (An SQLite file has one service: the folder's lock.)
      if (tx.kind === 'postgres') {
        await sql`select pg_advisory_xact_lock(${sql.lit(MIGRATION_LOCK)})`.execute(tx.kysely);
        const applied = await appliedVersions(tx);
        due = run.filter((migration) => !applied.has(migration.version));
      }
      for (const migration of due) {
        await migration.up(tx);
        await tx.kysely
          .insertInto('schema_migrations')
          .values({ version: migration.version, name: migration.name })
          .execute();
      }
      // A migration may have made a table or made one again: the audit trail's triggers list
      // the columns, so they are made anew with the schema, never at a start without one.
      if (due.length > 0) await rebuildAuditTriggers(tx);
      if (keysOff) await checkForeignKeys(tx);
      return due.map((migration) => migration.version);
    })
    .finally(async () => {
      if (keysOff) await sql`pragma foreign_keys = on`.execute(db.kysely);
    });
}
