import type { InjectOptions, LightMyRequestResponse } from 'fastify';
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
 * A whole service on a fresh in-memory embedded store (or PostgreSQL when
 * WALLBOARD_TEST_DATABASE_URL is set and `postgres` is asked for), with an admin token.
 */
export async function startTestService(options: Omit<AppOptions, 'db'> = {}): Promise<TestService> {
  const db = await openStore({});
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
      await db.close();
    },
  };
}
