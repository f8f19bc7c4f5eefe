import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app';
import { ensureToken } from './bootstrap';
import type { Database } from './db/database';
import { openStore } from './db/open';
import { backupStore } from './db/sqlite-files';
import { secretsKey } from './domain/secret-box';
import { ADMIN_SECRET, TEST_POSTGRES_URL } from './test-support';

// What docs/scripts.md#secrets promises of a backup of the embedded store: it holds no value of a
// secret in readable text, whether set, replaced or deleted before it was taken. The values are
// sealed under the data folder's `secrets.key`, which the backup leaves out; a store opened again
// with that key runs its scripts with them. PostgreSQL's backups are pg_dump's.

let dir = '';
let db: Database;
let app: Awaited<ReturnType<typeof buildApp>>;

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${ADMIN_SECRET}` },
    ...(payload ? { payload } : {}),
  });

/** How often `value` is in the bytes of the file. */
async function occurrences(file: string, value: string): Promise<number> {
  const bytes = await readFile(file);
  const needle = Buffer.from(value);
  let count = 0;
  for (let at = bytes.indexOf(needle); at !== -1; at = bytes.indexOf(needle, at + 1)) count += 1;
  return count;
}

describe.skipIf(TEST_POSTGRES_URL !== undefined)(
  "a backup of the embedded store and scripts' secrets",
  () => {
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'wallboard-secrets-backup-'));
      db = await openStore({ dataDir: dir });
      await ensureToken(db, ADMIN_SECRET, 'full', 'test admin');
      app = await buildApp({ db, config: { secretsKey: await secretsKey({ dataDir: dir }) } });
      await app.ready();
    });
    afterAll(async () => {
      await app.close();
      await db.close();
      await rm(dir, { recursive: true, force: true });
    });

    it('holds no value of any secret in readable text, set, replaced or deleted', async () => {
      const created = await call('POST', '/scripts', {
        name: 'backed up',
        code: 'console.log(secrets.KEPT, secrets.REPLACED, secrets.DELETED)',
        interval: '1h',
        enabled: false,
      });
      expect(created.statusCode, created.body).toBe(201);
      const { id } = created.json() as { id: string };
      const values = { KEPT: 'kept-5b1e0c77', REPLACED: 'old-9d2a61f3', DELETED: 'gone-3c8e7a12' };
      for (const [name, value] of Object.entries(values)) {
        expect((await call('PUT', `/scripts/${id}/secrets/${name}`, { value })).statusCode).toBe(201);
      }
      const run = await call('POST', `/scripts/${id}/run`);
      expect(run.json()).toMatchObject({ outcome: 'ok', logs: ['*** *** ***'] });

      const first = join(dir, 'first.sqlite');
      await backupStore(dir, first);
      expect((await stat(first)).mode & 0o777).toBe(0o600);
      for (const value of Object.values(values)) expect(await occurrences(first, value), value).toBe(0);
      // The key is beside the store, not in it, and only the service's user reads it.
      const key = await stat(join(dir, 'secrets.key'));
      expect([key.size, key.mode & 0o777]).toEqual([32, 0o600]);
      expect(await occurrences(first, (await readFile(join(dir, 'secrets.key'))).toString('base64'))).toBe(0);

      expect(
        (await call('PUT', `/scripts/${id}/secrets/REPLACED`, { value: 'new-47f0b2d9' })).statusCode,
      ).toBe(200);
      expect((await call('DELETE', `/scripts/${id}/secrets/DELETED`)).statusCode).toBe(204);
      const second = join(dir, 'second.sqlite');
      await backupStore(dir, second);
      for (const value of [...Object.values(values), 'new-47f0b2d9']) {
        expect(await occurrences(second, value), value).toBe(0);
      }
      // The same folder's key opens them again: a run after a restart still has them.
      const again = await buildApp({ db, config: { secretsKey: await secretsKey({ dataDir: dir }) } });
      const after = await again.inject({
        method: 'POST',
        url: `/scripts/${id}/run`,
        headers: { authorization: `Bearer ${ADMIN_SECRET}` },
      });
      await again.close();
      expect(after.json()).toMatchObject({ outcome: 'ok', logs: ['*** *** undefined'] });
    });
  },
);
