import { mkdtemp, open, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from './db/open';
import { sqlitePath } from './db/sqlite-files';
import { TokenRepository } from './repositories/tokens';
import { runServiceCommand, spawnService } from './service-process';
import { TEST_POSTGRES_URL } from './test-support';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wallboard-store-commands-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function tokenNames(): Promise<string[]> {
  const db = await openStore({ dataDir: join(dir, 'data') });
  try {
    return (await new TokenRepository(db).list([])).map((token) => token.name);
  } finally {
    await db.close();
  }
}

// The embedded store's file; the service's processes, as an operator runs them.
describe.skipIf(TEST_POSTGRES_URL)('backup, a damaged store, and restore', () => {
  it('backs up a store, refuses to serve it damaged, and restores the backup', async () => {
    const data = join(dir, 'data');
    const db = await openStore({ dataDir: data });
    for (let i = 0; i < 300; i += 1) {
      await new TokenRepository(db).create({
        scope: 'readonly',
        name: `screen ${i}`,
        secretHash: `hash-${i}`,
      });
    }
    await db.close();

    const backup = join(dir, 'backup.sqlite');
    const backedUp = await runServiceCommand(['backup', backup, '--data', data]);
    expect(backedUp, backedUp.stderr).toMatchObject({ code: 0, stdout: expect.stringMatching(/backed up/) });
    expect((await stat(backup)).mode & 0o777).toBe(0o600);

    // Pages of garbage in the middle of the file, as a bad sector leaves.
    const handle = await open(sqlitePath(data), 'r+');
    const { size } = await handle.stat();
    await handle.write(Buffer.alloc(16_384, 0x5a), 0, 16_384, Math.floor(size / 2 / 4096) * 4096);
    await handle.close();
    await expect(spawnService(['--port', '0', '--data', data])).rejects.toThrow(
      /wallboard\.sqlite is damaged .*restore <backup-file>/,
    );

    const restored = await runServiceCommand(['restore', backup, '--data', data]);
    expect(restored, restored.stderr).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/restored .* the store it replaced is .*before-restore-/),
    });
    expect(await tokenNames()).toHaveLength(300);

    const service = await spawnService(['--port', '0', '--data', data]);
    try {
      const refused = await runServiceCommand(['restore', backup, '--data', data]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/in use by process/);
    } finally {
      await service.stop();
    }
  });
});
