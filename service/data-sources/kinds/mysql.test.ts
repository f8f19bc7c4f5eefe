import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOURCE_ROWS_MAX } from '../../../src/shared/data-source';
import { PUBLIC_ONLY, parseHttpAllow } from '../../scripts/destinations';
import { mariadbMissing, startMariadb, type TestMariadb } from '../test-servers/mariadb';
import { SourceError, type SourceConnection } from './kind';
import { queryMysql } from './mysql';
import { SQL_SOURCE_KINDS, closeSqlPools } from './sql-kinds';

const missing = mariadbMissing();
if (missing) console.warn(missing);

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

describe.skipIf(missing)('the mysql kind, on a real MariaDB', () => {
  let db: TestMariadb;
  const connection = (over: Partial<SourceConnection> = {}): SourceConnection => ({
    kind: 'mysql',
    url: db.url,
    auth: 'none',
    username: null,
    secret: db.password,
    headers: {},
    timeoutMs: 5000,
    policy: LOOPBACK,
    ...over,
  });
  const run = (query: string, over: Partial<SourceConnection> = {}) =>
    SQL_SOURCE_KINDS.mysql.run(connection(over), { query, range: null, now: new Date() }, signal());
  /** The seeded table as it is, to prove a refused write left it alone. */
  const readings = async () => db.query('SELECT id, name, value FROM readings ORDER BY id');
  const tables = async () => db.query('SHOW TABLES');
  /** How many of the source's statements the server is running. */
  const busy = async () =>
    (
      (await db.query(
        "SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE USER = 'wallboard' AND COMMAND = 'Query'",
      )) as { n: number }[]
    )[0]?.n;

  beforeAll(async () => {
    db = await startMariadb();
    await db.query(`
      CREATE TABLE readings (id INT PRIMARY KEY, name VARCHAR(40), value DECIMAL(10,2));
      INSERT INTO readings VALUES (1, 'north', 12.50), (2, 'south', 7.25);
      CREATE TABLE many (n INT PRIMARY KEY);
      INSERT INTO many SELECT seq FROM seq_1_to_5000;
      CREATE TABLE stamps (at TIMESTAMP NULL);
      INSERT INTO stamps VALUES (FROM_UNIXTIME(86400));
      CREATE FUNCTION bump() RETURNS INT MODIFIES SQL DATA
        BEGIN INSERT INTO readings VALUES (99, 'bumped', 0); RETURN 1; END;
    `);
  });
  afterAll(async () => {
    await closeSqlPools();
    await db?.stop();
  });

  it('answers rows of column → JSON value', async () => {
    const rows = await run(`
      SELECT 1 AS one, CAST(9007199254740993 AS SIGNED) AS big, CAST(42 AS SIGNED) AS small,
        CAST(12.50 AS DECIMAL(10,2)) AS price, CAST('123456789012345678901234.5' AS DECIMAL(30,1)) AS huge,
        0.5e0 AS ratio, 'text' AS word, NULL AS nothing, DATE '2026-01-02' AS day,
        TIMESTAMP '2026-01-02 03:04:05' AS local_time, FROM_UNIXTIME(0) AS epoch,
        CAST('hi' AS BINARY) AS bytes, JSON_OBJECT('a', 1) AS doc`);
    expect(rows).toEqual([
      {
        one: 1,
        big: '9007199254740993',
        small: 42,
        price: 12.5,
        huge: '123456789012345678901234.5',
        ratio: 0.5,
        word: 'text',
        nothing: null,
        day: '2026-01-02',
        local_time: '2026-01-02T03:04:05',
        // FROM_UNIXTIME gives a DATETIME in the session's zone, which is UTC.
        epoch: '1970-01-01T00:00:00',
        bytes: 'aGk=',
        // MariaDB's JSON is text checked as JSON: its metadata says so, and it is read as JSON.
        doc: { a: 1 },
      },
    ]);
    // A TIMESTAMP is a moment: read in the session's zone, UTC, and said so.
    expect(await run('SELECT at FROM stamps')).toEqual([{ at: '1970-01-02T00:00:00Z' }]);
    expect(await run('SELECT name, value FROM readings ORDER BY id')).toEqual([
      { name: 'north', value: 12.5 },
      { name: 'south', value: 7.25 },
    ]);
  });

  it(`answers at most ${SOURCE_ROWS_MAX} rows, and stops reading there`, async () => {
    expect(await run('SELECT n FROM many ORDER BY n')).toHaveLength(SOURCE_ROWS_MAX);
    // A LIMIT of its own overrides the session's row limit: the client stops reading instead.
    const limited = await timed(run('SELECT n FROM many ORDER BY n LIMIT 4000'));
    expect(limited.result).toHaveLength(SOURCE_ROWS_MAX);
    expect((limited.result as { n: number }[]).at(-1)).toEqual({ n: SOURCE_ROWS_MAX });
    // A hundred million rows: had they been read, this would take far longer than a second.
    const endless = await timed(
      run('SELECT seq FROM seq_1_to_100000000 LIMIT 100000000', { timeoutMs: 20_000 }),
    );
    expect(endless.error).toBeUndefined();
    expect(endless.result).toHaveLength(SOURCE_ROWS_MAX);
    expect(endless.ms).toBeLessThan(1500);
    // And the server stopped sending too, its connection gone.
    await expect.poll(busy, { timeout: 2000 }).toBe(0);
    // The pool goes on with a new connection after dropping the one that was still sending.
    expect(await run('SELECT COUNT(*) AS rows_in FROM many')).toEqual([{ rows_in: 5000 }]);
  });

  it('refuses writes in the database itself, and nothing changes', async () => {
    const before = { readings: await readings(), tables: await tables() };
    for (const write of [
      'INSERT INTO readings VALUES (3, "west", 1)',
      'UPDATE readings SET value = 0',
      'DELETE FROM readings',
      'DROP TABLE readings',
      'CREATE TABLE sneaky (a INT)',
      'TRUNCATE readings',
      'SELECT bump()',
    ]) {
      // Past the query's check, straight to the server: the read-only transaction must hold alone.
      await expect(queryMysql(connection(), write, signal()), write).rejects.toThrow(/READ ONLY transaction/);
    }
    await expect(run('SELECT bump()')).rejects.toThrow(/READ ONLY transaction/);
    await expect(run('DROP TABLE readings')).rejects.toThrow(/only reads/);
    expect({ readings: await readings(), tables: await tables() }).toEqual(before);
  });

  it('ends a query at its timeout, measured', async () => {
    const slept = await timed(run('SELECT SLEEP(10)', { timeoutMs: 1000 }));
    expect(slept.error).toBeInstanceOf(SourceError);
    expect(String(slept.error)).toMatch(/max_statement_time|timed out/);
    expect(slept.ms).toBeGreaterThanOrEqual(900);
    expect(slept.ms).toBeLessThan(1500);
  });

  it('ends a query when its run is cancelled', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const started = performance.now();
    const cancelled = SQL_SOURCE_KINDS.mysql.run(
      // The server ends the statement at its timeout, though the client has gone.
      connection({ timeoutMs: 2000 }),
      { query: 'SELECT SLEEP(10)', range: null, now: new Date() },
      controller.signal,
    );
    await expect(cancelled).rejects.toThrow(/cancelled/);
    expect(performance.now() - started).toBeLessThan(700);
  });

  it('says what the database says, never the password', async () => {
    await expect(run('SELECT * FROM nowhere')).rejects.toThrow("Table 'wallboard.nowhere' doesn't exist");
    const wrong = 'not-the-password-0f9e8d';
    const refused = await timed(run('SELECT 1', { secret: wrong }));
    expect(refused.error).toBeInstanceOf(SourceError);
    expect(String(refused.error)).toMatch(/Access denied for user 'wallboard'/);
    expect(String(refused.error)).not.toContain(wrong);
    expect(String(refused.error)).not.toContain(db.password);
    // The right password still works: the wrong one had a pool of its own.
    expect(await run('SELECT 1 AS ok')).toEqual([{ ok: 1 }]);
  });

  it('connects only where the destination rule allows', async () => {
    await expect(run('SELECT 1', { policy: PUBLIC_ONLY })).rejects.toThrow(
      /127\.0\.0\.1 is a loopback address/,
    );
    await expect(
      run('SELECT 1', { policy: PUBLIC_ONLY, url: db.url.replace('127.0.0.1', 'localhost') }),
    ).rejects.toThrow(/localhost resolves to .*loopback/);
    expect(await run('SELECT 1 AS ok', { policy: LOOPBACK })).toEqual([{ ok: 1 }]);
  });

  it('keeps at most two connections a source, and closes them on closeSqlPools', async () => {
    await closeSqlPools();
    const connections = async () =>
      Number(((await db.query("SHOW GLOBAL STATUS LIKE 'Connections'")) as { Value: string }[])[0]?.Value);
    const open = async () =>
      (
        (await db.query(
          "SELECT COUNT(*) AS n FROM information_schema.PROCESSLIST WHERE USER = 'wallboard'",
        )) as {
          n: number;
        }[]
      )[0]?.n;
    const before = await connections();
    await Promise.all(Array.from({ length: 6 }, () => run('SELECT SLEEP(0.05)')));
    for (let index = 0; index < 10; index += 1) await run('SELECT 1');
    expect((await connections()) - before).toBeLessThanOrEqual(2);
    expect(await open()).toBeGreaterThan(0);
    await closeSqlPools();
    await expect.poll(open, { timeout: 5000 }).toBe(0);
  });
});
