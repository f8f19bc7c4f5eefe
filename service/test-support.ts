import { randomBytes } from 'node:crypto';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import {
  InsertQueryNode,
  TableNode,
  UpdateQueryNode,
  type KyselyPlugin,
  type LogConfig,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';
import pg from 'pg';
import { buildApp, type App, type AppOptions } from './app';
import { AccountRepository } from './accounts/accounts';
import { withAccount } from './accounts/scope';
import { ensureToken } from './bootstrap';
import { databaseOn, type Database, type Queryable } from './db/database';
import { fromJson, fromTextArray } from './db/dialect';
import { openEmbedded } from './db/embedded';
import { migrate } from './db/migrate';
import { MIGRATIONS } from './db/migrations';
import { openStore, type StoreOptions } from './db/open';
import { openPostgres } from './db/postgres';
import { hashSecret, newSecret } from './http/auth';
import { TokenRepository } from './repositories/tokens';

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
  /** A new account named `name` with a full token: its id, and requests with that token. */
  addAccount(name: string): Promise<{ id: string; token: string; call: AccountCall }>;
  close(): Promise<void>;
}

/** A request as one account's full token. */
export type AccountCall = (
  method: InjectOptions['method'],
  url: string,
  body?: unknown,
) => Promise<LightMyRequestResponse>;

/** The PostgreSQL server of `npm run test:postgres`, or undefined when the tests run on SQLite. */
export const TEST_POSTGRES_URL = process.env.WALLBOARD_TEST_DATABASE_URL;

/** A new, empty database on the test PostgreSQL server, and how to drop it. */
export async function createTestDatabase(serverUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `wallboard_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      await admin.query(`drop database ${name} with (force)`);
      await admin.end();
    },
  };
}

/**
 * A fresh store for one test file: in-memory embedded, or, when WALLBOARD_TEST_DATABASE_URL is
 * set (`npm run test:postgres`), a new database on that PostgreSQL server, dropped afterwards.
 */
export async function openTestStore(
  options: Pick<StoreOptions, 'log'> = {},
): Promise<{ db: Database; drop(): Promise<void> }> {
  if (!TEST_POSTGRES_URL) {
    const db = await openStore(options);
    return { db, drop: () => db.close() };
  }
  const database = await createTestDatabase(TEST_POSTGRES_URL);
  const db = await openStore({ ...options, databaseUrl: database.url });
  return {
    db,
    async drop() {
      await db.close();
      await database.drop();
    },
  };
}

/**
 * A store migrated up to `version` only, as an older release left it (for the tests of later
 * migrations): embedded in memory, or a new database on the test PostgreSQL server.
 */
export async function openStoreAtVersion(version: number): Promise<{ db: Database; drop(): Promise<void> }> {
  const database = TEST_POSTGRES_URL ? await createTestDatabase(TEST_POSTGRES_URL) : null;
  const db = database ? await openPostgres(database.url) : await openEmbedded();
  await migrate(
    db,
    MIGRATIONS.filter((migration) => migration.version <= version),
  );
  return {
    db,
    async drop() {
      await db.close();
      await database?.drop();
    },
  };
}

/** How a test wants its store: watched (Kysely's `log`), or wrapped (a FaultInjector). */
export interface TestStoreOptions {
  log?: LogConfig;
  wrap?: (db: Database) => Database;
}

/** A whole service on a fresh store (see openTestStore), with an admin token. */
export async function startTestService(
  options: Omit<AppOptions, 'db'> = {},
  store: TestStoreOptions = {},
): Promise<TestService> {
  const opened = await openTestStore({ log: store.log });
  const { drop } = opened;
  const db = store.wrap ? store.wrap(opened.db) : opened.db;
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
    async addAccount(name) {
      const { id } = await new AccountRepository(db).create(name);
      const token = newSecret();
      await withAccount(id, () =>
        new TokenRepository(db).create({ scope: 'full', name: 'test admin', secretHash: hashSecret(token) }),
      );
      return { id, token, call: (method, url, body) => call(method, url, body, token) };
    },
    async close() {
      await app.close();
      await drop();
    },
  };
}

/** A row of the event log, as both stores give it back. */
export interface LoggedEvent {
  type: string;
  payload: Record<string, unknown>;
  rooms: string[];
}

/** The id of the newest logged event, 0 when there is none. */
export async function lastEventId(db: Queryable): Promise<number> {
  const row = await db.kysely
    .selectFrom('events')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  return row?.id ?? 0;
}

/** The events logged after `mark` (of `type`, when given), oldest first. */
export async function eventsAfter(db: Queryable, mark: number, type?: string): Promise<LoggedEvent[]> {
  const rows = await db.kysely
    .selectFrom('events')
    .select(['type', 'payload', 'rooms'])
    .where('id', '>', mark)
    .$if(type !== undefined, (query) => query.where('type', '=', type as string))
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    type: row.type,
    payload: fromJson<Record<string, unknown>>(row.payload),
    rooms: fromTextArray(row.rooms),
  }));
}

/** A write as a FaultInjector sees it. */
export interface WriteStatement {
  kind: 'insert' | 'update';
  table: string;
}

function writeOf(node: RootOperationNode): WriteStatement | null {
  const [kind, target] = InsertQueryNode.is(node)
    ? (['insert', node.into] as const)
    : UpdateQueryNode.is(node)
      ? (['update', node.table] as const)
      : [null, undefined];
  return kind && target && TableNode.is(target) ? { kind, table: target.table.identifier.name } : null;
}

/**
 * Makes the store fail the writes a test picks, as a full disk or a lost connection would: a
 * Kysely plugin that throws before the statement is sent. `wrap` puts it on a store.
 */
export class FaultInjector implements KyselyPlugin {
  private pick: ((write: WriteStatement) => boolean) | null = null;

  wrap = (db: Database): Database => databaseOn(db.kind, db.kysely.withPlugin(this), () => db.close());

  /** Fails every write for which `pick` says so, until `heal`. */
  failWhen(pick: (write: WriteStatement) => boolean): void {
    this.pick = pick;
  }

  heal(): void {
    this.pick = null;
  }

  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    const write = writeOf(node);
    if (write && this.pick?.(write)) throw new Error(`injected failure of ${write.kind} into ${write.table}`);
    return node;
  }

  async transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return result;
  }
}
