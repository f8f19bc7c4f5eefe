import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flag, fromJson } from './db/dialect';
import { iso } from './repositories/rows';
import {
  eventsAfter as loggedAfter,
  lastEventId as lastLoggedId,
  startTestService,
  type TestService,
} from './test-support';

let service: TestService;
let readonly: string;
let affiliated: string;
beforeAll(async () => {
  service = await startTestService();
  readonly = await service.tokenOf('readonly');
  affiliated = await service.tokenOf('affiliated');
});
afterAll(() => service.close());

async function createFlow(tag: string, variant: string): Promise<{ id: string; tag: string }> {
  const response = await service.call('POST', '/flows', { tag, variant });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

const lastEventId = () => lastLoggedId(service.db);
const eventsAfter = (mark: number) => loggedAfter(service.db, mark);

/** The flow's row as stored, in one shape on both stores. */
async function stored(tag: string) {
  const row = await service.db.kysely
    .selectFrom('flows')
    .select(['data', 'data_updated_at', 'errored'])
    .where('tag', '=', tag)
    .executeTakeFirstOrThrow();
  return { data: fromJson(row.data), data_updated_at: iso(row.data_updated_at), errored: flag(row.errored) };
}

describe('metrics of one flow', () => {
  it('starts as {} and is replaced by PUT, which publishes metrics.changed', async () => {
    const flow = await createFlow('cpu', 'value');
    expect((await service.call('GET', '/flows/cpu/metrics')).json()).toEqual({});
    expect((await stored('cpu')).data_updated_at).toBeNull();

    const mark = await lastEventId();
    const data = { value: 42, label: 'CPU', sparkline: [1, 2, 3], vendor_extra: { kept: true } };
    const response = await service.call('PUT', '/flows/cpu/metrics', data);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual(data);
    expect((await service.call('GET', '/flows/cpu/metrics')).json()).toEqual(data);
    expect((await stored('cpu')).data_updated_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(await eventsAfter(mark)).toEqual([
      {
        type: 'metrics.changed',
        payload: { flow_id: flow.id, flow_tag: 'cpu', data },
        rooms: [`flow:${flow.id}`],
      },
    ]);

    expect((await service.call('PUT', '/flows/cpu/metrics', { value: 7 })).json()).toEqual({ value: 7 });
    expect((await service.call('PUT', '/flows/cpu/metrics', {})).json()).toEqual({});
  });

  it('refuses data that does not fit the variant with 400 naming body.<field>, and keeps the old data', async () => {
    await createFlow('mem', 'gauge');
    await service.call('PUT', '/flows/mem/metrics', { value: 50, max: 100 });
    const mark = await lastEventId();
    const cases: [unknown, string][] = [
      [{ value: 'high' }, 'body.value'],
      [{ max: 100 }, 'body.value'],
      [{ value: 1, value_color: 'not a colour!' }, 'body.value_color'],
      [{ value: 1, range: [{ from: 0, to: 1, color: 7 }] }, 'body.range.0.color'],
      [[1, 2], 'body'],
    ];
    for (const [body, path] of cases) {
      const response = await service.call('PUT', '/flows/mem/metrics', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().error.code).toBe('invalid_request');
      expect(response.json().error.details.map((d: { path: string }) => d.path)).toContain(path);
    }
    expect((await service.call('GET', '/flows/mem/metrics')).json()).toEqual({ value: 50, max: 100 });
    expect(await eventsAfter(mark)).toEqual([]);
  });

  it('merges top-level keys with PATCH, removes keys set to null, and checks the result', async () => {
    await createFlow('disk', 'gauge');
    await service.call('PUT', '/flows/disk/metrics', { value: 10, max: 100, value_type: 'percent' });
    const merged = await service.call('PATCH', '/flows/disk/metrics', { value: 20, value_type: null });
    expect(merged.statusCode).toBe(200);
    expect(merged.json()).toEqual({ value: 20, max: 100 });
    expect((await service.call('GET', '/flows/disk/metrics')).json()).toEqual({ value: 20, max: 100 });

    const refused = await service.call('PATCH', '/flows/disk/metrics', { value: null });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.details[0].path).toBe('body.value');
    const bad = await service.call('PATCH', '/flows/disk/metrics', { max: 'lots' });
    expect(bad.json().error.details[0].path).toBe('body.max');
    expect((await service.call('PATCH', '/flows/disk/metrics', [1])).statusCode).toBe(400);
    expect((await service.call('GET', '/flows/disk/metrics')).json()).toEqual({ value: 20, max: 100 });
  });

  it('serves the same routes under the legacy /flows/:tag/data', async () => {
    await createFlow('legacy', 'text');
    expect((await service.call('GET', '/flows/legacy/data')).json()).toEqual({});
    // Answered as a batch of one, as the original product's Ruby gem reads it (docs/compatibility.md).
    const written = { updated: ['legacy'], skipped: [], errors: [], error_details: [] };
    expect((await service.call('PUT', '/flows/legacy/data', { text: 'hello' })).json()).toEqual(written);
    expect((await service.call('PATCH', '/flows/legacy/data', { alignment: 'center' })).json()).toEqual(
      written,
    );
    expect((await service.call('GET', '/flows/legacy/metrics')).json()).toEqual({
      text: 'hello',
      alignment: 'center',
    });
    const bad = await service.call('PUT', '/flows/legacy/data', { alignment: 'left' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details[0].path).toBe('body.text');
  });

  it('answers 404 for an unknown flow', async () => {
    for (const path of ['metrics', 'data']) {
      expect((await service.call('GET', `/flows/ghost/${path}`)).statusCode).toBe(404);
      expect((await service.call('PUT', `/flows/ghost/${path}`, { value: 1 })).statusCode).toBe(404);
      expect((await service.call('PATCH', `/flows/ghost/${path}`, { value: 1 })).statusCode).toBe(404);
    }
  });

  it('follows renamed, deleted and recreated flows: nothing is cached', async () => {
    const flow = await createFlow('moving', 'value');
    await service.call('PUT', '/flows/moving/metrics', { value: 1 });
    await service.call('PATCH', `/flows/${flow.id}`, { tag: 'moved' });
    expect((await service.call('PUT', '/flows/moving/metrics', { value: 2 })).statusCode).toBe(404);
    expect((await service.call('PUT', '/flows/moved/metrics', { value: 3 })).statusCode).toBe(200);
    await service.call('DELETE', `/flows/${flow.id}`);
    expect((await service.call('PUT', '/flows/moved/metrics', { value: 4 })).statusCode).toBe(404);
    await createFlow('moved', 'text');
    expect((await service.call('PUT', '/flows/moved/metrics', { value: 5 })).statusCode).toBe(400);
    expect((await service.call('PUT', '/flows/moved/metrics', { text: 'now text' })).statusCode).toBe(200);
  });
});

describe('the errored flag', () => {
  it('is set by POST /flows/:tag/error (true by default) and left alone by metric writes', async () => {
    const flow = await createFlow('flaky', 'value');
    const mark = await lastEventId();
    const set = await service.call('POST', '/flows/flaky/error');
    expect(set.statusCode).toBe(200);
    expect(set.json()).toMatchObject({ id: flow.id, errored: true });
    expect(await eventsAfter(mark)).toEqual([
      { type: 'flow.changed', payload: { flow_id: flow.id }, rooms: [`flow:${flow.id}`] },
    ]);

    await service.call('PUT', '/flows/flaky/metrics', { value: 1 });
    await service.call('PATCH', '/flows/flaky/metrics', { value: 2 });
    await service.call('POST', '/metrics', { data: { flaky: { value: 3 } } });
    expect((await stored('flaky')).errored).toBe(true);

    expect((await service.call('POST', '/flows/flaky/error', { errored: false })).json().errored).toBe(false);
    expect((await service.call('POST', '/flows/flaky/error', {})).json().errored).toBe(true);
    expect((await service.call('GET', `/flows/${flow.id}`)).json().errored).toBe(true);
  });

  it('refuses a bad body (400) and an unknown flow (404)', async () => {
    await createFlow('flaky-2', 'value');
    const bad = await service.call('POST', '/flows/flaky-2/error', { errored: 'yes' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details[0].path).toBe('body.errored');
    expect((await service.call('POST', '/flows/ghost/error', { errored: true })).statusCode).toBe(404);
  });
});

describe('metrics of many flows', () => {
  it('replaces each good flow, skips unknown tags and reports invalid ones', async () => {
    const good = await createFlow('batch-a', 'value');
    const other = await createFlow('batch-b', 'text');
    await createFlow('batch-bad', 'gauge');
    await service.call('PUT', '/flows/batch-bad/metrics', { value: 1 });
    const mark = await lastEventId();
    const response = await service.call('POST', '/metrics', {
      data: {
        'batch-a': { value: 99 },
        'no-such-flow': { value: 1 },
        'batch-bad': { value: 'not a number' },
        'batch-b': { text: 'ok' },
        'batch-array': [1, 2],
      },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      updated: ['batch-a', 'batch-b'],
      skipped: ['no-such-flow'],
      // Strings, as the original's Go and PHP clients parse them; the structured form beside them.
      errors: [
        expect.stringMatching(/^batch-bad: body\.data\.batch-bad\.value: ./),
        expect.stringMatching(/^batch-array: body\.data\.batch-array: ./),
      ],
      error_details: [
        { tag: 'batch-bad', details: [{ path: 'body.data.batch-bad.value', message: expect.any(String) }] },
        { tag: 'batch-array', details: [{ path: 'body.data.batch-array', message: expect.any(String) }] },
      ],
    });
    const answer = response.json() as {
      errors: string[];
      error_details: { details: { message: string }[] }[];
    };
    expect(answer.errors[0]).toBe(
      `batch-bad: body.data.batch-bad.value: ${answer.error_details[0]?.details[0]?.message}`,
    );
    expect((await service.call('GET', '/flows/batch-a/metrics')).json()).toEqual({ value: 99 });
    expect((await service.call('GET', '/flows/batch-b/metrics')).json()).toEqual({ text: 'ok' });
    expect((await service.call('GET', '/flows/batch-bad/metrics')).json()).toEqual({ value: 1 });
    expect(await eventsAfter(mark)).toEqual([
      {
        type: 'metrics.changed',
        payload: { flow_id: good.id, flow_tag: 'batch-a', data: { value: 99 } },
        rooms: [`flow:${good.id}`],
      },
      {
        type: 'metrics.changed',
        payload: { flow_id: other.id, flow_tag: 'batch-b', data: { text: 'ok' } },
        rooms: [`flow:${other.id}`],
      },
    ]);
  });

  it('merges with PATCH /metrics', async () => {
    await createFlow('merge-a', 'gauge');
    await createFlow('merge-b', 'gauge');
    await service.call('PUT', '/flows/merge-a/metrics', { value: 1, max: 10 });
    await service.call('PUT', '/flows/merge-b/metrics', { value: 2, max: 20 });
    const response = await service.call('PATCH', '/metrics', {
      data: { 'merge-a': { value: 5 }, 'merge-b': { value: null }, unknown: { value: 1 } },
    });
    expect(response.json()).toEqual({
      updated: ['merge-a'],
      skipped: ['unknown'],
      errors: [expect.stringMatching(/^merge-b: body\.data\.merge-b\.value: ./)],
      error_details: [
        { tag: 'merge-b', details: [{ path: 'body.data.merge-b.value', message: expect.any(String) }] },
      ],
    });
    expect((await service.call('GET', '/flows/merge-a/metrics')).json()).toEqual({ value: 5, max: 10 });
    expect((await service.call('GET', '/flows/merge-b/metrics')).json()).toEqual({ value: 2, max: 20 });
  });

  it('refuses a body without a data object', async () => {
    for (const body of [{}, { data: [1] }, { data: {}, extra: 1 }, { cpu: { value: 1 } }]) {
      const response = await service.call('POST', '/metrics', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().error.details[0].path).toMatch(/^body/);
    }
    expect((await service.call('POST', '/metrics', { data: {} })).json()).toEqual({
      updated: [],
      skipped: [],
      errors: [],
      error_details: [],
    });
  });
});

describe('metrics permissions', () => {
  it('lets readonly tokens read metrics and refuses every write with 403', async () => {
    await createFlow('ro-metrics', 'value');
    expect((await service.call('GET', '/flows/ro-metrics/metrics', undefined, readonly)).statusCode).toBe(
      200,
    );
    expect((await service.call('GET', '/flows/ro-metrics/data', undefined, readonly)).statusCode).toBe(200);
    const writes: [string, string, unknown][] = [
      ['PUT', '/flows/ro-metrics/metrics', { value: 1 }],
      ['PATCH', '/flows/ro-metrics/metrics', { value: 1 }],
      ['PUT', '/flows/ro-metrics/data', { value: 1 }],
      ['PATCH', '/flows/ro-metrics/data', { value: 1 }],
      ['POST', '/metrics', { data: { 'ro-metrics': { value: 1 } } }],
      ['PATCH', '/metrics', { data: { 'ro-metrics': { value: 1 } } }],
      ['POST', '/flows/ro-metrics/error', { errored: true }],
    ];
    for (const [method, url, body] of writes) {
      const response = await service.call(method as 'PUT', url, body, readonly);
      expect(response.statusCode, `${method} ${url}`).toBe(403);
    }
    expect(await stored('ro-metrics')).toMatchObject({ data: {}, errored: false });
  });

  it('lets affiliated tokens write metrics and the errored flag', async () => {
    await createFlow('aff-metrics', 'value');
    const put = await service.call('PUT', '/flows/aff-metrics/metrics', { value: 1 }, affiliated);
    expect(put.statusCode).toBe(200);
    const patch = await service.call('PATCH', '/flows/aff-metrics/metrics', { label: 'x' }, affiliated);
    expect(patch.json()).toEqual({ value: 1, label: 'x' });
    const batch = await service.call(
      'POST',
      '/metrics',
      { data: { 'aff-metrics': { value: 2 } } },
      affiliated,
    );
    expect(batch.json().updated).toEqual(['aff-metrics']);
    const merge = await service.call(
      'PATCH',
      '/metrics',
      { data: { 'aff-metrics': { value: 3 } } },
      affiliated,
    );
    expect(merge.json().updated).toEqual(['aff-metrics']);
    const errored = await service.call('POST', '/flows/aff-metrics/error', undefined, affiliated);
    expect(errored.json().errored).toBe(true);
  });
});
