// Flows as the original product's clients address and create them (docs/compatibility.md): the Go
// library and agent name a flow by tag, id or embed id on every /flows/:x route, create it with
// `data`, `source_provider`, `filter` and `params`, then write to /flows/{embed_id}/metrics; the
// Node client's PATCH carries the flow's id in its body.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './test-support';

let service: TestService;
let flow: { id: string; embed_id: string; tag: string };

beforeAll(async () => {
  service = await startTestService();
  const created = await service.call('POST', '/flows', { tag: 'cpu', variant: 'value' });
  expect(created.statusCode, created.body).toBe(201);
  flow = created.json();
});
afterAll(() => service.close());

describe('a flow found by tag, id or embed id', () => {
  it('answers an embed id, the id, which the Go library writes its metrics to', async () => {
    expect(flow.embed_id).toBe(flow.id);
    const put = await service.call('PUT', `/flows/${flow.embed_id}/metrics`, { value: 7 });
    expect(put.statusCode, put.body).toBe(200);
    expect((await service.call('GET', '/flows/cpu/metrics')).json()).toEqual({ value: 7 });
    expect((await service.call('GET', `/flows/${flow.id}/data`)).json()).toEqual({ value: 7 });
    const patched = await service.call('PATCH', `/flows/${flow.id}/data`, { label: 'Load' });
    expect(patched.json()).toMatchObject({ updated: [flow.id], skipped: [], errors: [] });
    expect((await service.call('GET', '/flows/cpu/metrics')).json()).toEqual({ value: 7, label: 'Load' });
  });

  it('reads GET /flows/:x and /flows/:x/layout by id or by tag, a tag of up to 100 characters', async () => {
    const byId = (await service.call('GET', `/flows/${flow.id}`)).json();
    expect(byId).toMatchObject({ id: flow.id, embed_id: flow.id, tag: 'cpu' });
    expect((await service.call('GET', '/flows/cpu')).json()).toEqual(byId);
    expect((await service.call('GET', `/flows/${flow.id}/layout`)).json()).toEqual(byId);
    expect((await service.call('GET', '/flows/cpu/layout')).json()).toEqual(byId);
    const long = 'l'.repeat(100);
    expect((await service.call('POST', '/flows', { tag: long, variant: 'value' })).statusCode).toBe(201);
    expect((await service.call('GET', `/flows/${long}`)).json()).toMatchObject({ tag: long });
    expect((await service.call('GET', '/flows/nothing-here')).statusCode).toBe(404);
    expect((await service.call('GET', '/flows/nothing-here/layout')).statusCode).toBe(404);
  });

  it('prefers the id on /flows/:x and the tag on /flows/:x/metrics when both name a flow', async () => {
    const other = (await service.call('POST', '/flows', { tag: flow.id, variant: 'value' })).json<{
      id: string;
    }>();
    expect((await service.call('GET', `/flows/${flow.id}`)).json()).toMatchObject({ tag: 'cpu' });
    await service.call('PUT', `/flows/${flow.id}/metrics`, { value: 1 });
    expect((await service.call('GET', `/flows/${other.id}/metrics`)).json()).toEqual({ value: 1 });
    expect((await service.call('GET', '/flows/cpu/metrics')).json()).toMatchObject({ value: 7 });
    expect((await service.call('DELETE', `/flows/${other.id}`)).statusCode).toBe(204);
  });

  it('patches and deletes by tag', async () => {
    await service.call('POST', '/flows', { tag: 'doomed', variant: 'value' });
    const patched = await service.call('PATCH', '/flows/doomed', { errored: true });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({ tag: 'doomed', errored: true });
    expect((await service.call('DELETE', '/flows/doomed')).statusCode).toBe(204);
    expect((await service.call('GET', '/flows/doomed')).statusCode).toBe(404);
  });
});

describe('PATCH /flows/:id with the id in the body (the Node client)', () => {
  it('takes the id of the flow it patches and drops it', async () => {
    const patched = await service.call('PATCH', `/flows/${flow.id}`, { id: flow.id, errored: false });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({ id: flow.id, errored: false });
  });

  it('refuses another id, naming the field, and changes nothing', async () => {
    const refused = await service.call('PATCH', `/flows/${flow.id}`, { id: 'fl_other', tag: 'renamed' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.details).toContainEqual(expect.objectContaining({ path: 'body.id' }));
    expect((await service.call('GET', `/flows/${flow.id}`)).json()).toMatchObject({ tag: 'cpu' });
  });
});

describe('POST /flows with the original fields (the Go library and agent)', () => {
  it('takes data null, source_provider, filter, params and an empty id and embed id', async () => {
    const created = await service.call('POST', '/flows', {
      id: '',
      embed_id: '',
      tag: 'go-made',
      data: null,
      variant: 'gauge',
      source_provider: 'agent',
      filter: 'x',
      params: 'y=1',
    });
    expect(created.statusCode, created.body).toBe(201);
    const made = created.json<{ id: string; embed_id: string }>();
    // Ignored: they mean nothing here and are not our source or parameters.
    expect(made).toMatchObject({ tag: 'go-made', variant: 'gauge', source: null, parameters: null });
    expect(made.embed_id).toBe(made.id);
    expect((await service.call('GET', '/flows/go-made/metrics')).json()).toEqual({});
    const put = await service.call('PUT', `/flows/${made.embed_id}/metrics`, { value: 40 });
    expect(put.statusCode, put.body).toBe(200);
  });

  it('stores data as the first metrics when it fits the variant, and refuses it naming the field', async () => {
    const created = await service.call('POST', '/flows', {
      tag: 'seeded',
      variant: 'value',
      data: { value: 12 },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect((await service.call('GET', '/flows/seeded/metrics')).json()).toEqual({ value: 12 });

    const refused = await service.call('POST', '/flows', {
      tag: 'badly-seeded',
      variant: 'value',
      data: { value: [1, 2] },
    });
    expect(refused.statusCode).toBe(400);
    expect(JSON.stringify(refused.json().error.details)).toContain('body.data.value');
    expect((await service.call('GET', '/flows/badly-seeded')).statusCode).toBe(404);
  });

  it('still refuses a non-empty id and unknown fields', async () => {
    for (const extra of [{ id: 'fl_mine' }, { embed_id: 'x' }, { colour: 'red' }]) {
      const response = await service.call('POST', '/flows', { tag: 'never', variant: 'value', ...extra });
      expect(response.statusCode, JSON.stringify(extra)).toBe(400);
    }
  });
});

describe("another account's flow of the same tag", () => {
  it("is never found by its tag or id: the tag names the caller's own flow", async () => {
    const b = await service.addAccount('B');
    const before = (await service.call('GET', '/flows/cpu/metrics')).body;
    const own = (await b.call('POST', '/flows', { tag: 'cpu', variant: 'value' })).json<{ id: string }>();
    for (const path of ['/flows/cpu', '/flows/cpu/layout']) {
      expect((await b.call('GET', path)).json(), path).toMatchObject({ id: own.id });
    }
    expect((await b.call('PUT', '/flows/cpu/metrics', { value: 99 })).statusCode).toBe(200);
    for (const path of [`/flows/${flow.id}`, `/flows/${flow.id}/layout`, `/flows/${flow.id}/metrics`]) {
      expect((await b.call('GET', path)).statusCode, path).toBe(404);
    }
    expect((await b.call('PUT', `/flows/${flow.id}/metrics`, { value: 1 })).statusCode).toBe(404);
    expect((await b.call('PATCH', `/flows/${flow.id}`, { errored: true })).statusCode).toBe(404);
    expect((await b.call('DELETE', `/flows/${flow.id}`)).statusCode).toBe(404);
    expect((await service.call('GET', '/flows/cpu/metrics')).body).toBe(before);
    expect((await service.call('GET', '/flows/cpu')).json()).toMatchObject({ id: flow.id, errored: false });
  });
});
