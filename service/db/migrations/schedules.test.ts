import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStoreAtVersion } from '../../test-support';
import type { Database } from '../database';
import { migrate } from '../migrate';
import { MIGRATIONS } from '../migrations';

/** A store migrated up to version 7, with a device and its command, then to version 8. */
describe('migration 8 on a store that has data', () => {
  let db: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, drop } = await openStoreAtVersion(7));
    await sql`insert into devices (id, tag) values ('d1', 'lobby')`.execute(db.kysely);
    await sql`insert into commands (id, device_id, type, status, created_at, updated_at, expires_at)
      values ('cmd_1', 'd1', 'identify', 'done', '2026-11-23T08:00:00.000Z', '2026-11-23T08:00:01.000Z', '2026-11-23T08:10:00.000Z')`.execute(
      db.kysely,
    );
    const later = MIGRATIONS.map((migration) => migration.version).filter((version) => version >= 8);
    expect(await migrate(db)).toEqual(later);
  });
  afterAll(() => drop());

  it('keeps the commands, takes wake and still refuses an unknown type, and cascades with the device', async () => {
    const rows = await db.kysely.selectFrom('commands').select(['id', 'type', 'status']).execute();
    expect(rows).toEqual([{ id: 'cmd_1', type: 'identify', status: 'done' }]);
    const at = '2026-11-23T09:00:00.000Z';
    await db.kysely
      .insertInto('commands')
      .values({
        id: 'cmd_2',
        device_id: 'd1',
        type: 'wake',
        status: 'queued',
        reason: null,
        created_at: at,
        updated_at: at,
        expires_at: at,
      })
      .execute();
    await expect(
      sql`insert into commands (id, device_id, type, status, created_at, updated_at, expires_at) values ('cmd_3', 'd1', 'explode', 'queued', ${at}, ${at}, ${at})`.execute(
        db.kysely,
      ),
    ).rejects.toThrow();
    await db.kysely.deleteFrom('devices').where('id', '=', 'd1').execute();
    expect(await db.kysely.selectFrom('commands').select('id').execute()).toEqual([]);
  });

  it('gives devices their group and settings, unset', async () => {
    await sql`insert into devices (id, tag) values ('d2', 'hall')`.execute(db.kysely);
    const row = await db.kysely
      .selectFrom('devices')
      .select(['group_id', 'schedule', 'power', 'rotation', 'time_zone', 'reported_time_zone'])
      .where('id', '=', 'd2')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      group_id: null,
      schedule: null,
      power: null,
      rotation: null,
      time_zone: null,
      reported_time_zone: null,
    });
    await expect(sql`update devices set rotation = 45 where id = 'd2'`.execute(db.kysely)).rejects.toThrow();
  });
});
