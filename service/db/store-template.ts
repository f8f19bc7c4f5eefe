// A new embedded store made by copying a template instead of running every migration: a new
// store's migrations took about 100 ms of the built service's start, a fifth of it, where the
// copy takes a millisecond or two. The build makes the template beside each bundle that holds the
// service (tools/node-bundles.ts), from that same build's migrations; run from source there is
// none, and a new store is migrated as before. A template whose versions are not exactly this
// code's migrations is not used.
import { chmod, copyFile, open, rename, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DatabaseSync } from 'node:sqlite';
import { registerActorFunction } from '../audit/sqlite-actor';
import { MIGRATIONS } from './migrations';
import { TEMPLATE_FILE } from './store-template-file';

/** Where this code finds its template: beside the bundle that holds it. */
export const BUNDLED_TEMPLATE = fileURLToPath(new URL(`./${TEMPLATE_FILE}`, import.meta.url));

const versionsOf = (migrations: readonly { version: number }[]) =>
  migrations
    .map(({ version }) => version)
    .sort((a, b) => a - b)
    .join();

/** Whether `template` is a store whose applied versions are exactly this code's migrations. */
function isCurrent(template: string): boolean {
  let db: DatabaseSync | undefined;
  try {
    db = new DatabaseSync(template, { readOnly: true });
    const rows = db.prepare('select version from schema_migrations').all() as { version: number }[];
    return versionsOf(rows) === versionsOf(MIGRATIONS);
  } catch {
    return false;
  } finally {
    db?.close();
  }
}

/** An SQL identifier, quoted. */
const quoted = (identifier: string) => `"${identifier.replaceAll('"', '""')}"`;

/**
 * The times the migrations stamped the template's rows with (the default account's creation,
 * each migration's) are the build's; a new store's are its own first start's. Every column whose
 * default is the current time is set to `now` in every row.
 */
function stampWith(file: string, now: Date): void {
  const db = new DatabaseSync(file);
  // The audit trail's triggers call it; with no one acting (the start), they record nothing.
  registerActorFunction(db);
  try {
    const tables = db.prepare("select name from sqlite_master where type = 'table'").all() as {
      name: string;
    }[];
    for (const { name } of tables) {
      const columns = db.prepare('select name, dflt_value from pragma_table_info(?)').all(name) as {
        name: string;
        dflt_value: string | null;
      }[];
      for (const column of columns.filter(({ dflt_value }) => dflt_value?.includes("'now'"))) {
        db.prepare(`update ${quoted(name)} set ${quoted(column.name)} = ?`).run(now.toISOString());
      }
    }
  } finally {
    db.close();
  }
}

/** Syncs a file, or a folder's entries, to the disk. */
async function synced(path: string, flags: 'r' | 'r+'): Promise<void> {
  const handle = await open(path, flags);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** The size of `file`, 0 when there is none. */
const sizeOf = (file: string) =>
  stat(file).then(
    ({ size }) => size,
    () => 0,
  );

/**
 * Makes the new store `target` (its data folder locked by the caller) a copy of `template`,
 * stamped with `now`; false, leaving it for the migrations, when there is no template or it is not
 * current. New is an empty file (the data folder makes it) beside no write-ahead log with anything
 * in it: a copy never takes the place of commits a log could hold. The copy is synced before it
 * takes the store's name, so a crash leaves either the empty file or the whole copy.
 */
export async function storeFromTemplate(template: string, target: string, now: Date): Promise<boolean> {
  if ((await sizeOf(target)) > 0 || (await sizeOf(`${target}-wal`)) > 0 || !isCurrent(template)) return false;
  const staged = `${target}.new`;
  await copyFile(template, staged);
  try {
    await chmod(staged, 0o600);
    stampWith(staged, now);
    await synced(staged, 'r+');
    await rename(staged, target);
    // The new name on disk too, before the store's commits come after it.
    await synced(dirname(target), 'r');
  } finally {
    await rm(staged, { force: true });
  }
  return true;
}
