import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RealtimeEvent } from '../src/shared/events';
import { eventsAfter, FaultInjector, lastEventId, startTestService, type TestService } from './test-support';

/**
 * Each write commits once, with its event: the statements the store runs are watched (Kysely's
 * log), and failures are injected into the store to see that a write and its event are kept or
 * lost together, and that sockets hear only of what was committed.
 */

let service: TestService;
const statements: string[] = [];
const faults = new FaultInjector();
const pushed: { event: RealtimeEvent; afterCommits: number }[] = [];

const commits = () => statements.filter((statement) => statement === 'commit').length;

beforeAll(async () => {
  service = await startTestService(
    {},
    {
      log: (event) => {
        if (event.level === 'query') statements.push(event.query.sql.trim().toLowerCase());
      },
      wrap: faults.wrap,
    },
  );
  service.app.wallboard.changes.onEvent((event) => pushed.push({ event, afterCommits: commits() }));
  for (const [tag, variant] of [
    ['cpu', 'value'],
    ['mem', 'gauge'],
    ['disk', 'value'],
  ]) {
    expect((await service.call('POST', '/flows', { tag, variant })).statusCode).toBe(201);
  }
  // The token's last use is written at most once a minute: let that write happen now.
  await service.call('GET', '/flows/cpu/metrics');
  await vi.waitFor(() => expect(statements).toContainEqual(expect.stringMatching(/^update "tokens"/)), {
    timeout: 10_000,
  });
});
afterAll(() => service.close());
beforeEach(() => {
  faults.heal();
  statements.length = 0;
  pushed.length = 0;
});

/**
 * The statements of one request, checked to write in one transaction: reads may come before it
 * (a route looking things up), every write is between its begin and its one commit.
 */
function oneTransaction(): string[] {
  expect(commits()).toBe(1);
  expect(statements.filter((statement) => statement === 'begin')).toHaveLength(1);
  const begin = statements.indexOf('begin');
  const commit = statements.indexOf('commit');
  expect(begin).toBeLessThan(commit);
  const outside = [...statements.slice(0, begin), ...statements.slice(commit + 1)];
  expect(outside.filter((statement) => !statement.startsWith('select'))).toEqual([]);
  return statements.slice(begin, commit + 1);
}

const data = async (tag: string) => (await service.call('GET', `/flows/${tag}/metrics`)).json();

describe('a write and its event', () => {
  it('commit once for a metric write, the event logged in the same transaction', async () => {
    const response = await service.call('PUT', '/flows/cpu/metrics', { value: 1 });
    expect(response.statusCode).toBe(200);
    const run = oneTransaction();
    expect(run.filter((statement) => statement.startsWith('update "flows"'))).toHaveLength(1);
    expect(run.filter((statement) => statement.startsWith('insert into "events"'))).toHaveLength(1);
    // Sockets hear of it once it is committed.
    expect(pushed).toEqual([
      { event: expect.objectContaining({ type: 'metrics.changed' }), afterCommits: 1 },
    ]);
  });

  it('commit once for a merge, and for a notification', async () => {
    expect((await service.call('PATCH', '/flows/cpu/metrics', { label: 'CPU' })).statusCode).toBe(200);
    oneTransaction();
    statements.length = 0;
    const sent = await service.call('POST', '/channels/ch_default/notifications', {
      title: 'Hi',
      message: 'there',
    });
    expect(sent.statusCode).toBe(201);
    const run = oneTransaction();
    expect(run.filter((statement) => statement.startsWith('insert into "notifications"'))).toHaveLength(1);
    expect(run.filter((statement) => statement.startsWith('insert into "events"'))).toHaveLength(1);
  });

  it('are both lost when the event cannot be logged, and sockets hear nothing', async () => {
    await service.call('PUT', '/flows/cpu/metrics', { value: 2 });
    const mark = await lastEventId(service.db);
    pushed.length = 0;
    faults.failWhen((write) => write.kind === 'insert' && write.table === 'events');
    expect((await service.call('PUT', '/flows/cpu/metrics', { value: 3 })).statusCode).toBe(500);
    const notified = await service.call('POST', '/channels/ch_default/notifications', {
      title: 'Lost',
      message: 'never',
    });
    expect(notified.statusCode).toBe(500);
    faults.heal();
    expect(await data('cpu')).toEqual({ value: 2 });
    const titles = (await service.call('GET', '/notifications'))
      .json()
      .map((n: { title: string }) => n.title);
    expect(titles).not.toContain('Lost');
    expect(await eventsAfter(service.db, mark)).toEqual([]);
    expect(pushed).toEqual([]);
  });

  it('are both lost when the write fails after the event was staged', async () => {
    await service.call('PUT', '/flows/cpu/metrics', { value: 4 });
    const mark = await lastEventId(service.db);
    faults.failWhen((write) => write.kind === 'update' && write.table === 'flows');
    expect((await service.call('PUT', '/flows/cpu/metrics', { value: 5 })).statusCode).toBe(500);
    faults.heal();
    expect(await data('cpu')).toEqual({ value: 4 });
    expect(await eventsAfter(service.db, mark)).toEqual([]);
  });
});

describe('a batch of metrics', () => {
  it('writes every accepted flow and their events in one commit, answering flow by flow', async () => {
    const mark = await lastEventId(service.db);
    statements.length = 0;
    const response = await service.call('POST', '/metrics', {
      data: { cpu: { value: 10 }, mem: { value: 'high' }, nope: { value: 1 }, disk: { value: 30 } },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      updated: ['cpu', 'disk'],
      skipped: ['nope'],
      errors: [expect.stringMatching(/^mem: body\.data\.mem\.value: /)],
      error_details: [{ tag: 'mem', details: [expect.objectContaining({ path: 'body.data.mem.value' })] }],
    });
    oneTransaction();
    const logged = await eventsAfter(service.db, mark);
    expect(logged.map((event) => event.payload.flow_tag).sort()).toEqual(['cpu', 'disk']);
  });

  it('writes nothing and answers 500 when the store fails after the flows were written: never written and failed both', async () => {
    await service.call('POST', '/metrics', { data: { cpu: { value: 11 }, disk: { value: 31 } } });
    const mark = await lastEventId(service.db);
    pushed.length = 0;
    // Both flows' data is written (one statement); logging their events then fails.
    faults.failWhen((write) => write.kind === 'insert' && write.table === 'events');
    for (const method of ['POST', 'PATCH'] as const) {
      const response = await service.call(method, '/metrics', {
        data: { cpu: { value: 12 }, disk: { value: 32 } },
      });
      expect(response.statusCode).toBe(500);
    }
    faults.heal();
    expect(await data('cpu')).toEqual({ value: 11 });
    expect(await data('disk')).toEqual({ value: 31 });
    expect(await eventsAfter(service.db, mark)).toEqual([]);
    expect(pushed).toEqual([]);
  });
});
