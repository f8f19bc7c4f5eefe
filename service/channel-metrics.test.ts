// A channel's batches (docs/api/metrics.md), as the original product's clients send them: the Go
// library's and agent's `channel_tag` (POST/PATCH /channels/:tag/metrics), the Ruby gem's
// channel_send_batch and the Node client's sendFlowsForChannel (POST /channels/:tag/data), and the
// Ruby gem's channel_send (POST /channels/:tag/flows/:flow_tag/data). Only the channel's flows are
// written.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './test-support';

let service: TestService;
let ops: { id: string; tag: string };

beforeAll(async () => {
  service = await startTestService();
  const made = await service.call('POST', '/channels', { name: 'Ops', parent_channel_id: 'ch_default' });
  expect(made.statusCode, made.body).toBe(201);
  ops = made.json();
  const other = (
    await service.call('POST', '/channels', { name: 'Sales', parent_channel_id: 'ch_default' })
  ).json() as { id: string };
  for (const [tag, channel_id] of [
    ['cpu', ops.id],
    ['mem', ops.id],
    ['revenue', other.id],
    ['loose', null],
  ] as const) {
    const flow = await service.call('POST', '/flows', { tag, variant: 'value', channel_id });
    expect(flow.statusCode, flow.body).toBe(201);
  }
});
afterAll(() => service.close());

const metricsOf = async (tag: string) =>
  (await service.call('GET', `/flows/${tag}/metrics`)).json() as unknown;

describe('POST and PATCH /channels/:channel/metrics', () => {
  it("write the channel's flows only, the others skipped, by tag or by id", async () => {
    const posted = await service.call('POST', `/channels/${ops.tag}/metrics`, {
      data: { cpu: { value: 1 }, revenue: { value: 1 }, loose: { value: 1 }, nope: { value: 1 } },
    });
    expect(posted.statusCode, posted.body).toBe(200);
    expect(posted.json()).toEqual({
      updated: ['cpu'],
      skipped: ['revenue', 'loose', 'nope'],
      errors: [],
      error_details: [],
    });
    expect(await metricsOf('cpu')).toEqual({ value: 1 });
    expect(await metricsOf('revenue')).toEqual({});
    expect(await metricsOf('loose')).toEqual({});

    const patched = await service.call('PATCH', `/channels/${ops.id}/metrics`, {
      data: { cpu: { label: 'CPU' }, mem: { value: [1] } },
    });
    expect(patched.json()).toEqual({
      updated: ['cpu'],
      skipped: [],
      errors: [expect.stringMatching(/^mem: body\.data\.mem\.value: ./)],
      error_details: [{ tag: 'mem', details: [expect.objectContaining({ path: 'body.data.mem.value' })] }],
    });
    expect(await metricsOf('cpu')).toEqual({ value: 1, label: 'CPU' });
  });

  it('answer 404 for an unknown channel, and 400 for a body without data', async () => {
    const unknown = await service.call('POST', '/channels/no-such-channel/metrics', { data: { cpu: {} } });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.message).toMatch(/channel no-such-channel/);
    expect((await service.call('POST', `/channels/${ops.tag}/metrics`, { cpu: {} })).statusCode).toBe(400);
  });

  it('refuse a query parameter they do not know rather than ignore it, as every batch does', async () => {
    for (const url of [
      `/channels/${ops.tag}/metrics?channel=sales`,
      `/channels/${ops.tag}/data?replace=1`,
      `/channels/${ops.tag}/flows/cpu/data?x=1`,
      '/metrics?dry_run=1',
      '/data?x=1',
      '/v1/data?x=1',
    ]) {
      const refused = await service.call('POST', url, { data: { cpu: { value: 99 } } });
      expect(refused.statusCode, url).toBe(400);
      expect(refused.json().error.details[0].path, url).toMatch(/^querystring/);
    }
    expect(await metricsOf('cpu')).not.toMatchObject({ value: 99 });
  });
});

describe('POST /channels/:channel/data', () => {
  it('takes the batch inside `data` or bare, as /data does', async () => {
    const wrapped = await service.call('POST', `/channels/${ops.tag}/data`, {
      data: { mem: { value: 2 }, revenue: { value: 2 } },
    });
    expect(wrapped.json()).toEqual({ updated: ['mem'], skipped: ['revenue'], errors: [], error_details: [] });
    const bare = await service.call('POST', `/channels/${ops.tag}/data`, { mem: { value: [3] } });
    expect(bare.json()).toMatchObject({
      updated: [],
      errors: [expect.stringMatching(/^mem: body\.mem\.value: /)],
    });
    expect(await metricsOf('mem')).toEqual({ value: 2 });
    expect(await metricsOf('revenue')).toEqual({});
  });
});

describe('POST /channels/:channel/flows/:flow_tag/data', () => {
  it("replaces one flow's data, answered as a batch of one", async () => {
    const sent = await service.call('POST', `/channels/${ops.tag}/flows/mem/data`, { value: 4 });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json()).toEqual({ updated: ['mem'], skipped: [], errors: [], error_details: [] });
    expect(await metricsOf('mem')).toEqual({ value: 4 });
  });

  it('skips a flow of another channel, refuses data that does not fit, and 404s an unknown channel', async () => {
    const elsewhere = await service.call('POST', `/channels/${ops.tag}/flows/revenue/data`, { value: 4 });
    expect(elsewhere.json()).toEqual({ updated: [], skipped: ['revenue'], errors: [], error_details: [] });
    expect(await metricsOf('revenue')).toEqual({});
    const refused = await service.call('POST', `/channels/${ops.tag}/flows/mem/data`, { value: [1] });
    expect(refused.statusCode).toBe(200);
    expect(refused.json()).toMatchObject({
      updated: [],
      errors: [expect.stringMatching(/^mem: body\.value: /)],
    });
    expect(await metricsOf('mem')).toEqual({ value: 4 });
    const unknown = await service.call('POST', '/channels/nope/flows/mem/data', { value: 4 });
    expect(unknown.statusCode).toBe(404);
  });
});
