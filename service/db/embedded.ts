import { existsSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { Kysely, type LogConfig } from 'kysely';
import { accountScopePlugin } from '../accounts/account-plugin';
import { registerActorFunction } from '../audit/sqlite-actor';
import { groupScopePlugin } from '../visibility/group-plugin';
import { lockDataFolder, prepareDataFolder } from './data-folder';
import { databaseOn, type Database } from './database';
import { asideReader } from './aside-reader';
import { startCheckpointer } from './checkpointer';
import { DurabilityBarrier, fileSync, type SyncLog } from './durability';
import { embeddedDialect } from './embedded-dialect';
import { groupCommit } from './group-commit';
import type { Schema } from './schema';
import { checkStore, sqlitePath } from './sqlite-files';
import { BUNDLED_TEMPLATE, storeFromTemplate } from './store-template';

export { lockDataFolder } from './data-folder';

/**
 * - WAL: readers do not wait for the writer, and a commit appends to one file.
 * - synchronous=NORMAL: a commit does not sync the log on the event loop; a write is answered once
 *   a sync on the thread pool has kept it (durability.ts), so a write answered 2xx is on disk.
 * - wal_autocheckpoint=0: checkpoints, which sync, run in a worker (checkpointer.ts).
 * - foreign_keys: off by default in SQLite; the schema's cascades and refusals rely on them.
 * - busy_timeout: waits for a lock instead of failing at once (a backup reading the file).
 */
const PRAGMAS = [
  'journal_mode = WAL',
  'synchronous = NORMAL',
  'wal_autocheckpoint = 0',
  'foreign_keys = ON',
  'busy_timeout = 5000',
];

export interface EmbeddedOptions {
  /** Sees every statement the store runs (Kysely's `log`). */
  log?: LogConfig;
  /** Wraps the sync of the store's log: a test stands a slow disk in for this machine's. */
  syncLog?: (sync: SyncLog) => SyncLog;
  /** What a new store in a folder starts as, when it is current (store-template.ts). */
  template?: string;
}

/**
 * The embedded store: SQLite through node:sqlite, in `<dir>/wallboard.sqlite`, or in memory
 * without a folder (tests). The folder carries our lock while the store is open.
 */
export async function openEmbedded(
  dir?: string,
  { log, syncLog = (sync) => sync, template = BUNDLED_TEMPLATE }: EmbeddedOptions = {},
): Promise<Database> {
  let unlock: () => Promise<void> = async () => undefined;
  let database: DatabaseSync | undefined;
  try {
    if (dir) {
      await prepareDataFolder(dir);
      unlock = await lockDataFolder(dir);
      // A damaged store is never served: the service stops, saying which file and how to restore.
      if (existsSync(sqlitePath(dir))) checkStore(sqlitePath(dir));
      await storeFromTemplate(template, sqlitePath(dir), new Date());
    }
    database = new DatabaseSync(dir ? sqlitePath(dir) : ':memory:');
    for (const pragma of PRAGMAS) database.exec(`pragma ${pragma}`);
    // The audit triggers ask it who acts (audit/triggers.ts).
    registerActorFunction(database);
  } catch (error) {
    if (database?.isOpen) database.close();
    await unlock();
    throw error;
  }
  const opened = database;
  const walFile = dir ? fileSync(`${sqlitePath(dir)}-wal`) : undefined;
  const barrier = walFile ? new DurabilityBarrier(syncLog(walFile.sync)) : undefined;
  const checkpointer = dir ? startCheckpointer(sqlitePath(dir)) : undefined;
  // In memory, no other connection can see the store: long reads stay on the event loop.
  const reader = dir ? asideReader(sqlitePath(dir)) : undefined;
  const kysely = new Kysely<Schema>({
    dialect: embeddedDialect(opened, barrier),
    plugins: [accountScopePlugin, groupScopePlugin],
    ...(log ? { log } : {}),
  });
  const close = async () => {
    try {
      await kysely.destroy();
      await reader?.stop();
      await walFile?.close();
      // The last connection to close checkpoints what is left and removes the log.
      await checkpointer?.stop();
      // Kysely closes the database only once it has used it.
      if (opened.isOpen) opened.close();
    } finally {
      await unlock();
    }
  };
  return databaseOn(
    'sqlite',
    kysely,
    close,
    groupCommit('sqlite', kysely, barrier, checkpointer && (() => checkpointer.checkpoint())),
    reader && ((query) => reader.all(query)),
  );
}
