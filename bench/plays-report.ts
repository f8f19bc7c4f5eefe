// bench/plays-report: the fleet's play totals (`GET /plays/totals`) at 1,000 screens x 30 days.
// The plays are written straight into the store (service/testing/big-fleet.ts's screens, then the
// plays in batches): a screen every `--every` seconds plays one of 40 items (20 boards, 10 library
// media, 10 web pages). A play every 10 s would be 259M rows; one every 15 minutes (the default) is
// 2.9M, which seeds in about a minute here (`--every 600`, 4.3M, in about two). Then, for the last 7 days and for all 30: the totals as the
// service computes them (the repository's statement, names and all), and over HTTP; beside them the
// floor of the same run: a plain SELECT of the same rows (the account's plays of the range, the
// columns the totals read) on the same store, raw (node:sqlite, or pg with a server-side cursor),
// every row read and dropped. The plans of both are printed (EXPLAIN).
// Usage: npm run bench:plays -- [--screens 1000] [--days 30] [--every 900] [--runs 3] [--postgres]
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { buildApp } from '../service/app';
import { DEFAULT_ACCOUNT_ID, withAccount } from '../service/accounts/scope';
import { ensureToken } from '../service/bootstrap';
import { SQLITE_FILE } from '../service/db/sqlite-files';
import { openStore } from '../service/db/open';
import { PlayReportRepository } from '../service/repositories/play-reports';
import { createTestDatabase } from '../service/test-support';
import { seedFleet } from '../service/testing/big-fleet';
import { longestStall } from '../service/testing/loop-stall';
import { durablePostgresServer, fsyncOf } from './durable-postgres';
import { report, type Figure } from './report';
import { quantile } from './stats';

const { values } = parseArgs({
  options: {
    screens: { type: 'string', default: '1000' },
    days: { type: 'string', default: '30' },
    every: { type: 'string', default: '900' },
    runs: { type: 'string', default: '3' },
    postgres: { type: 'boolean', default: false },
  },
});
const SCREENS = Number(values.screens);
const DAYS = Number(values.days);
const EVERY_S = Number(values.every);
const RUNS = Number(values.runs);
const TOKEN = 'bench-admin-token-0123456789';
const DAY_MS = 86_400_000;
/** The last instant seeded: the end of the range. */
const END = Date.parse('2026-11-21T00:00:00.000Z');
/** Rows per insert, and inserts per transaction. */
const ROWS = 500;
const INSERTS = 40;

const testDatabase = values.postgres ? await createTestDatabase(durablePostgresServer()) : undefined;
const dir = await mkdtemp(join(tmpdir(), 'wallboard-bench-plays-'));
/** While set, the statements the store runs are kept here: the totals' SQL, to EXPLAIN it. */
let logged: { sql: string; parameters: readonly unknown[] }[] | undefined;
const db = await openStore({
  ...(testDatabase ? { databaseUrl: testDatabase.url } : { dataDir: dir }),
  log: (event) => {
    if (logged && event.level === 'query')
      logged.push({ sql: event.query.sql, parameters: event.query.parameters });
  },
});

interface Item {
  type: 'board' | 'image' | 'web';
  board_id: string | null;
  url: string | null;
}

/** 20 boards, 10 library media, 10 web pages, each named as operators name them. */
async function seedItems(): Promise<Item[]> {
  const boards = Array.from({ length: 20 }, (_, n) => ({
    id: `brd_bench_${n}`,
    name: `Board ${n}`,
    settings: '{}',
  }));
  await db.kysely.insertInto('boards').values(boards).execute();
  const media = Array.from({ length: 10 }, (_, n) => ({
    id: `med_bench_${n}`,
    name: `Poster ${n}.png`,
    content_type: 'image/png',
    kind: 'image' as const,
    bytes: 1,
    sha256: `${n}`.padStart(64, '0'),
    created_at: new Date(END).toISOString(),
  }));
  await db.kysely.insertInto('media').values(media).execute();
  return [
    ...boards.map((board) => ({ type: 'board' as const, board_id: board.id, url: null })),
    ...media.map((medium) => ({
      type: 'image' as const,
      board_id: null,
      url: `/media/${medium.id}/content`,
    })),
    ...Array.from({ length: 10 }, (_, n) => ({
      type: 'web' as const,
      board_id: null,
      url: `https://news.example/${n}`,
    })),
  ];
}

/** Every screen's plays, a play every EVERY_S seconds for DAYS days, in big transactions. */
async function seedPlays(items: readonly Item[]): Promise<number> {
  const perScreen = Math.floor((DAYS * 86_400) / EVERY_S);
  let rows: object[] = [];
  let batch: object[][] = [];
  let count = 0;
  const flush = async () => {
    const inserts = batch;
    batch = [];
    await db.transaction(async (tx) => {
      for (const values of inserts)
        await tx.kysely
          .insertInto('plays')
          .values(values as never)
          .execute();
    });
  };
  for (let screen = 1; screen <= SCREENS; screen += 1) {
    const device = `dev_fleet_${String(screen).padStart(5, '0')}`;
    for (let n = 0; n < perScreen; n += 1) {
      // Screens start their turns a little apart; each plays the items in its own order.
      const start = END - DAYS * DAY_MS + n * EVERY_S * 1000 + (screen % EVERY_S) * 1000;
      const item = items[(screen * 7 + n) % items.length] as Item;
      rows.push({
        id: `${device}-${n}`,
        device_id: device,
        ...item,
        channel_id: null,
        started_at: new Date(start).toISOString(),
        ended_at: new Date(start + 10_000).toISOString(),
      });
      if (rows.length === ROWS) {
        batch.push(rows);
        rows = [];
        if (batch.length === INSERTS) await flush();
      }
      count += 1;
    }
  }
  if (rows.length) batch.push(rows);
  if (batch.length) await flush();
  return count;
}

/** The floor: the same rows read raw, each row read and dropped; the rows, and the plan. */
interface Floor {
  read(from: Date, to: Date): Promise<number>;
  explain(sql: string, parameters: unknown[]): Promise<string>;
  close(): Promise<void>;
}

const FLOOR_SQL = (p: (n: number) => string) =>
  `select device_id, type, board_id, url, started_at, ended_at from plays where account_id = ${p(1)} and started_at >= ${p(2)} and started_at < ${p(3)}`;

function sqliteFloor(): Floor {
  const raw = new DatabaseSync(join(dir, SQLITE_FILE), { readOnly: true });
  const statement = raw.prepare(FLOOR_SQL(() => '?'));
  return {
    async read(from, to) {
      let rows = 0;
      for (const _ of statement.iterate(DEFAULT_ACCOUNT_ID, from.toISOString(), to.toISOString())) rows += 1;
      return rows;
    },
    async explain(sql, parameters) {
      const plan = raw.prepare(`explain query plan ${sql}`).all(...(parameters as string[]));
      return plan.map((row) => String(row.detail)).join('; ');
    },
    async close() {
      raw.close();
    },
  };
}

async function postgresFloor(url: string): Promise<Floor> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    async read(from, to) {
      // A server-side cursor: every row sent to this process, never all of them held at once.
      await client.query('begin');
      await client.query(`declare floor no scroll cursor for ${FLOOR_SQL((n) => `$${n}`)}`, [
        DEFAULT_ACCOUNT_ID,
        from.toISOString(),
        to.toISOString(),
      ]);
      let rows = 0;
      for (;;) {
        const { rowCount } = await client.query('fetch 20000 from floor');
        if (!rowCount) break;
        rows += rowCount;
      }
      await client.query('commit');
      return rows;
    },
    async explain(sql, parameters) {
      const { rows } = await client.query<{ 'QUERY PLAN': string }>(`explain ${sql}`, parameters);
      return rows.map((row) => row['QUERY PLAN'].trim()).join('; ');
    },
    async close() {
      await client.end();
    },
  };
}

/** The median of RUNS timings of `work`, after one run to warm the caches. */
async function timed(work: () => Promise<unknown>): Promise<number> {
  await work();
  const times: number[] = [];
  for (let run = 0; run < RUNS; run += 1) {
    // A turn of the event loop between runs: a stall is one run's, never several run back to back.
    await new Promise((resolve) => setImmediate(resolve));
    const start = performance.now();
    await work();
    times.push(performance.now() - start);
  }
  return quantile(times, 0.5);
}

const figures: Figure[] = [];
const started = performance.now();
try {
  await ensureToken(db, TOKEN, 'full', 'bench');
  await seedFleet(db, SCREENS, null);
  const plays = await seedPlays(await seedItems());
  const seededIn = (performance.now() - started) / 1000;
  const app = await buildApp({ db, checkAnswers: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const floor = testDatabase ? await postgresFloor(testDatabase.url) : sqliteFloor();
  // As requests run the totals: beside the event loop on SQLite (db/aside-reader.ts).
  const reports = new PlayReportRepository(db);
  // The same statements on the store's own connection, where the query log sees them (the plans).
  const logging = new PlayReportRepository({ kind: db.kind, kysely: db.kysely });
  const store = testDatabase ? `PostgreSQL, fsync ${await fsyncOf(testDatabase.url)}` : 'SQLite';
  process.stdout.write(
    `${store}: ${plays.toLocaleString()} plays of ${SCREENS} screens over ${DAYS} days seeded in ${seededIn.toFixed(0)} s\n`,
  );
  try {
    for (const days of [7, DAYS]) {
      const filters = { from: new Date(END - days * DAY_MS), to: new Date(END) };
      const rows = await floor.read(filters.from, filters.to);
      logged = [];
      // As a request runs it: the account's (its id in the statement, as the plugin writes it).
      const totalsOf = () => withAccount(DEFAULT_ACCOUNT_ID, () => reports.totals(filters, 'UTC'));
      const totals = await withAccount(DEFAULT_ACCOUNT_ID, () => logging.totals(filters, 'UTC'));
      const statement = logged.find((query) => query.sql.includes('count(distinct'));
      logged = undefined;
      const query = `from=${filters.from.toISOString()}&to=${filters.to.toISOString()}`;
      const ours = await timed(totalsOf);
      const { result: http, stallMs } = await longestStall(() =>
        timed(async () => {
          const response = await fetch(`${base}/plays/totals?${query}`, {
            headers: { authorization: `Bearer ${TOKEN}` },
          });
          if (!response.ok) throw new Error(`GET /plays/totals: ${response.status}`);
          return response.text();
        }),
      );
      const { result: bare, stallMs: floorStallMs } = await longestStall(() =>
        timed(() => floor.read(filters.from, filters.to)),
      );
      const label = `${store}, ${days} days (${rows.toLocaleString()} plays, ${totals.length} totals)`;
      figures.push(
        {
          name: `${label}: totals query`,
          value: ours,
          floor: bare,
          unit: 'ms',
          target: '< 3 x',
          met: ours < 3 * bare,
        },
        { name: `${label}: GET /plays/totals`, value: http, floor: bare, unit: 'ms' },
        {
          // The longest a timer waited over the requests (service and client in this process),
          // beside the floor's own reads: a read on the event loop's thread holds it throughout.
          name: `${label}: GET /plays/totals, the event loop's longest stall`,
          value: stallMs,
          floor: floorStallMs,
          unit: 'ms',
          target: '< 50 ms',
          met: stallMs < 50,
        },
      );
      const parameters = [DEFAULT_ACCOUNT_ID, filters.from.toISOString(), filters.to.toISOString()];
      process.stdout.write(
        `plan, floor (${days} days): ${await floor.explain(
          FLOOR_SQL((n) => (testDatabase ? `$${n}` : '?')),
          parameters,
        )}\n`,
      );
      if (statement) {
        const plan = await floor.explain(statement.sql, [...statement.parameters]);
        process.stdout.write(`plan, totals (${days} days): ${plan}\n`);
      }
      // GET /plays: its first page, by start then id (the index of migration 17 in its order).
      logged = [];
      await withAccount(DEFAULT_ACCOUNT_ID, async () => {
        for await (const page of reports.pages(filters, 250)) return page;
      });
      const page = logged.find((query) => query.sql.includes('order by'));
      logged = undefined;
      if (page) {
        const plan = await floor.explain(page.sql, [...page.parameters]);
        process.stdout.write(`plan, GET /plays first page (${days} days): ${plan}\n`);
      }
    }
  } finally {
    await floor.close();
    await app.close();
  }
  await report('plays-report', figures);
} finally {
  await db.close();
  await testDatabase?.drop();
  await rm(dir, { recursive: true, force: true });
}
