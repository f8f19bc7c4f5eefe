import { createHmac, timingSafeEqual } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookReceiver, type Received } from './alerts/testing/receivers';
import { adapterApplication } from './realtime/cluster';
import { TEST_POSTGRES_URL, startTestService, type TestService } from './test-support';
import { FakeClock } from './testing/fake-clock';

// `node.unwritable` end to end (docs/alerts.md): a store that takes no writes, made for real as
// storage-full.test.ts makes it (SQLite: its page limit, which answers as a full disk does;
// PostgreSQL: a database that turned read-only), the real service on its fake clock, a webhook
// receiver on loopback. The alert must go out though no incident can be written, and the
// incident must reach the history once writes succeed again.

const SECOND = 1000;
const SECRET = 'a-shared-secret-of-the-receiver';

const clock = new FakeClock('2026-11-21T07:00:00.000Z');
const receiver = new WebhookReceiver(clock);
let service: TestService;

beforeAll(async () => {
  await receiver.start();
  service = await startTestService({ clock });
});
afterAll(async () => {
  await service.close();
  await receiver.close();
});

async function created(url: string, body: unknown): Promise<{ id: string }> {
  const response = await service.call('POST', url, body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

function signedBy(request: Received): boolean {
  const expected = Buffer.from(`sha256=${createHmac('sha256', SECRET).update(request.body).digest('hex')}`);
  const given = Buffer.from(String(request.headers['x-wallboard-signature']));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

interface Body {
  alert: { id: string; event: string; status: string; devices: string[]; resolved_at?: string };
  screens: unknown[];
  node?: { id: string; reason: string; since: string };
  text: string;
}
const bodyOf = (request: Received | undefined) => JSON.parse(request?.body ?? '{}') as Body;

/** How many incidents of the id the store holds: a read, which works while writes do not. */
async function stored(id: string): Promise<number> {
  const rows = await service.db.kysely.selectFrom('alerts').select('id').where('id', '=', id).execute();
  return rows.length;
}

/**
 * The walk both stores take: a rule of 30 s, writes refused by `breakStore` (which returns when a
 * client's write was refused), the alert from memory, then `mendStore` and the recovery from the
 * store, and the incident in the history.
 */
async function walk(breakStore: () => Promise<void>, mendStore: () => Promise<void>, reason: RegExp) {
  const hook = (
    await created('/alert-destinations', { kind: 'webhook', url: receiver.url('/disk'), secret: SECRET })
  ).id;
  const rule = await created('/alert-rules', {
    event: 'node.unwritable',
    after_seconds: 30,
    destination_ids: [hook],
  });
  await clock.advance(60 * SECOND);
  expect(receiver.at('/disk')).toHaveLength(0);

  await breakStore();
  const refused = clock.now().getTime();
  expect(service.app.wallboard.node.writeRefusal).not.toBeNull();
  await clock.advance(25 * SECOND);
  expect(receiver.at('/disk')).toHaveLength(0);
  await clock.advance(10 * SECOND);
  expect(receiver.at('/disk')).toHaveLength(1);
  const alert = receiver.at('/disk')[0]!;
  expect(alert.at - refused).toBeGreaterThanOrEqual(30 * SECOND);
  expect(alert.at - refused).toBeLessThanOrEqual(35 * SECOND);
  expect(signedBy(alert)).toBe(true);
  const body = bodyOf(alert);
  expect(body.alert).toMatchObject({ event: 'node.unwritable', status: 'firing', devices: [] });
  expect(body.screens).toEqual([]);
  expect(body.node).toEqual({
    id: service.app.wallboard.node.id,
    reason: expect.stringMatching(reason),
    since: new Date(refused).toISOString(),
  });
  expect(body.text).toContain('cannot write its data since');
  // Not in the store (it could not be written), yet listed by the node that holds it.
  expect(await stored(body.alert.id)).toBe(0);
  const open = (await service.call('GET', '/alerts')).json<Record<string, unknown>[]>();
  expect(open[0]).toMatchObject({
    id: body.alert.id,
    event: 'node.unwritable',
    status: 'firing',
    rule_id: rule.id,
    deliveries: [{ destination_id: hook, phase: 'firing', status: 'delivered', attempts: 1 }],
  });

  // Writes still fail a minute on: one alert per incident.
  await clock.advance(60 * SECOND);
  expect(receiver.at('/disk')).toHaveLength(1);

  await mendStore();
  const mended = clock.now().getTime();
  await clock.advance(30 * SECOND);
  expect(receiver.at('/disk')).toHaveLength(2);
  const recovery = receiver.at('/disk')[1]!;
  // The probe's next pass (5 s), the lease taken again and the delivery pass's (5 s each).
  expect(recovery.at - mended).toBeLessThanOrEqual(20 * SECOND);
  expect(signedBy(recovery)).toBe(true);
  expect(bodyOf(recovery).alert).toMatchObject({ id: body.alert.id, status: 'resolved' });
  expect(bodyOf(recovery).text).toContain('writes its data again');
  expect(await stored(body.alert.id)).toBe(1);
  const history = (await service.call('GET', '/alerts')).json<Record<string, unknown>[]>();
  expect(history.filter((incident) => incident.id === body.alert.id)).toEqual([
    expect.objectContaining({
      status: 'resolved',
      node: body.node,
      devices: [],
      deliveries: [
        expect.objectContaining({ phase: 'firing', status: 'delivered', attempts: 1 }),
        expect.objectContaining({ phase: 'resolved', status: 'delivered', attempts: 1 }),
      ],
    }),
  ]);
  // Its alert's message id is the one its receiver saw first.
  expect(recovery.headers['x-wallboard-delivery']).not.toBe(alert.headers['x-wallboard-delivery']);
  await clock.advance(60 * SECOND);
  expect(receiver.at('/disk')).toHaveLength(2);
}

const pragma = async (text: string) =>
  (await sql.raw<Record<string, number>>(`pragma ${text}`).execute(service.db.kysely)).rows[0];

describe.skipIf(TEST_POSTGRES_URL)('a node whose disk is full', () => {
  it('alerts from memory, since no incident can be written, and recovers through the history', async () => {
    const limit = (await pragma('max_page_count'))?.max_page_count ?? 0;
    try {
      await walk(
        async () => {
          expect((await service.call('POST', '/flows', { tag: 'roomy', variant: 'text' })).statusCode).toBe(
            201,
          );
          await pragma(`max_page_count = ${(await pragma('page_count'))?.page_count ?? 0}`);
          // Each write logs its event too: the store grows until it has no page left.
          const big = (i: number) => ({ text: `${i} ${'x'.repeat(9000)}` });
          let refused = await service.call('PUT', '/flows/roomy/metrics', big(0));
          for (let i = 1; i < 200 && refused.statusCode === 200; i += 1) {
            refused = await service.call('PUT', '/flows/roomy/metrics', big(i));
          }
          expect(refused.statusCode, refused.body).toBe(507);
        },
        async () => {
          await pragma(`max_page_count = ${limit}`);
        },
        /^the disk is full \(SQLITE_FULL\)$/,
      );
    } finally {
      await pragma(`max_page_count = ${limit}`);
    }
  });
});

describe.runIf(TEST_POSTGRES_URL)('a node whose store turned read-only', () => {
  it('alerts from memory, since no incident can be written, and recovers through the history', async () => {
    const url = service.db.url as string;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const name = (await admin.query<{ name: string }>('select current_database() as name')).rows[0]?.name;
    const readOnly = async (on: boolean) => {
      await admin.query(`alter database "${name}" set default_transaction_read_only = ${on ? 'on' : 'off'}`);
      // The service's connections reopen with the database's new default; the realtime adapter's stay.
      await admin.query(
        `select pg_terminate_backend(pid) from pg_stat_activity
          where datname = current_database() and pid <> pg_backend_pid() and application_name <> $1`,
        [adapterApplication(service.app.wallboard.node.id)],
      );
      // A connection cut while idle fails the query that finds it so: read until the pool is new.
      await expect.poll(async () => (await service.call('GET', '/flows')).statusCode).toBe(200);
    };
    try {
      await walk(
        async () => {
          await readOnly(true);
          const refused = await service.call('POST', '/flows', { tag: 'frozen', variant: 'text' });
          expect(refused.statusCode, refused.body).toBe(503);
        },
        () => readOnly(false),
        /^the store is read-only \(25006\)$/,
      );
    } finally {
      await admin.query(`alter database "${name}" set default_transaction_read_only = off`);
      await admin.end();
    }
  });
});
