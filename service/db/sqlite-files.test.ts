import { mkdtemp, open, readdir, rm, stat, truncate } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { backupStore, checkStore, restoreStore, sqlitePath, storeProblems } from './sqlite-files';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wallboard-sqlite-files-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A store in WAL mode with `count` rows, left open as a running service leaves it. */
function storeWith(count: number, file = sqlitePath(dir)): DatabaseSync {
  const db = new DatabaseSync(file);
  db.exec('pragma journal_mode = wal; create table if not exists items (id integer primary key, text text)');
  db.exec('create index if not exists items_text on items (text)');
  const insert = db.prepare('insert into items (text) values (?)');
  db.exec('begin');
  for (let i = 0; i < count; i += 1) insert.run(`item ${i} ${'x'.repeat(200)}`);
  db.exec('commit');
  return db;
}

const countIn = (file: string) => {
  const db = new DatabaseSync(file, { readOnly: true });
  const { n } = db.prepare('select count(*) as n from items').get() as { n: number };
  db.close();
  return n;
};

describe('the embedded store file', () => {
  it('passes the quick check when sound and names the damage when not', async () => {
    storeWith(2000).close();
    expect(storeProblems(sqlitePath(dir))).toEqual([]);
    expect(() => checkStore(sqlitePath(dir))).not.toThrow();
    // Garbage over pages in the middle of the file, as a bad sector or a torn copy leaves.
    const handle = await open(sqlitePath(dir), 'r+');
    const { size } = await handle.stat();
    await handle.write(Buffer.alloc(8192, 0x5a), 0, 8192, Math.floor(size / 2 / 4096) * 4096);
    await handle.close();
    expect(storeProblems(sqlitePath(dir)).length).toBeGreaterThan(0);
    expect(() => checkStore(sqlitePath(dir))).toThrow(/is damaged .*restore <backup-file>/);
  });

  it('calls a truncated file damaged, and one that is no database at all', async () => {
    storeWith(2000).close();
    const { size } = await stat(sqlitePath(dir));
    await truncate(sqlitePath(dir), Math.floor(size / 3));
    expect(() => checkStore(sqlitePath(dir))).toThrow(/is damaged/);
    await rm(sqlitePath(dir));
    await (
      await open(sqlitePath(dir), 'w')
    ).writeFile('not a database at all, but long enough to have a header');
    expect(() => checkStore(sqlitePath(dir))).toThrow(/is damaged/);
  });

  it('backs up a running store, its write-ahead log included, and restores it', async () => {
    const running = storeWith(500);
    // Committed but still in the write-ahead log, as a running service holds it.
    running.exec("insert into items (text) values ('last')");
    const backup = join(dir, 'copy.sqlite');
    await backupStore(dir, backup);
    expect(countIn(backup)).toBe(501);
    expect((await stat(backup)).mode & 0o777).toBe(0o600);
    await expect(backupStore(dir, backup)).rejects.toThrow(/exists already/);

    running.exec('delete from items');
    running.close();
    expect(countIn(sqlitePath(dir))).toBe(0);
    const kept = await restoreStore(dir, backup, new Date('2026-11-23T12:00:00Z'));
    // The old store's write-ahead log went with it.
    expect(await readdir(dir)).not.toContain('wallboard.sqlite-wal');
    expect(countIn(sqlitePath(dir))).toBe(501);
    expect(kept).toMatch(/before-restore-2026-11-23T12-00-00-000Z$/);
    expect(countIn(kept!)).toBe(0);
  });

  it('refuses to restore a file that is not a sound store', async () => {
    storeWith(10).close();
    const bad = join(dir, 'bad.sqlite');
    await (await open(bad, 'w')).writeFile('nothing');
    await expect(restoreStore(dir, bad, new Date())).rejects.toThrow(/not a sound store/);
    expect(countIn(sqlitePath(dir))).toBe(10);
  });
});
