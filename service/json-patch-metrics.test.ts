// The original product's Go library and agent (`pipe --jsonpatch`) patch a batch's flows with
// RFC 6902 operations, sent as `application/json-patch+json`; the Ruby gem clears a flow's data
// with DELETE /flows/:tag/data (docs/compatibility.md).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_SECRET, startTestService, type TestService } from './test-support';

let service: TestService;

beforeAll(async () => {
  service = await startTestService();
  for (const tag of ['cpu', 'mem']) {
    expect((await service.call('POST', '/flows', { tag, variant: 'value' })).statusCode).toBe(201);
    await service.call('PUT', `/flows/${tag}/metrics`, { value: 1, label: 'One' });
  }
});
afterAll(() => service.close());

const metricsOf = async (tag: string) =>
  (await service.call('GET', `/flows/${tag}/metrics`)).json() as unknown;

/** A PATCH /metrics as the Go library sends a JSON Patch batch. */
const jsonPatch = (body: unknown) =>
  service.app.inject({
    method: 'PATCH',
    url: '/metrics',
    headers: { authorization: `Bearer ${ADMIN_SECRET}`, 'content-type': 'application/json-patch+json' },
    payload: JSON.stringify(body),
  });

describe('PATCH /metrics with JSON Patch operations', () => {
  it('applies each flow’s operations in turn, under the variant’s check', async () => {
    const response = await jsonPatch({
      data: {
        cpu: [
          { op: 'replace', path: '/value', value: 42 },
          { op: 'add', path: '/sparkline', value: [1, 2] },
          { op: 'remove', path: '/label' },
        ],
      },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ updated: ['cpu'], errors: [] });
    expect(await metricsOf('cpu')).toEqual({ value: 42, sparkline: [1, 2] });
  });

  it('refuses a flow whose operations cannot all apply, or leave data its variant refuses, writing none of them', async () => {
    const response = await jsonPatch({
      data: {
        cpu: [
          { op: 'replace', path: '/value', value: 7 },
          { op: 'test', path: '/value', value: 8 },
        ],
        mem: [{ op: 'replace', path: '/value', value: [1] }],
      },
    });
    const answer = response.json() as { updated: string[]; errors: string[]; error_details: unknown[] };
    expect(answer.updated).toEqual([]);
    expect(answer.errors).toHaveLength(2);
    expect(answer.errors[0]).toMatch(/^cpu: body\.data\.cpu\.1: /);
    expect(answer.errors[1]).toMatch(/^mem: body\.data\.mem\.value: /);
    expect(await metricsOf('cpu')).toEqual({ value: 42, sparkline: [1, 2] });
    expect(await metricsOf('mem')).toEqual({ value: 1, label: 'One' });
  });

  it('refuses an operation of no known form, naming it', async () => {
    const response = await jsonPatch({ data: { cpu: [{ op: 'frobnicate', path: '/value' }] } });
    expect((response.json() as { errors: string[] }).errors[0]).toMatch(/^cpu: body\.data\.cpu\.0/);
  });
});

describe('DELETE /flows/:tag/data', () => {
  it('clears the flow’s data, keeping the flow', async () => {
    const response = await service.call('DELETE', '/flows/mem/data');
    expect(response.statusCode).toBe(204);
    expect(await metricsOf('mem')).toEqual({});
    expect((await service.call('GET', '/flows/mem')).statusCode).toBe(200);
    expect((await service.call('DELETE', '/flows/ghost/data')).statusCode).toBe(404);
  });
});
