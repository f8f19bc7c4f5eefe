import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_POSTGRES_URL, startTestService, type TestService } from './test-support';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
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
      expect((await service.call('GET', '/health', undefined, null)).statusCode).toBe(200);
      // The refused write left the flow as it was.
      expect((await service.call('GET', '/flows/roomy/metrics')).json()).toEqual(before);
      expect(before).not.toEqual(big(-1));
      await pragma(`max_page_count = ${limit}`);
      const written = await service.call('PUT', '/flows/roomy/metrics', big(1000));
      expect(written.statusCode, written.body).toBe(200);
    } finally {
      await pragma(`max_page_count = ${limit}`);
    }
  });
});
