import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WRITE_PROBE_INTERVAL_MS } from './cluster/write-probe';
import { adapterApplication } from './realtime/cluster';
import { TEST_POSTGRES_URL, startTestService, type TestService } from './test-support';

// The real time, moved on when a test says so: the health check's probe of writes waits for it.
let shift = 0;
const clock = { now: () => new Date(Date.now() + shift) };

let service: TestService;
beforeAll(async () => {
  service = await startTestService({ clock });
});
afterAll(() => service.close());

const pragma = async (text: string) =>
  (await sql.raw<Record<string, number>>(`pragma ${text}`).execute(service.db.kysely)).rows[0];

// A full disk made on purpose: SQLite's page limit answers as a full disk does (SQLITE_FULL).
describe.skipIf(TEST_POSTGRES_URL)('a full disk', () => {
  it('answers 507 for writes, keeps answering reads, and recovers once there is room', async () => {
    expect((await service.call('POST', '/flows', { tag: 'roomy', variant: 'text' })).statusCode).toBe(201);
    const pages = (await pragma('page_count'))?.page_count ?? 0;
    const limit = (await pragma('max_page_count'))?.max_page_count ?? 0;
    await pragma(`max_page_count = ${pages}`);
    try {
      // Each write logs its event too: the store grows until it has no page left.
      const big = (i: number) => ({ text: `${i} ${'x'.repeat(9000)}` });
      let refused = await service.call('PUT', '/flows/roomy/metrics', big(0));
      for (let i = 1; i < 200 && refused.statusCode === 200; i += 1) {
        refused = await service.call('PUT', '/flows/roomy/metrics', big(i));
      }
      expect(refused.statusCode, refused.body).toBe(507);
      const before = (await service.call('GET', '/flows/roomy/metrics')).json();
      expect(refused.json().error).toMatchObject({
        code: 'insufficient_storage',
        message: expect.stringMatching(/no room left on its disk; nothing was written/),
      });
      // The node says it cannot take writes, so that a load balancer sends them elsewhere.
      const health = await service.call('GET', '/health', undefined, null);
      expect(health.statusCode, health.body).toBe(503);
      expect(health.json()).toMatchObject({
        status: 'unavailable',
        checks: {
          store: 'ok',
          writes: expect.stringMatching(/^the disk is full \(SQLITE_FULL\) since \d{4}-/),
        },
      });
      // The refused write left the flow as it was.
      expect((await service.call('GET', '/flows/roomy/metrics')).json()).toEqual(before);
      expect(before).not.toEqual(big(-1));
      // Its probe, a write of its own, finds the disk still full.
      shift += WRITE_PROBE_INTERVAL_MS;
      expect((await service.call('GET', '/health', undefined, null)).statusCode).toBe(503);
      await pragma(`max_page_count = ${limit}`);
      // Room again: the next probe writes, and the node takes traffic again without a restart.
      shift += WRITE_PROBE_INTERVAL_MS;
      const healthy = await service.call('GET', '/health', undefined, null);
      expect(healthy.statusCode, healthy.body).toBe(200);
      expect(healthy.json().checks.writes).toBe('ok');
      const written = await service.call('PUT', '/flows/roomy/metrics', big(1000));
      expect(written.statusCode, written.body).toBe(200);
    } finally {
      await pragma(`max_page_count = ${limit}`);
    }
  });
});

// A store that takes no writes: PostgreSQL after a fail-over to a standby, or told so.
describe.runIf(TEST_POSTGRES_URL)('a read-only store', () => {
  it('answers writes 503, says so in /health, and recovers once the store takes writes again', async () => {
    const url = service.db.url as string;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    // The service's connections reopen with the database's new default; the realtime adapter's stay.
    const reopen = async () => {
      await admin.query(
        `select pg_terminate_backend(pid) from pg_stat_activity
          where datname = current_database() and pid <> pg_backend_pid() and application_name <> $1`,
        [adapterApplication(service.app.wallboard.node.id)],
      );
      // A connection cut while idle fails the query that finds it so: read until the pool is new.
      await expect.poll(async () => (await service.call('GET', '/flows')).statusCode).toBe(200);
    };
    const name = (await admin.query<{ name: string }>('select current_database() as name')).rows[0]?.name;
    const readOnly = (on: boolean) =>
      admin.query(`alter database "${name}" set default_transaction_read_only = ${on ? 'on' : 'off'}`);
    try {
      await readOnly(true);
      await reopen();
      const refused = await service.call('POST', '/flows', { tag: 'frozen', variant: 'text' });
      expect(refused.statusCode, refused.body).toBe(503);
      expect(refused.json().error.message).toMatch(/read-only; nothing was written/);
      const health = await service.call('GET', '/health', undefined, null);
      expect(health.statusCode, health.body).toBe(503);
      expect(health.json().checks).toMatchObject({
        store: 'ok',
        writes: expect.stringMatching(/^the store is read-only \(25006\) since /),
      });

      await readOnly(false);
      await reopen();
      shift += WRITE_PROBE_INTERVAL_MS;
      const healthy = await service.call('GET', '/health', undefined, null);
      expect(healthy.statusCode, healthy.body).toBe(200);
      expect((await service.call('POST', '/flows', { tag: 'frozen', variant: 'text' })).statusCode).toBe(201);
    } finally {
      await readOnly(false);
      await admin.end();
    }
  });
});
