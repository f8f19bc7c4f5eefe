import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { hashSecret } from '../http/auth';
import { EventRepository } from '../repositories/events';
import { createTestDatabase, openTestStore, TEST_POSTGRES_URL } from '../test-support';
import type { Database } from './database';
import { openEmbedded } from './embedded';
import { LEGACY_PGLITE_SCHEMA, LEGACY_SCHEMA_MIGRATIONS_SQL } from './legacy-pglite-schema';
import { migrate } from './migrate';
import { MIGRATIONS, type Migration } from './migrations';
import { openStore } from './open';

/** The store of `npm run test:postgres` or SQLite: both start empty and are migrated from one list. */
describe('migrations on a fresh store', () => {
  let db: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, drop } = await openTestStore());
  });
  afterAll(() => drop());

  const versions = async () =>
    (
      await db.kysely.selectFrom('schema_migrations').select(['version', 'name']).orderBy('version').execute()
    ).map((row) => ({ ...row }));

  it('records every version once and applies nothing a second time', async () => {
    expect(await versions()).toEqual(MIGRATIONS.map(({ version, name }) => ({ version, name })));
    expect((await versions()).slice(0, 2)).toEqual([
      { version: 1, name: 'initial' },
      { version: 2, name: 'scripts' },
    ]);
    expect(await migrate(db)).toEqual([]);
    expect(await versions()).toHaveLength(MIGRATIONS.length);
  });

  it('leaves a failing migration out whole: its tables and its version', async () => {
    const broken: Migration = {
      version: Math.max(...MIGRATIONS.map((migration) => migration.version)) + 1,
      name: 'broken',
      async up({ kysely }) {
        await kysely.schema
          .createTable('half_made')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .execute();
        throw new Error('the migration fails halfway');
      },
    };
    await expect(migrate(db, [...MIGRATIONS, broken])).rejects.toThrow('fails halfway');
    expect(await versions()).toHaveLength(MIGRATIONS.length);
    await expect(sql`select count(*) from half_made`.execute(db.kysely)).rejects.toThrow();
  });
});

/** A new embedded store on disk, its log's syncs counted. */
describe('migrations of a new store on disk', () => {
  let dir: string;
  let db: Database;
  let syncs: number;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'wallboard-migrate-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));
  const openNew = async (name: string) => {
    syncs = 0;
    db = await openEmbedded(join(dir, name), {
      syncLog: (sync) => async () => {
        syncs += 1;
        await sync();
      },
    });
  };
  const count = async () =>
    Number(
      (
        await sql<{ n: number }>`select count(*) as n from sqlite_master where type = 'table'`.execute(
          db.kysely,
        )
      ).rows[0]?.n,
    );

  it('applies every version in one commit: a sync of the disk for it, not one per version', async () => {
    await openNew('whole');
    try {
      expect(await migrate(db)).toEqual(MIGRATIONS.map((migration) => migration.version));
      // The others: the versions table made, read, and the foreign keys turned off and on, each
      // on its own (it was 19 with a commit per version).
      expect(syncs).toBe(4);
      expect(await count()).toBeGreaterThan(MIGRATIONS.length);
    } finally {
      await db.close();
    }
  });

  it('leaves a new store empty but for the versions table when its last version fails', async () => {
    await openNew('broken');
    try {
      const broken: Migration = {
        version: Math.max(...MIGRATIONS.map((migration) => migration.version)) + 1,
        name: 'broken',
        up: () => Promise.reject(new Error('the migration fails halfway')),
      };
      await expect(migrate(db, [...MIGRATIONS, broken])).rejects.toThrow('fails halfway');
      expect(await count()).toBe(1);
      expect(await migrate(db)).toHaveLength(MIGRATIONS.length);
    } finally {
      await db.close();
    }
  });
});

/** Tables, columns, indexes and constraints as PostgreSQL describes them. */
async function catalog(client: pg.Client): Promise<unknown[]> {
  const columns = await client.query(
    `select table_name, column_name, ordinal_position, data_type, udt_name, is_nullable, column_default
       from information_schema.columns where table_schema = 'public'
      order by table_name, ordinal_position`,
  );
  const indexes = await client.query(
    `select tablename, indexname, indexdef from pg_indexes where schemaname = 'public'
      order by tablename, indexname`,
  );
  const constraints = await client.query(
    `select conrelid::regclass::text as table_name, conname, pg_get_constraintdef(oid) as definition
       from pg_constraint where connamespace = 'public'::regnamespace
      order by table_name, conname`,
  );
  return [columns.rows, indexes.rows, constraints.rows];
}

describe.skipIf(!TEST_POSTGRES_URL)('a PostgreSQL database made by the versions before Kysely', () => {
  const SECRET = 'legacy-admin-secret-0123456789';
  let legacy: { url: string; drop(): Promise<void> };
  let client: pg.Client;

  beforeAll(async () => {
    legacy = await createTestDatabase(TEST_POSTGRES_URL as string);
    client = new pg.Client({ connectionString: legacy.url });
    await client.connect();
    // As the old runner left it: its own SQL, one transaction per version, each recorded.
    await client.query(LEGACY_SCHEMA_MIGRATIONS_SQL);
    for (const migration of LEGACY_PGLITE_SCHEMA) {
      await client.query('begin');
      await client.query(migration.sql);
      await client.query('insert into schema_migrations (version, name) values ($1, $2)', [
        migration.version,
        migration.name,
      ]);
      await client.query('commit');
    }
    await client.query(
      `insert into channels (id, type, name, tag) values ('ch_default', 'default', 'Default', 'default');
       insert into tokens (id, scope, name, secret_hash) values ('tok_old', 'full', 'old', '${hashSecret(SECRET)}');
       insert into flows (id, type, variant, tag, enabled, channel_id, data, data_updated_at)
         values ('fl_old', 'default', 'value', 'legacy', true, 'ch_default', '{"value": 41}', now());
       insert into events (type, rooms, payload) values ('flow.changed', '{flow:fl_old}', '{"flow_id": "fl_old"}');`,
    );
  });
  afterAll(async () => {
    await client.end();
    await legacy.drop();
  });

  it('keeps its versions 1 and 2 as they are, takes the later ones, and works with the new code', async () => {
    const before = (
      await client.query('select version, name, applied_at from schema_migrations order by version')
    ).rows;
    const db = await openStore({ databaseUrl: legacy.url });
    try {
      expect(await migrate(db)).toEqual([]);
      const after = (
        await client.query('select version, name, applied_at from schema_migrations order by version')
      ).rows;
      expect(after.slice(0, before.length)).toEqual(before);
      expect(after.map((row: { version: number }) => row.version)).toEqual(
        MIGRATIONS.map((migration) => migration.version),
      );

      const app = await buildApp({ db });
      const call = (method: 'GET' | 'PUT', url: string, payload?: object) =>
        app.inject({ method, url, payload, headers: { authorization: `Bearer ${SECRET}` } });
      expect((await call('GET', '/flows/legacy/metrics')).json()).toEqual({ value: 41 });
      expect((await call('PUT', '/flows/legacy/metrics', { value: 42 })).statusCode).toBe(200);
      expect((await call('GET', '/flows')).json()).toEqual([expect.objectContaining({ tag: 'legacy' })]);
      // Its text[] rooms are read by the replay of reconnecting devices.
      const events = await new EventRepository(db).since(0, ['flow:fl_old'], 10);
      expect(events.map((event) => event.type)).toEqual(['flow.changed', 'metrics.changed']);
      await app.close();
    } finally {
      await db.close();
    }
  });

  it('has the schema that the Kysely migrations give a new database', async () => {
    const fresh = await createTestDatabase(TEST_POSTGRES_URL as string);
    const db = await openStore({ databaseUrl: fresh.url });
    await db.close();
    const other = new pg.Client({ connectionString: fresh.url });
    await other.connect();
    try {
      const expected = await catalog(client);
      // Every column of the eleven tables of versions 1 and 2 and schema_migrations (88), and
      // those of the later versions, so the comparison compares.
      expect((expected[0] as unknown[]).length).toBeGreaterThan(88);
      expect(await catalog(other)).toEqual(expected);
    } finally {
      await other.end();
      await fresh.drop();
    }
  });
});
