import type { LogEvent } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { heartbeatSchema } from '../src/shared/device';
import { sampleHeartbeat } from '../src/shared/testing/device-fixtures';
import { startTestService, TEST_POSTGRES_URL, type TestService } from './test-support';
import { FakeClock } from './testing/fake-clock';

// The heartbeats of many screens arriving together are written together, each answered once
// its batch has committed, on both stores (npm run test:postgres).
const heartbeat = heartbeatSchema.parse(sampleHeartbeat('waiting'));
const SCREENS = 40;
const tags = Array.from({ length: SCREENS }, (_, n) => `screen-${n}`);
const clock = new FakeClock('2026-11-27T08:00:00.000Z');
/** Every statement the store runs, as SQL. */
const statements: string[] = [];
let service: TestService;

beforeAll(async () => {
  service = await startTestService(
    { clock },
    { log: (event: LogEvent) => void (event.level === 'query' && statements.push(event.query.sql)) },
  );
  for (const tag of tags) expect((await service.call('POST', '/devices', { tag })).statusCode).toBe(201);
});
afterAll(() => service.close());

const beat = (tag: string) => service.call('POST', `/devices/${tag}/heartbeat`, heartbeat);

/** The statements run while `work` runs. */
async function statementsOf(work: () => Promise<unknown>): Promise<string[]> {
  const from = statements.length;
  await work();
  return statements.slice(from);
}

it('writes the heartbeats of screens arriving together in a few statements, each seen at once after its answer', async () => {
  // Online, with what they show recorded in their history: the next heartbeats change none.
  const first = await statementsOf(() => Promise.all(tags.map(beat)));
  expect(first.filter((text) => /^\s*insert into "device_history"/i.test(text)).length).toBeLessThanOrEqual(
    3,
  );
  const history = (await service.call('GET', `/devices/${tags[SCREENS - 1]}/history`)).json<{
    entries: { kind: string }[];
  }>();
  expect(history.entries.map((entry) => entry.kind).sort()).toEqual(['online', 'showing']);
  await clock.advance(1_000);
  const run = await statementsOf(async () => {
    const answers = await Promise.all(tags.map(beat));
    expect(answers.map((answer) => answer.statusCode)).toEqual(tags.map(() => 200));
  });
  // One by one, each heartbeat locked and read its row, then updated it: two statements or more each.
  const writes = run.filter((text) => /^\s*(select|update)\b[\s\S]*"devices"/i.test(text));
  expect(writes.length).toBeLessThanOrEqual(6);
  const seen = (await service.call('GET', '/devices')).json<{ tag: string; last_seen_date: string }[]>();
  expect(seen.filter((device) => device.last_seen_date === clock.now().toISOString())).toHaveLength(SCREENS);
});

it.skipIf(!TEST_POSTGRES_URL)(
  'commits heartbeats of online screens without waiting for the disk, and one that brings a screen online with',
  async () => {
    const steady = await statementsOf(() => beat('screen-0'));
    expect(steady.filter((text) => text.includes('synchronous_commit = off'))).toHaveLength(1);
    expect((await service.call('POST', '/devices/screen-1/offline')).statusCode).toBe(200);
    const back = await statementsOf(() => beat('screen-1'));
    expect(back.some((text) => /insert into "events"/i.test(text))).toBe(true);
    expect(back.filter((text) => text.includes('synchronous_commit'))).toHaveLength(0);
  },
);
