import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withAccount } from '../../accounts/scope';
import { openStoreAtVersion } from '../../test-support';
import type { Database } from '../database';
import { isUniqueViolation } from '../constraint-errors';
import { migrate } from '../migrate';

/**
 * A store of version 9 with a device, its bound token and pairing, a channel, a flow and a group,
 * migrated to accounts: every row is the default account's, the tags are unique per account, and
 * the tokens and pairings still go with their device.
 */
describe('migration 11 (accounts) on a store that has data', () => {
  let db: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, drop } = await openStoreAtVersion(9));
    const at = '2026-11-24T08:00:00.000Z';
    await sql`insert into devices (id, tag) values ('d1', 'lobby')`.execute(db.kysely);
    await sql`insert into tokens (id, scope, secret_hash, device_tag) values ('t1', 'affiliated', 'h1', 'lobby')`.execute(
      db.kysely,
    );
    await sql`insert into pairings (id, code, secret_hash, expires_at, device_tag, token_id)
      values ('p1', 'ABCD', 'h2', ${at}, 'lobby', 't1')`.execute(db.kysely);
    await sql`insert into channels (id, type, name, tag) values ('c1', 'default', 'News', 'news')`.execute(
      db.kysely,
    );
    await sql`insert into groups (id, name, created_at, updated_at) values ('g1', 'Floor 1', ${at}, ${at})`.execute(
      db.kysely,
    );
    await migrate(db);
    await sql`insert into accounts (id, name) values ('acc_b', 'B')`.execute(db.kysely);
  });
  afterAll(() => drop());

  it('gives every row to the default account', async () => {
    const owners = await Promise.all(
      (['devices', 'tokens', 'pairings', 'channels', 'groups'] as const).map(async (table) =>
        sql<{ account_id: string }>`select account_id from ${sql.table(table)}`.execute(db.kysely),
      ),
    );
    expect(owners.flatMap((result) => result.rows.map((row) => row.account_id))).toEqual(
      Array(5).fill('default'),
    );
  });

  it('takes the same tag and name in another account, and refuses them twice in one', async () => {
    await withAccount('acc_b', async () => {
      await db.kysely.insertInto('devices').values({ id: 'd2', tag: 'lobby' }).execute();
      await db.kysely
        .insertInto('channels')
        .values({ id: 'c2', type: 'default', name: 'News', tag: 'news', parent_channel_id: null })
        .execute();
      await db.kysely
        .insertInto('groups')
        .values({
          id: 'g2',
          name: 'Floor 1',
          created_at: '2026-11-24T08:00:00.000Z',
          updated_at: '2026-11-24T08:00:00.000Z',
        })
        .execute();
    });
    const again = sql`insert into devices (id, tag) values ('d3', 'lobby')`.execute(db.kysely);
    await expect(again).rejects.toSatisfy(isUniqueViolation);
  });

  it('binds a token to a device of its own account, and deletes it with that device', async () => {
    const foreign = sql`insert into tokens (id, scope, secret_hash, device_tag, account_id)
      values ('t2', 'affiliated', 'h3', 'hall', 'acc_b')`.execute(db.kysely);
    await expect(foreign).rejects.toThrow();
    await sql`delete from devices where id = 'd1'`.execute(db.kysely);
    expect((await sql`select id from tokens`.execute(db.kysely)).rows).toEqual([]);
    expect((await sql`select id from pairings`.execute(db.kysely)).rows).toEqual([]);
    // The other account's device of the same tag is still there.
    expect((await sql<{ id: string }>`select id from devices`.execute(db.kysely)).rows).toEqual([
      { id: 'd2' },
    ]);
  });
});
