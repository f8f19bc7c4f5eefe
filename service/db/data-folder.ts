import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SQLITE_FILE, exists } from './sqlite-files';

const LOCK_FILE = 'wallboard.lock';

/** The data folder is the service's user's alone: tokens' hashes, scripts and metrics live there. */
const FOLDER_MODE = 0o700;
const FILE_MODE = 0o600;

/** The store's own files: the database, its write-ahead log and shared memory, and our lock. */
const OWN_FILES = [SQLITE_FILE, `${SQLITE_FILE}-wal`, `${SQLITE_FILE}-shm`, LOCK_FILE];

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Makes the folder (0700) and narrows our files already in it to 0600, so a folder made by an
 * older version, or copied in, is closed too. Files SQLite creates later inherit 0600 from the
 * database file (it gives its -wal and -shm files the database file's mode), which is created
 * here, empty, before SQLite opens it.
 */
export async function prepareDataFolder(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: FOLDER_MODE });
  await chmod(dir, FOLDER_MODE);
  for (const name of OWN_FILES) {
    const file = join(dir, name);
    if (await exists(file)) await chmod(file, FILE_MODE);
  }
  await writeFile(join(dir, SQLITE_FILE), '', { flag: 'a', mode: FILE_MODE });
}

/**
 * Our own lock on the data folder: one service per folder, since two processes writing the same
 * SQLite file would wait on each other's locks. The lock holds the owner's pid, so a lock left by
 * a killed service is taken over rather than refusing to start. Returns the release.
 */
export async function lockDataFolder(dir: string): Promise<() => Promise<void>> {
  const lock = join(dir, LOCK_FILE);
  if (await exists(lock)) {
    const pid = Number((await readFile(lock, 'utf8')).trim());
    if (Number.isInteger(pid) && pid !== process.pid && isAlive(pid)) {
      throw new Error(`the data folder ${dir} is in use by process ${pid}`);
    }
  }
  await writeFile(lock, String(process.pid), { mode: FILE_MODE });
  return () => rm(lock, { force: true });
}
