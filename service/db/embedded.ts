import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { Database, Queryable } from './database';

const LOCK_FILE = 'wallboard.lock';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Our own lock on the data folder. PGlite leaves its postmaster.pid behind when the process is
 * killed, and then hangs on the next open; with our lock we know whether its owner is gone, so
 * the stale file can go and PostgreSQL's own crash recovery replays the WAL.
 */
async function lockDataFolder(dir: string): Promise<() => Promise<void>> {
  const lock = join(dir, LOCK_FILE);
  if (existsSync(lock)) {
    const pid = Number((await readFile(lock, 'utf8')).trim());
    if (Number.isInteger(pid) && pid !== process.pid && isAlive(pid)) {
      throw new Error(`the data folder ${dir} is in use by process ${pid}`);
    }
  }
  await rm(join(dir, 'pgdata', 'postmaster.pid'), { force: true });
  await writeFile(lock, String(process.pid));
  return () => rm(lock, { force: true });
}

/** The embedded store: PostgreSQL compiled to WebAssembly, in `dir` (or in memory without one). */
export async function openEmbedded(dir?: string): Promise<Database> {
  let unlock: () => Promise<void> = async () => undefined;
  if (dir) {
    await mkdir(dir, { recursive: true });
    unlock = await lockDataFolder(dir);
  }
  const pg = await PGlite.create(dir ? join(dir, 'pgdata') : undefined);
  const wrap = (target: Pick<PGlite, 'query' | 'exec'>): Queryable => ({
    query: async (sql, params) => (await target.query(sql, params as unknown[] | undefined)).rows as never,
    exec: async (sql) => {
      await target.exec(sql);
    },
  });
  return {
    kind: 'embedded',
    ...wrap(pg),
    transaction: (work) => pg.transaction((tx) => work(wrap(tx))),
    async close() {
      await pg.close();
      await unlock();
    },
  };
}
