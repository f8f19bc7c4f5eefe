import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlayTotal } from '../src/shared/play-report';
import { DEFAULT_ACCOUNT_ID, withAccount } from './accounts/scope';
import { buildApp } from './app';
import { ensureToken } from './bootstrap';
import type { Database } from './db/database';
import { openStore } from './db/open';
import { PlayReportRepository } from './repositories/play-reports';
import { ADMIN_SECRET, TEST_POSTGRES_URL } from './test-support';
import { longestStall } from './testing/loop-stall';

// The fleet's play totals read beside the event loop on the embedded store (db/aside-reader.ts):
// a month of a fleet's plays takes seconds to add up, and node:sqlite would hold the loop, and so
// every screen and operator, for as long. Measured: the loop's longest stall during the request
// beside the request's own time. The embedded store on disk only (PostgreSQL never holds it).
const PLAYS = 400_000;
const FROM = '2026-10-01T00:00:00.000Z';
const RANGE = `from=${FROM}&to=2026-10-31T00:00:00.000Z`;

let dir = '';
let db: Database;
let app: Awaited<ReturnType<typeof buildApp>>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wallboard-plays-aside-'));
  db = await openStore({ dataDir: dir });
  await ensureToken(db, ADMIN_SECRET, 'full', 'test admin');
  app = await buildApp({ db });
  await app.ready();
  await db.kysely.insertInto('devices').values({ id: 'dev_aside', tag: 'aside', name: 'Aside' }).execute();
  // Seeded by SQLite itself (a recursive count): a play every 6 s for 30 days, 40 items.
  await sql`
    with recursive n(i) as (select 0 union all select i + 1 from n where i < ${PLAYS - 1})
    insert into plays (id, device_id, type, board_id, url, channel_id, started_at, ended_at, account_id)
    select 'play_' || i, 'dev_aside', 'board', 'brd_' || (i % 40), null, null,
      strftime('%Y-%m-%dT%H:%M:%fZ', ${FROM}, '+' || (i * 6) || ' seconds'),
      strftime('%Y-%m-%dT%H:%M:%fZ', ${FROM}, '+' || (i * 6 + 5) || ' seconds'),
      ${DEFAULT_ACCOUNT_ID}
    from n`.execute(db.kysely);
}, 120_000);

afterAll(async () => {
  await app?.close();
  await db?.close();
  await rm(dir, { recursive: true, force: true });
});

describe.skipIf(TEST_POSTGRES_URL)('GET /plays/totals on the embedded store', () => {
  it('adds a month of plays up beside the event loop, and answers what the store would', async () => {
    const started = performance.now();
    const { result, stallMs } = await longestStall(() =>
      app.inject({
        method: 'GET',
        url: `/plays/totals?${RANGE}`,
        headers: { authorization: `Bearer ${ADMIN_SECRET}` },
      }),
    );
    const ms = performance.now() - started;
    expect(result.statusCode, result.body).toBe(200);
    const totals = result.json<PlayTotal[]>();
    expect(totals.reduce((sum, total) => sum + total.plays, 0)).toBe(PLAYS);
    // The same statement run on the event loop's own connection (no aside reader) agrees.
    const onLoop = await withAccount(DEFAULT_ACCOUNT_ID, () =>
      new PlayReportRepository({ kind: db.kind, kysely: db.kysely }).totals(
        { from: new Date(FROM), to: new Date('2026-10-31T00:00:00.000Z') },
        'UTC',
      ),
    );
    expect(totals).toEqual(onLoop);
    // The report is big enough to matter, and the loop never waited a fifth of it.
    expect(ms).toBeGreaterThan(250);
    expect(
      stallMs,
      `the loop stalled ${stallMs.toFixed(0)} ms in a ${ms.toFixed(0)} ms request`,
    ).toBeLessThan(ms / 5);
  });
});
