import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database';
import { migrate } from '../db/migrate';
import { MIGRATIONS, type Migration } from '../db/migrations';
import { remakeSqliteTable } from '../db/migrations/accounts';
import { openStoreAtVersion } from '../test-support';
import { withActor, type Actor } from './actor';
import { AUDITED_TABLES } from './audited-tables';

// The triggers follow the schema: made for every audited table there is, and made anew after a
// later migration, even one that makes an audited table again (SQLite drops its triggers with it).
const actor: Actor = { kind: 'user', id: 'u1', name: 'migrator', address: null };
let db: Database;
let drop: () => Promise<void>;

beforeAll(async () => {
  ({ db, drop } = await openStoreAtVersion(23));
});
afterAll(() => drop());

async function audited(): Promise<string[]> {
  const { rows } =
    db.kind === 'postgres'
      ? await sql<{ name: string }>`
          select distinct c.relname as name from pg_trigger t join pg_class c on c.oid = t.tgrelid
          where t.tgname = 'wallboard_audit'`.execute(db.kysely)
      : await sql<{ name: string }>`
          select distinct tbl_name as name from sqlite_master where type = 'trigger'
          and name like 'wallboard_audit_%'`.execute(db.kysely);
  return rows.map((row) => row.name).sort();
}

const overrideOf = (id: string) => ({
  id,
  title: 'Fire drill',
  message: 'At noon',
  created_at: new Date().toISOString(),
  created_by: 'someone',
});

describe('the audit triggers', () => {
  it('are made with migration 24, for each audited table there is', async () => {
    expect(await audited()).toEqual([]);
    await migrate(db, MIGRATIONS);
    const tables = await audited();
    expect(tables).toContain('boards');
    expect(tables).toContain('users');
    expect(tables.every((table) => table in AUDITED_TABLES)).toBe(true);
    expect(tables).not.toContain('audit_log');
    expect(tables).not.toContain('events');
  });

  it('record nothing without an actor', async () => {
    await db.kysely.insertInto('overrides').values(overrideOf('ov_quiet')).execute();
    const rows = await db.kysely.selectFrom('audit_log').selectAll().execute();
    expect(rows).toEqual([]);
  });

  it("mask the secrets of the other engineers' tables too: an account's single sign-on", async () => {
    const now = new Date().toISOString();
    await withActor(actor, () =>
      db.kysely
        .insertInto('account_sso')
        .values({
          issuer: 'https://id.example',
          client_id: 'wallboard',
          client_secret: 'oidc-secret',
          created_at: now,
          updated_at: now,
        })
        .execute(),
    );
    const row = await db.kysely
      .selectFrom('audit_log')
      .select(['resource', 'resource_id', 'after'])
      .where('resource', '=', 'account_sso')
      .executeTakeFirstOrThrow();
    expect(row.resource_id).toBe('default');
    expect(JSON.parse(row.after ?? '{}')).toMatchObject({ client_id: 'wallboard', client_secret: '***' });
    expect(row.after).not.toContain('oidc-secret');
    await db.kysely.deleteFrom('audit_log').execute();
  });

  it('keep recording after a later migration makes an audited table again, with its new column', async () => {
    const later: Migration = {
      version: Math.max(...MIGRATIONS.map((migration) => migration.version)) + 1,
      name: 'overrides-note',
      async up(tx) {
        await tx.kysely.schema.alterTable('overrides').addColumn('note', 'text').execute();
        const bytes = tx.kind === 'postgres' ? 'bytea' : 'blob';
        await tx.kysely.schema.alterTable('overrides').addColumn('picture', bytes).execute();
        if (tx.kind === 'sqlite') await remakeSqliteTable(tx, 'overrides', (create) => create);
      },
    };
    expect(await migrate(db, [...MIGRATIONS, later])).toEqual([later.version]);
    await withActor(actor, () =>
      db.transaction(async (tx) => {
        await tx.kysely.insertInto('overrides').values(overrideOf('ov_noted')).execute();
        const picture = new Uint8Array([1, 2, 3]);
        await sql`update overrides set note = 'see the plan', picture = ${picture} where id = 'ov_noted'`.execute(
          tx.kysely,
        );
      }),
    );
    const rows = await db.kysely
      .selectFrom('audit_log')
      .select(['resource', 'resource_id', 'action', 'actor_name', 'after'])
      .orderBy('seq')
      .execute();
    expect(rows.map((row) => [row.resource, row.resource_id, row.action, row.actor_name])).toEqual([
      ['overrides', 'ov_noted', 'create', 'migrator'],
      ['overrides', 'ov_noted', 'update', 'migrator'],
    ]);
    const after = JSON.parse(rows[1]?.after ?? '{}') as Record<string, unknown>;
    expect(after).toMatchObject({ note: 'see the plan', title: 'Fire drill' });
    // JSON holds no bytes: SQLite's triggers record a binary value's size, PostgreSQL its hex.
    expect(after.picture).toBe(db.kind === 'postgres' ? '\\x010203' : '(3 bytes)');
  });
});
