// Kysely's SQLite dialect over node:sqlite, with commits that do not wait for the disk on the
// event loop (durability.ts). Kysely's own driver serialises the one connection with a lock that
// it releases only after the driver's releaseConnection returns; a caller waiting there for its
// commit's sync would keep everyone else off the store for as long as the disk takes. Here the
// driver holds its own lock, releases it as soon as the caller is done with the connection, and
// only then waits for the caller's commit to be synced: the next transaction runs meanwhile.
import type { DatabaseSync } from 'node:sqlite';
import {
  SqliteAdapter,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type DialectAdapter,
  type Driver,
} from 'kysely';
import { unsyncedCommits, type DurabilityBarrier } from './durability';
import { kyselySqliteDatabase } from './node-sqlite-adapter';

/** Tells Kysely it need not lock the connection: the driver below does, and knows when to let go. */
class LockingDriverAdapter extends SqliteAdapter {
  override get supportsMultipleConnections(): boolean {
    return true;
  }
}

class DurableSqliteDriver extends SqliteDriver {
  private held: Promise<void> = Promise.resolve();
  private release: (() => void) | undefined;

  constructor(
    database: ReturnType<typeof kyselySqliteDatabase>,
    private readonly barrier: DurabilityBarrier | undefined,
    private readonly pending: { commit: number },
  ) {
    super({ database });
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    const previous = this.held;
    let release!: () => void;
    this.held = new Promise((resolve) => (release = resolve));
    await previous;
    this.release = release;
    return super.acquireConnection();
  }

  override async releaseConnection(): Promise<void> {
    const { commit } = this.pending;
    this.pending.commit = 0;
    this.release?.();
    this.release = undefined;
    if (commit === 0 || !this.barrier) return;
    const deferred = unsyncedCommits();
    if (deferred) deferred.commit = commit;
    else await this.barrier.durable(commit);
  }
}

/**
 * The dialect of the embedded store on `database`: with `barrier` (a store on disk), every
 * caller that committed waits for the sync of its commit once it has let go of the connection;
 * without (in memory), nothing is synced.
 */
export function embeddedDialect(
  database: DatabaseSync,
  barrier: DurabilityBarrier | undefined,
): SqliteDialect {
  const pending = { commit: 0 };
  const adapted = kyselySqliteDatabase(database, () => {
    if (barrier) pending.commit = barrier.noteCommit();
  });
  return new (class extends SqliteDialect {
    override createDriver(): Driver {
      return new DurableSqliteDriver(adapted, barrier, pending);
    }

    override createAdapter(): DialectAdapter {
      return new LockingDriverAdapter();
    }
  })({ database: adapted });
}
