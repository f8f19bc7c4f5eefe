import type { LogEvent } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  eventsAfter,
  lastEventId,
  startTestService,
  type AccountCall,
  type TestService,
} from './test-support';

// Single metric writes and notifications arriving together are written together
// (actions/coalesced-writes.ts): a few statements for all of them, each answered with its own
// result, on both stores (npm run test:postgres). Heartbeats: heartbeat-writes.test.ts.
const FLOWS = 20;
const tags = Array.from({ length: FLOWS }, (_, n) => `together_${n}`);
/** Every statement the store runs, as SQL. */
const statements: string[] = [];
let service: TestService;
let other: AccountCall;

beforeAll(async () => {
  service = await startTestService(
    {},
    { log: (event: LogEvent) => void (event.level === 'query' && statements.push(event.query.sql)) },
  );
  for (const tag of tags) {
    expect((await service.call('POST', '/flows', { tag, variant: 'value' })).statusCode).toBe(201);
  }
  ({ call: other } = await service.addAccount('Other'));
  expect((await other('POST', '/flows', { tag: tags[0], variant: 'value' })).statusCode).toBe(201);
});
afterAll(() => service.close());

/** The statements run while `work` runs. */
async function statementsOf(work: () => Promise<unknown>): Promise<string[]> {
  const from = statements.length;
  await work();
  return statements.slice(from);
}

const data = async (tag: string, call: AccountCall = service.call) =>
  (await call('GET', `/flows/${tag}/metrics`)).json<Record<string, unknown>>();

it('writes many flows written at once in a few statements, two merges of one flow in turn, each answered with its own data', async () => {
  const mark = await lastEventId(service.db);
  let answers: { statusCode: number; json(): unknown }[] = [];
  const run = await statementsOf(async () => {
    answers = await Promise.all(
      tags.flatMap((tag, n) => [
        service.call('PATCH', `/flows/${tag}/metrics`, { value: n, first: true }),
        service.call('PATCH', `/flows/${tag}/metrics`, { second: n }),
      ]),
    );
  });
  expect(answers.map((answer) => answer.statusCode)).toEqual(answers.map(() => 200));
  // Each answer is the data its own write left: the first merge's, without the second's key, or
  // both once the second came after it.
  expect(answers[0]?.json()).toEqual({ value: 0, first: true });
  expect(answers[1]?.json()).toEqual({ value: 0, first: true, second: 0 });
  for (const [n, tag] of tags.entries())
    expect(await data(tag)).toEqual({ value: n, first: true, second: n });
  // One by one, each write read its flow twice (by tag or id, then under lock) and updated it:
  // 120 statements on the flows for these 40 writes.
  const onFlows = run.filter((text) => /^\s*(select|update)\b[\s\S]*"flows"/i.test(text));
  expect(onFlows.length).toBeLessThanOrEqual(6);
  // Every write is announced on its own, in the order of the writes.
  const logged = await eventsAfter(service.db, mark);
  expect(logged).toHaveLength(2 * FLOWS);
  expect(
    logged.filter((event) => event.payload.flow_tag === tags[3]).map((event) => event.payload.data),
  ).toEqual([
    { value: 3, first: true },
    { value: 3, first: true, second: 3 },
  ]);
});

it('refuses, or finds no flow for, one write of those written together alone', async () => {
  const answers = await Promise.all([
    service.call('PUT', `/flows/${tags[1]}/metrics`, { value: 1, delta: 'not a number' }),
    service.call('PUT', '/flows/no_such_flow/metrics', { value: 1 }),
    ...tags.slice(2).map((tag) => service.call('PUT', `/flows/${tag}/metrics`, { value: 100 })),
  ]);
  expect(answers.map((answer) => answer.statusCode)).toEqual([400, 404, ...tags.slice(2).map(() => 200)]);
  expect(answers[0]?.json<{ error: { details: { path: string }[] } }>().error.details[0]?.path).toBe(
    'body.delta',
  );
  expect(await data(tags[1]!)).toEqual({ value: 1, first: true, second: 1 });
  for (const tag of tags.slice(2)) expect(await data(tag)).toEqual({ value: 100 });
});

it("writes each account's flow of one tag, written at once by both", async () => {
  const tag = tags[0]!;
  const answers = await Promise.all([
    service.call('PUT', `/flows/${tag}/metrics`, { value: 1 }),
    other('PUT', `/flows/${tag}/metrics`, { value: 2 }),
    service.call('PUT', `/flows/${tags[1]}/metrics`, { value: 3 }),
    other('PUT', `/flows/${tags[1]}/metrics`, { value: 4 }),
  ]);
  expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 404]);
  expect(await data(tag)).toEqual({ value: 1 });
  expect(await data(tag, other)).toEqual({ value: 2 });
  expect(await data(tags[1]!)).toEqual({ value: 3 });
});

it('creates many notifications sent at once in a few statements, refusing one with an unknown sound alone', async () => {
  const mark = await lastEventId(service.db);
  const titles = Array.from({ length: 30 }, (_, n) => `n${n}`);
  const send = (body: object) => service.call('POST', '/channels/ch_default/notifications', body);
  let answers: { statusCode: number; json(): unknown }[] = [];
  const run = await statementsOf(async () => {
    // The first arrives at a quiet node and is written at once; the one with the unknown sound
    // shares the next batch with the others.
    answers = await Promise.all([
      send({ title: titles[0], message: 'm' }),
      send({ title: 'unheard', message: 'm', sound_url: '/media/med_nothere/content' }),
      ...titles.slice(1).map((title) => send({ title, message: 'm' })),
    ]);
  });
  expect(answers.map((answer) => answer.statusCode)).toEqual([201, 400, ...titles.slice(1).map(() => 201)]);
  const refusal = answers[1]?.json() as { error: { details: { path: string }[] } };
  expect(refusal.error.details[0]?.path).toBe('body.sound_url');
  expect(
    answers.filter((_, n) => n !== 1).map((answer) => (answer.json() as { title: string }).title),
  ).toEqual(titles);
  // One by one, or a batch failed by the unknown sound and tried again write by write: an insert
  // of its own for each notification.
  const inserts = run.filter((text) => /^\s*insert into "notifications"/i.test(text));
  expect(inserts.length).toBeLessThanOrEqual(5);
  const logged = await eventsAfter(service.db, mark);
  expect(logged.map((event) => (event.payload.notification as { title: string }).title).sort()).toEqual(
    [...titles].sort(),
  );
});

it("creates notifications to many flows' channels in a few statements, refusing one to a flow that is not there alone", async () => {
  const send = (tag: string) =>
    service.call('POST', `/flows/${tag}/notifications`, { title: `to ${tag}`, message: 'm' });
  let answers: { statusCode: number; json(): unknown }[] = [];
  const run = await statementsOf(async () => {
    answers = await Promise.all([send(tags[0]!), send('no_such_flow'), ...tags.slice(1).map(send)]);
  });
  expect(answers.map((answer) => answer.statusCode)).toEqual([201, 404, ...tags.slice(1).map(() => 201)]);
  expect(
    answers.filter((_, n) => n !== 1).map((answer) => (answer.json() as { title: string }).title),
  ).toEqual(tags.map((tag) => `to ${tag}`));
  // One by one: a read of its flow for each, and an insert of its own.
  const reads = run.filter((text) => /^\s*select\b[\s\S]*from "flows"/i.test(text));
  expect(reads.length).toBeLessThanOrEqual(3);
  expect(run.filter((text) => /^\s*insert into "notifications"/i.test(text)).length).toBeLessThanOrEqual(3);
});

it("writes one sender's notifications as it, without setting the audit trail's actor around them", async () => {
  const titles = Array.from({ length: 20 }, (_, n) => `one sender ${n}`);
  let answers: { statusCode: number }[] = [];
  const run = await statementsOf(async () => {
    answers = await Promise.all(
      titles.map((title) =>
        service.call('POST', '/channels/ch_default/notifications', { title, message: 'm' }),
      ),
    );
  });
  expect(answers.map((answer) => answer.statusCode)).toEqual(titles.map(() => 201));
  // On PostgreSQL the connection carries the sender from its checkout (audit/pg-actor.ts): setting
  // it for the batch's transaction and putting it back were two round trips a batch.
  expect(run.filter((text) => /set_config/i.test(text))).toEqual([]);
  const audit = await service.call('GET', '/audit?resource=notifications&action=create');
  const named = new Map(
    audit
      .json<{ actor: { name: string }; after: { title?: string } | null }[]>()
      .map((entry) => [entry.after?.title, entry.actor.name]),
  );
  expect(titles.map((title) => named.get(title))).toEqual(titles.map(() => 'test admin'));
});
