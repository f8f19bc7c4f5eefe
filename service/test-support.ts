import { randomBytes } from 'node:crypto';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { buildApp, type App, type AppOptions } from './app';
import { ensureToken } from './bootstrap';
import type { Database } from './db/database';
import { openStore } from './db/open';

export const ADMIN_SECRET = 'test-admin-secret-0123456789';

export interface TestService {
  app: App;
  db: Database;
  /** Sends a request with the admin token unless `token` says otherwise (null: none). */
  call(
    method: InjectOptions['method'],
    url: string,
    body?: unknown,
    token?: string | null,
  ): Promise<LightMyRequestResponse>;
  /** A new token of the scope; its secret. */
  tokenOf(scope: 'full' | 'readonly' | 'affiliated'): Promise<string>;
  close(): Promise<void>;
}

/**
 * A fresh store for one test file: in-memory embedded, or, when WALLBOARD_TEST_DATABASE_URL is
 * set (`npm run test:postgres`), a new database on that PostgreSQL server, dropped afterwards.
 */
export async function openTestStore(): Promise<{ db: Database; drop(): Promise<void> }> {
  const serverUrl = process.env.WALLBOARD_TEST_DATABASE_URL;
  if (!serverUrl) {
    const db = await openStore({});
    return { db, drop: () => db.close() };
  }
  const name = `wallboard_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const db = await openStore({ databaseUrl: url.toString() });
  return {
    db,
    async drop() {
      await db.close();
      await admin.query(`drop database ${name} with (force)`);
      await admin.end();
    },
  };
}

/** A whole service on a fresh store (see openTestStore), with an admin token. */
export async function startTestService(options: Omit<AppOptions, 'db'> = {}): Promise<TestService> {
  const { db, drop } = await openTestStore();
  await ensureToken(db, ADMIN_SECRET, 'full', 'test admin');
  const app = await buildApp({ ...options, db });
  await app.ready();
  const call: TestService['call'] = (method, url, body, token = ADMIN_SECRET) =>
    app.inject({
      method,
      url,
      headers: token === null ? {} : { authorization: `Bearer ${token}` },
      ...(body === undefined ? {} : { payload: body as InjectOptions['payload'] }),
    });
  return {
    app,
    db,
    call,
    async tokenOf(scope) {
      const response = await call('POST', '/account/tokens', { scope, name: `${scope} test token` });
      return (response.json() as { token: string }).token;
    },
    async close() {
      await app.close();
      await drop();
    },
  };
}
