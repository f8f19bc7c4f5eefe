import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from './database';
import { openEmbedded } from './embedded';
import { makeStoreTemplate } from './make-store-template';
import { migrate } from './migrate';
import { MIGRATIONS } from './migrations';
import { sqlitePath } from './sqlite-files';

// A new store copied from the build's template (store-template.ts) is the store the migrations
// make, stamped with its own start.
let dir: string;
let template: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wallboard-template-'));
  template = join(dir, 'fresh-store.sqlite');
  await makeStoreTemplate(template);
  // Marked in its header, which holds neither rows nor schema: a copy of it says so.
  const file = new DatabaseSync(template);
  file.exec('pragma user_version = 7');
  file.close();
});

const userVersion = async (db: Database) =>
  (await sql<{ user_version: number }>`pragma user_version`.execute(db.kysely)).rows[0]?.user_version;
afterAll(() => rm(dir, { recursive: true, force: true }));

/** Opens and migrates the store of the folder `name` as a start does, lets `work` use it, closes it. */
async function withStore<T>(name: string, from: string, work: (db: Database) => Promise<T>): Promise<T> {
  const db = await openEmbedded(join(dir, name), { template: from });
  try {
    await migrate(db);
    return await work(db);
  } finally {
    await db.close();
  }
}

/** Every table's definition and rows, the rows' times apart: what a store holds. */
function contents(file: string): { schema: unknown[]; rows: Record<string, unknown[]>; times: Set<string> } {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    const schema = db.prepare('select type, name, sql from sqlite_master order by type, name').all();
    const rows: Record<string, unknown[]> = {};
    const times = new Set<string>();
    const tables = db.prepare("select name from sqlite_master where type = 'table' order by name").all() as {
      name: string;
    }[];
    for (const { name } of tables) {
      rows[name] = (
        db.prepare(`select * from "${name}" order by rowid`).all() as Record<string, unknown>[]
      ).map((row) =>
        Object.fromEntries(
          Object.entries(row).map(([column, value]) => {
            if (typeof value !== 'string' || !/^\d{4}-\d\d-\d\dT[\d:.]+Z$/.test(value))
              return [column, value];
            times.add(value);
            return [column, 'a time'];
          }),
        ),
      );
    }
    // The stamp's updates ran the audit triggers' inserts of no rows, which give AUTOINCREMENT's
    // bookkeeping a row saying no id was taken yet: the same as none.
    rows.sqlite_sequence = rows.sqlite_sequence?.filter((row) => (row as { seq: number }).seq !== 0) ?? [];
    return { schema, rows, times };
  } finally {
    db.close();
  }
}

it('makes a new store a copy of the template, equal to a migrated one, its times its own start', async () => {
  const start = new Date();
  await withStore('migrated', join(dir, 'no-template'), async () => undefined);
  await withStore('copied', template, async (db) => {
    expect(await userVersion(db)).toBe(7);
    const applied = await db.kysely.selectFrom('schema_migrations').select('version').execute();
    expect(applied).toHaveLength(MIGRATIONS.length);
  });
  const migrated = contents(sqlitePath(join(dir, 'migrated')));
  const copied = contents(sqlitePath(join(dir, 'copied')));
  expect(copied.schema).toEqual(migrated.schema);
  expect(copied.rows).toEqual(migrated.rows);
  expect(copied.rows.accounts).toHaveLength(1);
  // The template was made before this test began: every time in the copy is of its start.
  expect(copied.times.size).toBe(1);
  expect(Date.parse([...copied.times][0] ?? '')).toBeGreaterThanOrEqual(start.getTime());
});

it('leaves a store with data as it is, and migrates a new one when the template is not current', async () => {
  await withStore('kept', template, (db) =>
    db.kysely.insertInto('accounts').values({ id: 'acc_kept', name: 'Kept' }).execute(),
  );
  await withStore('kept', template, async (db) => {
    const names = await db.kysely.selectFrom('accounts').select('name').orderBy('name').execute();
    expect(names.map(({ name }) => name)).toEqual(['Default', 'Kept']);
  });

  // A template of other migrations (a build's older or newer code): marked, to tell it apart.
  const stale = join(dir, 'stale.sqlite');
  await copyFile(template, stale);
  const file = new DatabaseSync(stale);
  file.exec(`delete from schema_migrations where version = ${MIGRATIONS.at(-1)?.version ?? 0}`);
  file.exec("update accounts set name = 'From the stale template'");
  file.close();
  await withStore('not-from-stale', stale, async (db) => {
    expect(await userVersion(db)).toBe(0);
    const accounts = await db.kysely.selectFrom('accounts').select('name').execute();
    expect(accounts.map(({ name }) => name)).toEqual(['Default']);
    const applied = await db.kysely.selectFrom('schema_migrations').select('version').execute();
    expect(applied).toHaveLength(MIGRATIONS.length);
  });
});
