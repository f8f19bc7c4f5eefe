import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOURCE_ROWS_MAX } from '../../../src/shared/data-source';
import { PUBLIC_ONLY, parseHttpAllow } from '../../scripts/destinations';
import { TEST_POSTGRES_URL, createTestDatabase } from '../../test-support';
import { SourceError, type SourceConnection } from './kind';
import { queryPostgres } from './postgres';
import { SQL_SOURCE_KINDS, closeSqlPools } from './sql-kinds';

const LOOPBACK = parseHttpAllow('loopback');
const signal = () => new AbortController().signal;

/** How long `work` took, in ms, and how it ended. */
async function timed<T>(work: Promise<T>): Promise<{ ms: number; result?: T; error?: unknown }> {
  const started = performance.now();
  try {
    const result = await work;
    return { ms: performance.now() - started, result };
  } catch (error) {
    return { ms: performance.now() - started, error };
  }
}

describe.skipIf(!TEST_POSTGRES_URL)(
  'the postgres kind, on a real PostgreSQL (needs npm run test:postgres)',
  () => {
    let database: { url: string; drop(): Promise<void> };
    let admin: pg.Client;
    const connection = (over: Partial<SourceConnection> = {}): SourceConnection => ({
      kind: 'postgres',
      url: database.url,
      auth: 'none',
      username: null,
      // The test server trusts loopback, so any password passes; it must still never be shown.
      secret: 'pg-secret-5a4b3c',
      headers: {},
      timeoutMs: 5000,
      policy: LOOPBACK,
      ...over,
    });
    const run = (query: string, over: Partial<SourceConnection> = {}) =>
      SQL_SOURCE_KINDS.postgres.run(connection(over), { query, range: null, now: new Date() }, signal());
    const snapshot = async () => ({
      readings: (await admin.query('SELECT * FROM readings ORDER BY id')).rows,
      tables: (await admin.query("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1"))
        .rows,
    });
    const ours = async () =>
      Number(
        (
          await admin.query(
            "SELECT COUNT(*) AS n FROM pg_stat_activity WHERE application_name = 'wallboard data source' AND datname = current_database()",
          )
        ).rows[0]?.n,
      );

    beforeAll(async () => {
      database = await createTestDatabase(TEST_POSTGRES_URL ?? '');
      admin = new pg.Client({ connectionString: database.url });
      await admin.connect();
      await admin.query(`
      CREATE TABLE readings (id int PRIMARY KEY, name text, value numeric(10,2));
      INSERT INTO readings VALUES (1, 'north', 12.50), (2, 'south', 7.25);
      CREATE TABLE many AS SELECT n FROM generate_series(1, 5000) AS n;
      CREATE FUNCTION bump() RETURNS int LANGUAGE sql AS $$ INSERT INTO readings VALUES (99, 'bumped', 0) RETURNING 1 $$;
    `);
    });
    afterAll(async () => {
      await closeSqlPools();
      await admin?.end();
      await database?.drop();
    });

    it('answers rows of column → JSON value', async () => {
      const rows = await run(`
      SELECT 1 AS one, 9007199254740993::bigint AS big, 42::bigint AS small, 12.50::numeric AS price,
        '123456789012345678901234.5'::numeric AS huge, 'NaN'::numeric AS odd, 0.5::float8 AS ratio,
        'text' AS word, NULL AS nothing, true AS yes, DATE '2026-01-02' AS day,
        TIMESTAMP '2026-01-02 03:04:05' AS local_time, TIMESTAMPTZ '2026-01-02 03:04:05+02' AS moment,
        '\\x6869'::bytea AS bytes, '{"a": [1, 2]}'::jsonb AS doc, ARRAY[1, 2, 3] AS list,
        INTERVAL '90 minutes' AS span`);
      expect(rows).toEqual([
        {
          one: 1,
          big: '9007199254740993',
          small: 42,
          price: 12.5,
          huge: '123456789012345678901234.5',
          odd: 'NaN',
          ratio: 0.5,
          word: 'text',
          nothing: null,
          yes: true,
          day: '2026-01-02',
          local_time: '2026-01-02T03:04:05',
          moment: '2026-01-02T01:04:05.000Z',
          bytes: 'aGk=',
          doc: { a: [1, 2] },
          list: [1, 2, 3],
          span: '01:30:00',
        },
      ]);
      expect(await run('SELECT name, value FROM readings ORDER BY id;')).toEqual([
        { name: 'north', value: 12.5 },
        { name: 'south', value: 7.25 },
      ]);
    });

    it(`answers at most ${SOURCE_ROWS_MAX} rows, and computes no more`, async () => {
      const table = (await run('SELECT n FROM many ORDER BY n')) as unknown[];
      expect(table).toHaveLength(SOURCE_ROWS_MAX);
      expect(table.at(-1)).toEqual({ n: SOURCE_ROWS_MAX });
      // A hundred million rows, made one at a time: computing them all would take many seconds.
      const endless = await timed(run('SELECT generate_series(1, 100000000) AS n', { timeoutMs: 20_000 }));
      expect(endless.error).toBeUndefined();
      expect(endless.result).toHaveLength(SOURCE_ROWS_MAX);
      expect(endless.ms).toBeLessThan(1000);
    });

    it('refuses writes in the database itself, and nothing changes', async () => {
      const before = await snapshot();
      for (const write of [
        "INSERT INTO readings VALUES (3, 'west', 1)",
        'UPDATE readings SET value = 0',
        'DELETE FROM readings',
        'DROP TABLE readings',
        'CREATE TABLE sneaky (a int)',
        'WITH gone AS (DELETE FROM readings RETURNING *) SELECT * FROM gone',
        'SELECT bump()',
      ]) {
        // Past the query's check, straight to the server: the transaction and the cursor must hold alone.
        await expect(queryPostgres(connection(), write, signal()), write).rejects.toThrow(SourceError);
      }
      await expect(queryPostgres(connection(), 'SELECT bump()', signal())).rejects.toThrow(
        'cannot execute INSERT in a read-only transaction',
      );
      await expect(run('SELECT bump()')).rejects.toThrow('cannot execute INSERT in a read-only transaction');
      await expect(run('DROP TABLE readings')).rejects.toThrow(/only reads/);
      // One statement only, even past the check: the extended protocol refuses a second.
      await expect(queryPostgres(connection(), 'SELECT 1; DROP TABLE readings', signal())).rejects.toThrow(
        SourceError,
      );
      expect(await snapshot()).toEqual(before);
    });

    it('ends a query at its timeout, measured', async () => {
      const slept = await timed(run('SELECT pg_sleep(10)', { timeoutMs: 1000 }));
      expect(slept.error).toBeInstanceOf(SourceError);
      expect(String(slept.error)).toMatch(/statement timeout/);
      expect(slept.ms).toBeGreaterThanOrEqual(900);
      expect(slept.ms).toBeLessThan(1500);
      // The connection went back clean: the next query on it runs.
      expect(await run('SELECT 1 AS ok')).toEqual([{ ok: 1 }]);
    });

    it('ends a query when its run is cancelled', async () => {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 200);
      const started = performance.now();
      const cancelled = SQL_SOURCE_KINDS.postgres.run(
        connection({ timeoutMs: 2000 }),
        { query: 'SELECT pg_sleep(10)', range: null, now: new Date() },
        controller.signal,
      );
      await expect(cancelled).rejects.toThrow(/cancelled/);
      expect(performance.now() - started).toBeLessThan(700);
    });

    it('says what the database says, never the password', async () => {
      const missing = await timed(run('SELECT * FROM nowhere'));
      expect(missing.error).toBeInstanceOf(SourceError);
      expect(String(missing.error)).toContain('relation "nowhere" does not exist');
      // No server listens on port 1: the driver's own error, without the secret.
      const secret = 'pg-secret-that-must-not-show';
      const closed = await timed(run('SELECT 1', { url: 'postgres://reader@127.0.0.1:1/app', secret }));
      expect(closed.error).toBeInstanceOf(SourceError);
      expect(String(closed.error)).toMatch(/ECONNREFUSED/);
      expect(String(closed.error)).not.toContain(secret);
    });

    it('connects only where the destination rule allows', async () => {
      await expect(run('SELECT 1', { policy: PUBLIC_ONLY })).rejects.toThrow(
        /127\.0\.0\.1 is a loopback address/,
      );
      await expect(
        run('SELECT 1', { policy: PUBLIC_ONLY, url: database.url.replace('127.0.0.1', 'localhost') }),
      ).rejects.toThrow(/localhost resolves to .*loopback/);
      expect(await run('SELECT 1 AS ok', { policy: LOOPBACK })).toEqual([{ ok: 1 }]);
    });

    it('keeps at most two connections a source, and closes them on closeSqlPools', async () => {
      await closeSqlPools();
      await expect.poll(ours, { timeout: 3000 }).toBe(0);
      await Promise.all(Array.from({ length: 6 }, () => run('SELECT pg_sleep(0.05)')));
      for (let index = 0; index < 10; index += 1) await run('SELECT 1');
      expect(await ours()).toBeGreaterThan(0);
      expect(await ours()).toBeLessThanOrEqual(2);
      await closeSqlPools();
      await expect.poll(ours, { timeout: 3000 }).toBe(0);
    });
  },
);
