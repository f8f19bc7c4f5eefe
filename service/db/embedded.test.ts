import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmod, mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from './open';

/** The embedded store on disk: SQLite's settings, the folder's lock and its files' modes. */

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wallboard-embedded-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const mode = async (path: string) => (await stat(path)).mode & 0o777;

async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await once(child, 'exit');
  return child.pid as number;
}

describe('the embedded store', () => {
  it('runs SQLite in WAL mode, leaving syncs and checkpoints off the event loop, with foreign keys and a busy timeout', async () => {
    const db = await openStore({ dataDir: dir });
    try {
      const pragma = async (name: string) =>
        Object.values((await sql.raw(`pragma ${name}`).execute(db.kysely)).rows[0] as object)[0];
      expect(db.kind).toBe('sqlite');
      expect(await pragma('journal_mode')).toBe('wal');
      // 1 is NORMAL: a commit does not sync; a write waits for its sync on the thread pool
      // (durability.ts, durability.test.ts). Checkpoints run in a worker (checkpointer.ts).
      expect(await pragma('synchronous')).toBe(1);
      expect(await pragma('wal_autocheckpoint')).toBe(0);
      expect(await pragma('foreign_keys')).toBe(1);
      expect(await pragma('busy_timeout')).toBe(5000);
    } finally {
      await db.close();
    }
  });

  it('keeps its data folder to its user: the folder 0700, every file 0600, loose ones narrowed', async () => {
    const folder = join(dir, 'data');
    await mkdir(folder, { mode: 0o755 });
    await chmod(folder, 0o755);
    await writeFile(join(folder, 'wallboard.sqlite'), '', { mode: 0o644 });
    await chmod(join(folder, 'wallboard.sqlite'), 0o644);
    const db = await openStore({ dataDir: folder });
    try {
      await db.kysely.insertInto('tokens').values({ id: 't', scope: 'full', secret_hash: 'h' }).execute();
      expect(await mode(folder)).toBe(0o700);
      const files = await readdir(folder);
      expect(files.sort()).toEqual([
        'wallboard.lock',
        'wallboard.sqlite',
        'wallboard.sqlite-shm',
        'wallboard.sqlite-wal',
      ]);
      for (const file of files) expect([file, await mode(join(folder, file))]).toEqual([file, 0o600]);
    } finally {
      await db.close();
    }
  });

  it('keeps what it wrote across a reopen, and releases its lock on close', async () => {
    const first = await openStore({ dataDir: dir });
    await first.kysely.insertInto('tokens').values({ id: 't', scope: 'full', secret_hash: 'h' }).execute();
    await first.close();
    expect(await readdir(dir)).not.toContain('wallboard.lock');
    const second = await openStore({ dataDir: dir });
    try {
      expect(await second.kysely.selectFrom('tokens').select('id').execute()).toEqual([{ id: 't' }]);
    } finally {
      await second.close();
    }
  });

  it('refuses a folder another live process holds, and takes over the lock of a dead one', async () => {
    await writeFile(join(dir, 'wallboard.lock'), String(process.ppid));
    await expect(openStore({ dataDir: dir })).rejects.toThrow(
      `the data folder ${dir} is in use by process ${process.ppid}`,
    );
    await writeFile(join(dir, 'wallboard.lock'), String(await deadPid()));
    const db = await openStore({ dataDir: dir });
    await db.close();
  });

  it('stores a Date as ISO 8601 text and refuses a value SQLite would store as something else', async () => {
    const db = await openStore({});
    try {
      const at = new Date('2026-11-21T07:00:00.123Z');
      const row = await sql<{ at: string }>`select ${at} as at`.execute(db.kysely);
      expect(row.rows).toEqual([{ at: '2026-11-21T07:00:00.123Z' }]);
      await expect(sql`select ${{ an: 'object' }} as x`.execute(db.kysely)).rejects.toThrow(
        'parameter 1 cannot be stored in SQLite',
      );
    } finally {
      await db.close();
    }
  });
});
