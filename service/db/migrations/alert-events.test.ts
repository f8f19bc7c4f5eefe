import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withAccount } from '../../accounts/scope';
import { AlertRuleRepository } from '../../repositories/alert-rules';
import { AlertRepository } from '../../repositories/alerts';
import { openStoreAtVersion } from '../../test-support';
import type { Database } from '../database';
import { migrate } from '../migrate';

/**
 * A store of version 17 with offline rules of each target, an incident and its messages, migrated
 * to version 18 (alert-events): the rules and their history are kept and still hang together (the
 * SQLite table was made anew), the new events are taken, and the store still refuses what no
 * rule may be.
 */
describe('migration 18 (alert-events) on a store that has alerts', () => {
  let db: Database;
  let drop: () => Promise<void>;
  const at = '2026-11-24T08:00:00.000Z';
  const run = (query: ReturnType<typeof sql>) => query.execute(db.kysely);

  beforeAll(async () => {
    ({ db, drop } = await openStoreAtVersion(17));
    await run(
      sql`insert into groups (id, name, created_at, updated_at) values ('g1', 'Floor 1', ${at}, ${at})`,
    );
    await run(
      sql`insert into alert_destinations (id, kind, url, secret) values ('d1', 'webhook', 'https://x.example', 'secret-of-16-chars')`,
    );
    await run(
      sql`insert into alert_rules (id, event, after_seconds, created_at) values ('r_all', 'device.offline', 60, ${at})`,
    );
    await run(sql`insert into alert_rules (id, event, after_seconds, target_group_id, created_at)
      values ('r_group', 'device.offline', 120, 'g1', ${at})`);
    await run(sql`insert into alert_rules (id, event, after_seconds, target_device_tag, created_at)
      values ('r_tag', 'device.offline', 300, 'lobby', ${at})`);
    for (const rule of ['r_all', 'r_group', 'r_tag']) {
      await run(sql`insert into alert_rule_destinations (rule_id, destination_id) values (${rule}, 'd1')`);
    }
    await run(sql`insert into alerts (id, rule_id, event, status, devices, started_at, gather_until)
      values ('a1', 'r_all', 'device.offline', 'firing', ${'[{"tag":"lobby","name":"Lobby"}]'}, ${at}, ${at})`);
    await run(sql`insert into alert_deliveries (id, alert_id, destination_id, phase, status, attempts)
      values ('l1', 'a1', 'd1', 'firing', 'delivered', 1)`);
    await migrate(db);
  });
  afterAll(() => drop());

  const count = async (table: 'alerts' | 'alert_deliveries' | 'alert_rules' | 'alert_rule_destinations') =>
    Number(
      (await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(db.kysely)).rows[0]?.n,
    );

  it('keeps every rule as it was, with its destinations, and its incidents', async () => {
    await withAccount('default', async () => {
      expect(await new AlertRuleRepository(db).list()).toEqual([
        expect.objectContaining({
          id: 'r_all',
          event: 'device.offline',
          after_seconds: 60,
          target: { all: true },
        }),
        expect.objectContaining({
          id: 'r_group',
          after_seconds: 120,
          target: { group_id: 'g1' },
          destination_ids: ['d1'],
        }),
        expect.objectContaining({ id: 'r_tag', after_seconds: 300, target: { device_tag: 'lobby' } }),
      ]);
      const [incident] = await new AlertRepository(db).list();
      expect(incident).toMatchObject({
        id: 'a1',
        event: 'device.offline',
        devices: ['lobby'],
        rule_id: 'r_all',
      });
      expect(incident).not.toHaveProperty('scripts');
      expect(incident?.deliveries).toHaveLength(1);
    });
  });

  it('takes the new events, and refuses an unknown one or a rule without the field of its event', async () => {
    await run(sql`insert into scripts (id, name, code, run_interval, created_at, updated_at)
      values ('s1', 'Feed', 'return 1', '1h', ${at}, ${at})`);
    await run(
      sql`insert into alert_rules (id, event, after_seconds) values ('r_fail', 'device.failing', 60)`,
    );
    await run(
      sql`insert into alert_rules (id, event, failures, target_script_id) values ('r_script', 'script.failing', 3, 's1')`,
    );
    await run(
      sql`insert into alert_rules (id, event, after_seconds) values ('r_node', 'node.unwritable', 60)`,
    );
    await expect(
      run(sql`insert into alert_rules (id, event, after_seconds) values ('r_x', 'screen.sad', 60)`),
    ).rejects.toThrow();
    await expect(
      run(sql`insert into alert_rules (id, event) values ('r_y', 'script.failing')`),
    ).rejects.toThrow();
    await expect(
      run(sql`insert into alert_rules (id, event, failures) values ('r_z', 'device.offline', 3)`),
    ).rejects.toThrow();
    await expect(
      run(sql`insert into alert_rules (id, event, failures, target_script_id, target_device_tag)
        values ('r_w', 'script.failing', 3, 's1', 'lobby')`),
    ).rejects.toThrow();
    await run(sql`update alerts set scripts = ${'[]'} where id = 'a1'`);
  });

  it('still takes a rule away with its group or script, and an incident and its messages with its rule', async () => {
    await run(sql`delete from groups where id = 'g1'`);
    await run(sql`delete from scripts where id = 's1'`);
    const ids = (await sql<{ id: string }>`select id from alert_rules order by id`.execute(db.kysely)).rows;
    expect(ids.map((row) => row.id)).toEqual(['r_all', 'r_fail', 'r_node', 'r_tag']);
    expect(await count('alert_rule_destinations')).toBe(2);
    await run(sql`delete from alert_rules where id = 'r_all'`);
    expect(await count('alerts')).toBe(0);
    expect(await count('alert_deliveries')).toBe(0);
  });
});
