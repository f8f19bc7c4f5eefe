import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BoardRepository } from '../repositories/boards';
import { DeviceRepository } from '../repositories/devices';
import { EventRepository } from '../repositories/events';
import { FlowRepository } from '../repositories/flows';
import { PlaylistRepository } from '../repositories/playlists';
import { ScriptRepository } from '../repositories/scripts';
import { TokenRepository } from '../repositories/tokens';
import { TEST_POSTGRES_URL } from '../test-support';
import { openLegacyPglite } from './legacy-pglite';
import { LEGACY_PGLITE_SCHEMA, LEGACY_SCHEMA_MIGRATIONS_SQL } from './legacy-pglite-schema';
import { openStore } from './open';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wallboard-import-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A data folder as the PGlite version wrote it: its schema, migrations table and rows of each table. */
async function writeLegacyFolder(): Promise<void> {
  const pglite = await openLegacyPglite(dir);
  try {
    await pglite.exec(LEGACY_SCHEMA_MIGRATIONS_SQL);
    for (const migration of LEGACY_PGLITE_SCHEMA) {
      await pglite.exec(migration.sql);
      await pglite.query('insert into schema_migrations (version, name) values ($1, $2)', [
        migration.version,
        migration.name,
      ]);
    }
    await pglite.exec(`
      insert into tokens (id, scope, name, secret_hash) values ('tk_1', 'full', 'admin', 'hash-1');
      insert into channels (id, type, name, tag) values ('ch_1', 'default', 'Default', 'default');
      insert into channels (id, type, name, tag, parent_channel_id)
        values ('ch_2', 'virtualized', 'Lobby', 'lobby', 'ch_1');
      insert into flows (id, type, variant, tag, enabled, channel_id, source, parameters, data, data_updated_at)
        values ('fl_1', 'default', 'number', 'visitors', true, 'ch_1', 'script', '{}',
                '{"value": 42, "label": "visitors"}', '2026-11-20T10:00:00Z');
      insert into boards (id, name, settings) values ('bo_1', 'Lobby', '{"theme": "dark", "columns": 4, "rows": 3}');
      insert into widgets (id, board_id, flow_id, variant, "column", "row", width, height, in_board_index)
        values ('wi_1', 'bo_1', 'fl_1', 'number', 0, 0, 2, 1, 0);
      insert into notifications (id, channel_id, title, message, duration, sound_url)
        values ('no_1', 'ch_1', 'Deploy', 'api is live', 10, 'default');
      insert into playlists (id, name, items) values ('pl_1', 'Main', '[{"type": "board", "board_id": "bo_1", "duration": 30}]');
      insert into devices (id, tag, playlist_id, name, online, last_seen_date, diagnostics)
        values ('de_1', 'kitchen', 'pl_1', 'Kitchen', true, '2026-11-20T10:00:00Z', '{"platform": "linux"}');
      insert into events (type, rooms, payload) values
        ('notification.created', '{channel:ch_1}', '{"id": "no_1"}'),
        ('metrics.changed', '{flow:fl_1,board:bo_1}', '{"tag": "visitors"}');
      insert into scripts (id, name, code, run_interval, flow_id) values ('sc_1', 'Visitors', 'return { value: 1 }', '30s', 'fl_1');
      insert into script_runs (id, script_id, started_at, duration_ms, outcome, trigger, logs)
        values ('ru_1', 'sc_1', '2026-11-20T10:00:00Z', 12, 'ok', 'schedule', '["hello"]');
    `);
  } finally {
    await pglite.close();
  }
}

// The PGlite folder is store-independent: imported into SQLite, which is what a data folder holds.
describe.skipIf(TEST_POSTGRES_URL)('an older version’s data folder', () => {
  it('is imported into the SQLite store on first start, every table, and only once', async () => {
    await writeLegacyFolder();
    const imported: Record<string, number>[] = [];
    const db = await openStore({ dataDir: dir, onImported: (counts) => imported.push(counts) });
    try {
      expect(imported).toEqual([
        {
          tokens: 1,
          channels: 2,
          flows: 1,
          boards: 1,
          widgets: 1,
          notifications: 1,
          playlists: 1,
          devices: 1,
          events: 2,
          scripts: 1,
          script_runs: 1,
        },
      ]);
      const flows = new FlowRepository(db);
      expect(await flows.readData('visitors')).toEqual({ value: 42, label: 'visitors' });
      expect((await flows.getByTag('visitors'))?.channel_id).toBe('ch_1');
      expect((await new BoardRepository(db).get('bo_1'))?.name).toBe('Lobby');
      expect((await new PlaylistRepository(db).list())[0]?.items).toEqual([
        { type: 'board', board_id: 'bo_1', duration: 30 },
      ]);
      const [device] = await new DeviceRepository(db).list();
      expect(device).toMatchObject({ tag: 'kitchen', playlist_id: 'pl_1', online: true });
      expect(device?.last_seen_date).toBe('2026-11-20T10:00:00.000Z');
      expect((await new EventRepository(db).since(0, ['board:bo_1'], 10)).map((event) => event.type)).toEqual(
        ['metrics.changed'],
      );
      const scripts = new ScriptRepository(db);
      expect((await scripts.listRuns('sc_1'))[0]).toMatchObject({
        id: 'ru_1',
        outcome: 'ok',
        logs: ['hello'],
      });
    } finally {
      await db.close();
    }
    expect((await readdir(dir)).filter((name) => name.startsWith('pgdata'))).toEqual([
      expect.stringMatching(/^pgdata\.imported-/),
    ]);
    const again: Record<string, number>[] = [];
    const reopened = await openStore({ dataDir: dir, onImported: (counts) => again.push(counts) });
    await reopened.close();
    expect(again).toEqual([]);
  });

  it('refuses to import into a store that has data, losing neither', async () => {
    const db = await openStore({ dataDir: dir });
    await new TokenRepository(db).create({ scope: 'full', name: 'new', secretHash: 'hash-new' });
    await db.close();
    await writeLegacyFolder();
    await expect(openStore({ dataDir: dir })).rejects.toThrow(/holds an older version's store/);
    expect(await readdir(dir)).toContain('pgdata');
  });
});
