import type { Database } from './database';
import { openEmbedded } from './embedded';
import { migrate } from './migrate';
import { openPostgres } from './postgres';

export interface StoreOptions {
  /** PostgreSQL connection string; when absent the embedded store is used. */
  databaseUrl?: string;
  /** Folder of the embedded store; in memory when absent. */
  dataDir?: string;
}

/** Opens the configured store and migrates it: the only place the two stores differ. */
export async function openStore(options: StoreOptions): Promise<Database> {
  const db = options.databaseUrl
    ? await openPostgres(options.databaseUrl)
    : await openEmbedded(options.dataDir);
  try {
    await migrate(db);
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
}
