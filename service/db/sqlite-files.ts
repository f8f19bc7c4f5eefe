// The embedded store's file as a file: its integrity check at start, a consistent copy of it while
// the service runs (backup), and putting one back (restore). These work on the file with
// node:sqlite directly, apart from the service's query layer, as an operator's tools do.
import { chmod, copyFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

/** The embedded store's database file in a data folder. */
export const SQLITE_FILE = 'wallboard.sqlite';

/** Whether a file or folder is there. */
export const exists = (file: string) =>
  stat(file).then(
    () => true,
    () => false,
  );

export function sqlitePath(dataDir: string): string {
  return join(dataDir, SQLITE_FILE);
}

/** A store that fails its integrity check: the service does not serve it. */
export class DamagedStoreError extends Error {
  constructor(file: string, problems: readonly string[]) {
    super(
      `the store ${file} is damaged (${problems.slice(0, 3).join('; ')}${problems.length > 3 ? '; …' : ''}); ` +
        `the service does not serve a damaged store. Put back a backup with ` +
        `"npm run service -- restore <backup-file> --data <folder>" (the service stopped), ` +
        `or move the file aside to start empty`,
    );
  }
}

/**
 * SQLite's quick check of `file` (every page and index entry readable and consistent, without
 * the full cross-check of `integrity_check`, so it takes moments at start): the problems it
 * found, none when the store is sound. A file that is not a database at all is one problem.
 */
export function storeProblems(file: string): string[] {
  let db: DatabaseSync | null = null;
  try {
    db = new DatabaseSync(file, { readOnly: true });
    const rows = db.prepare('pragma quick_check').all() as { quick_check: string }[];
    const problems = rows.map((row) => row.quick_check).filter((text) => text !== 'ok');
    return problems;
  } catch (error) {
    return [(error as Error).message];
  } finally {
    db?.close();
  }
}

/** Throws a DamagedStoreError when `file` fails the quick check. */
export function checkStore(file: string): void {
  const problems = storeProblems(file);
  if (problems.length > 0) throw new DamagedStoreError(file, problems);
}

/**
 * Writes a consistent copy of the store in `dataDir` to `target` while the service may be running
 * (a reader of a WAL database sees one committed state; VACUUM INTO writes it out compacted), and
 * checks the copy. Refuses to overwrite an existing file.
 */
export async function backupStore(dataDir: string, target: string): Promise<void> {
  const source = sqlitePath(dataDir);
  if (!(await exists(source)))
    throw new Error(`there is no embedded store in ${dataDir} (no ${SQLITE_FILE})`);
  if (await exists(target)) throw new Error(`${target} exists already; name a new file`);
  const partial = `${target}.partial`;
  await rm(partial, { force: true });
  const db = new DatabaseSync(source, { readOnly: true });
  try {
    db.exec('pragma busy_timeout = 5000');
    db.prepare('vacuum into ?').run(partial);
  } finally {
    db.close();
  }
  await chmod(partial, 0o600);
  const problems = storeProblems(partial);
  if (problems.length > 0) {
    await rm(partial, { force: true });
    throw new DamagedStoreError(source, problems);
  }
  await rename(partial, target);
}

/**
 * Puts the backup `source` back as the store of `dataDir`, which no service may be using (the
 * caller holds the folder's lock). The store it replaces is kept beside it, named by the time.
 */
export async function restoreStore(dataDir: string, source: string, now: Date): Promise<string | null> {
  const problems = storeProblems(source);
  if (problems.length > 0)
    throw new Error(`${source} is not a sound store: ${problems.slice(0, 3).join('; ')}`);
  const target = sqlitePath(dataDir);
  const staged = `${target}.restoring`;
  await copyFile(source, staged);
  await chmod(staged, 0o600);
  let kept: string | null = null;
  if (await exists(target)) {
    // Its write-ahead log folded in first, so that the store kept aside is whole on its own.
    if (storeProblems(target).length === 0) {
      const old = new DatabaseSync(target);
      old.exec('pragma wal_checkpoint(truncate)');
      old.close();
    }
    kept = `${target}.before-restore-${now.toISOString().replace(/[:.]/g, '-')}`;
    await rename(target, kept);
  }
  // The old store's write-ahead log belongs to it, not to the restored file.
  await Promise.all(['-wal', '-shm'].map((suffix) => rm(`${target}${suffix}`, { force: true })));
  await rename(staged, target);
  return kept;
}
