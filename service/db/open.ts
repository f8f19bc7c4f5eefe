import type { LogConfig } from 'kysely';
import type { Database } from './database';
import type { SyncLog } from './durability';
import { openEmbedded } from './embedded';
import { importLegacyStore } from './import-pglite';
import { migrate } from './migrate';
import { openPostgres } from './postgres';

export interface StoreOptions {
  /** PostgreSQL connection string; when absent the embedded store (SQLite) is used. */
  databaseUrl?: string;
  /** Folder of the embedded store; in memory when absent. */
  dataDir?: string;
  /** Sees every statement the store runs (Kysely's `log`): tests count commits with it. */
  log?: LogConfig;
  /** Wraps the sync of the embedded store's log: a test stands a slow disk in for this machine's. */
  syncLog?: (sync: SyncLog) => SyncLog;
  /** Told of an older version's store imported into a new embedded one (rows per table). */
  onImported?: (counts: Record<string, number>) => void;
}

/** Opens the configured store and migrates it: the only place the two stores differ. */
export async function openStore(options: StoreOptions): Promise<Database> {
  const db = options.databaseUrl
    ? await openPostgres(options.databaseUrl, options.log)
    : await openEmbedded(options.dataDir, { log: options.log, syncLog: options.syncLog });
  try {
    await migrate(db);
    if (!options.databaseUrl && options.dataDir) {
      const counts = await importLegacyStore(db, options.dataDir, new Date());
      if (counts) options.onImported?.(counts);
    }
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
}
