import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotificationRepository } from '../../repositories/notifications';
import { openStoreAtVersion } from '../../test-support';
import type { Database } from '../database';
import { migrate } from '../migrate';

const AT = '2026-11-23T08:00:00.000Z';

/** A store as the release before version 20 left it, with a channel's notification, then migrated. */
describe('migration 20 (notification-targets) on a store that has notifications', () => {
  let db: Database;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, drop } = await openStoreAtVersion(19));
    await sql`insert into channels (id, type, name, tag) values ('ch_1', 'default', 'One', 'one')`.execute(
      db.kysely,
    );
    await sql`insert into notifications (id, channel_id, title, message, duration, created_at)
      values ('nt_old', 'ch_1', 'Deploy', 'v2', 10, ${AT})`.execute(db.kysely);
    expect(await migrate(db)).toContain(20);
  });
  afterAll(() => drop());

  const insert = (id: string, columns: Record<string, string | null>) =>
    db.kysely
      .insertInto('notifications')
      .values({ id, duration: 10, created_at: AT, channel_id: null, ...columns })
      .execute();

  it("keeps a channel's notification as one, with its target", async () => {
    const listed = await new NotificationRepository(db).list({ limit: 10 });
    expect(listed).toEqual([
      expect.objectContaining({ id: 'nt_old', channel_id: 'ch_1', target: { channel_id: 'ch_1' } }),
    ]);
  });

  it('stores one to every screen, a group or a screen, and refuses one with two targets', async () => {
    await insert('nt_all', {});
    await insert('nt_group', { target_group_id: 'g_1' });
    await insert('nt_screen', { target_device_tag: 'lobby' });
    const targets = new Map(
      (await new NotificationRepository(db).list({ limit: 10 })).map((n) => [n.id, n.target]),
    );
    expect(targets.get('nt_all')).toEqual({ all: true });
    expect(targets.get('nt_group')).toEqual({ group_id: 'g_1' });
    expect(targets.get('nt_screen')).toEqual({ device_tag: 'lobby' });
    await expect(insert('nt_two', { channel_id: 'ch_1', target_group_id: 'g_1' })).rejects.toThrow();
    await expect(
      insert('nt_three', { target_group_id: 'g_1', target_device_tag: 'lobby' }),
    ).rejects.toThrow();
  });

  it("still drops a channel's notifications with the channel", async () => {
    await sql`delete from channels where id = 'ch_1'`.execute(db.kysely);
    const ids = (await db.kysely.selectFrom('notifications').select('id').execute()).map((row) => row.id);
    expect(ids.sort()).toEqual(['nt_all', 'nt_group', 'nt_screen']);
  });
});
