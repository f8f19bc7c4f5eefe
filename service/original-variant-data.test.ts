// The variant data of the original product's clients (src/shared/testing/original-variant-data.ts),
// each sent the way its client sends it: the Go library's PUT /flows/:tag/metrics, the Ruby
// gem's PUT /flows/:tag/data, the PHP client's batch to /v1/data. Each is taken and stored as
// it was sent, so a client reading its flow back finds what it wrote.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORIGINAL_VARIANT_DATA, type OriginalVariantData } from '../src/shared/testing/original-variant-data';
import { startTestService, type TestService } from './test-support';

let service: TestService;

beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

const UPDATED = { skipped: [], errors: [], error_details: [] };

async function send({ client, sent }: OriginalVariantData, tag: string) {
  if (client === 'go') {
    const put = await service.call('PUT', `/flows/${tag}/metrics`, sent);
    expect(put.statusCode, put.body).toBe(200);
  } else if (client === 'ruby') {
    const put = await service.call('PUT', `/flows/${tag}/data`, sent);
    expect(put.json()).toEqual({ updated: [tag], ...UPDATED });
  } else {
    const post = await service.call('POST', '/v1/data', { data: { [tag]: sent } });
    expect(post.json()).toEqual({ updated: [tag], ...UPDATED });
  }
}

describe("the original clients' variant data", () => {
  it.each(ORIGINAL_VARIANT_DATA.map((c, i) => [c.client, c.variant, i, c] as const))(
    '%s %s (#%i) is taken and read back as sent',
    async (client, variant, index, data) => {
      const tag = `${client}-${variant}-${index}`;
      expect((await service.call('POST', '/flows', { tag, variant })).statusCode).toBe(201);
      await send(data, tag);
      expect((await service.call('GET', `/flows/${tag}/metrics`)).json()).toEqual(data.sent);
    },
  );

  it('still refuses a value that is wrong, naming the field and keeping the data', async () => {
    expect((await service.call('POST', '/flows', { tag: 'bars', variant: 'barchart' })).statusCode).toBe(201);
    await service.call('PUT', '/flows/bars/metrics', { bars: [{ value: 1 }] });
    const refused = await service.call('PUT', '/flows/bars/metrics', { bars: [{ value: 'x', color: '' }] });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toMatch(/bars\.0\.value/);
    expect((await service.call('GET', '/flows/bars/metrics')).json()).toEqual({ bars: [{ value: 1 }] });
  });
});
