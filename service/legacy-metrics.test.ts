// The metric writes of the original product's clients (docs/compatibility.md): the Ruby gem's
// `emit` reads `updated` from PUT /flows/:tag/data's answer, telemetryd and the Node client post
// batches to /data (the Node client without the `data` around them), and the Go agent marks a
// failing job's flow errored with `{message}`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './test-support';

let service: TestService;

beforeAll(async () => {
  service = await startTestService();
  for (const tag of ['cpu', 'mem']) {
    expect((await service.call('POST', '/flows', { tag, variant: 'value' })).statusCode).toBe(201);
  }
});
afterAll(() => service.close());

const metricsOf = async (tag: string) =>
  (await service.call('GET', `/flows/${tag}/metrics`)).json() as unknown;

describe('PUT and PATCH /flows/:tag/data', () => {
  it('write as /metrics does and answer as a batch of one, which the Ruby gem reads', async () => {
    const put = await service.call('PUT', '/flows/cpu/data', { value: 3434, abbreviate: true });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toEqual({ updated: ['cpu'], skipped: [], errors: [], error_details: [] });
    expect(await metricsOf('cpu')).toEqual({ value: 3434, abbreviate: true });

    const patched = await service.call('PATCH', '/flows/cpu/data', { label: 'Load' });
    expect(patched.json()).toEqual({ updated: ['cpu'], skipped: [], errors: [], error_details: [] });
    expect(await metricsOf('cpu')).toEqual({ value: 3434, abbreviate: true, label: 'Load' });
  });

  it('still refuse data that does not fit, changing nothing; /metrics still answers the data', async () => {
    const refused = await service.call('PUT', '/flows/cpu/data', { value: [1, 2] });
    expect(refused.statusCode).toBe(400);
    expect(await metricsOf('cpu')).toMatchObject({ value: 3434 });
    expect((await service.call('PUT', '/flows/cpu/metrics', { value: 1 })).json()).toEqual({ value: 1 });
  });
});

describe('POST and PATCH /data', () => {
  it('take the batch inside `data`, as telemetryd sends it', async () => {
    const posted = await service.call('POST', '/data', { data: { cpu: { value: 10 }, nope: { value: 1 } } });
    expect(posted.json()).toEqual({ updated: ['cpu'], skipped: ['nope'], errors: [], error_details: [] });
    expect(await metricsOf('cpu')).toEqual({ value: 10 });
  });

  it('take the bare map of tags, as the Node client sends it, naming a refused flow by its path', async () => {
    const posted = await service.call('POST', '/data', { cpu: { value: 20 }, mem: { value: [1] } });
    expect(posted.statusCode).toBe(200);
    const answer = posted.json() as {
      updated: string[];
      errors: string[];
      error_details: { tag: string; details: { path: string }[] }[];
    };
    expect(answer.updated).toEqual(['cpu']);
    expect(answer.errors).toEqual([expect.stringMatching(/^mem: body\.mem\.value: ./)]);
    expect(answer.error_details[0]?.details[0]?.path).toBe('body.mem.value');
    expect(await metricsOf('cpu')).toEqual({ value: 20 });
    expect(await metricsOf('mem')).toEqual({});

    const patched = await service.call('PATCH', '/data', { cpu: { label: 'CPU' } });
    expect(patched.json()).toEqual({ updated: ['cpu'], skipped: [], errors: [], error_details: [] });
    expect(await metricsOf('cpu')).toEqual({ value: 20, label: 'CPU' });
  });

  it('answer at /v1/data too, where the PHP client posts', async () => {
    for (const method of ['POST', 'PATCH'] as const) {
      const posted = await service.call(method, '/v1/data', { data: { cpu: { value: 30 } } });
      expect(posted.json()).toEqual({ updated: ['cpu'], skipped: [], errors: [], error_details: [] });
    }
    expect(await metricsOf('cpu')).toMatchObject({ value: 30 });
  });

  it('refuse a body that is no map of tags', async () => {
    expect((await service.call('POST', '/data', [1, 2])).statusCode).toBe(400);
  });
});

describe('POST /flows/:tag/error', () => {
  it('takes the reason the Go agent sends, `{message}`, and its first release’s `{error, output}`', async () => {
    const marked = await service.call('POST', '/flows/mem/error', {
      message: 'exit status 1 : no such host',
    });
    expect(marked.statusCode).toBe(200);
    expect(marked.json()).toMatchObject({ tag: 'mem', errored: true });
    await service.call('POST', '/flows/mem/error', { errored: false });
    const older = await service.call('POST', '/flows/mem/error', { error: 'exit status 2', output: 'boom' });
    expect(older.json()).toMatchObject({ errored: true });
    expect((await service.call('POST', '/flows/mem/error', { reason: 'x' })).statusCode).toBe(400);
  });
});
