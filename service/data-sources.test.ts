import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataBinding, DataSource, DataSourceRun, DataSourceTestResult } from '../src/shared/data-source';
import { SOURCES_PER_ACCOUNT } from './actions/data-sources';
import { DATA_PASS_MS } from './jobs/data-sources';
import { eventsAfter, lastEventId, startTestService, type TestService } from './test-support';
import { FakeClock } from './testing/fake-clock';
import { okCalls } from './testing/ok-calls';

// Data sources end to end (docs/data-sources.md): the real service on its fake clock, its job
// refreshing bindings from a real HTTP server on loopback written here, and the flows' metrics
// read back through the API as screens get them.

const clock = new FakeClock('2026-11-27T09:00:00.000Z');
let service: TestService;
const ok = okCalls(() => service);
const SECRET = 'tok-3f9a-very-secret-value';

/** What the server answers on each path, and the headers of every request it got. */
const answers = new Map<string, { status: number; body: string }>();
const seen: { path: string; headers: IncomingHttpHeaders }[] = [];
const server = createServer((request, response) => {
  seen.push({ path: request.url ?? '/', headers: request.headers });
  const answer = answers.get(request.url ?? '/') ?? { status: 404, body: 'no such path' };
  response.writeHead(answer.status, { 'content-type': 'application/json' });
  response.end(answer.body);
});
let base = '';
const serve = (path: string, body: unknown, status = 200) =>
  answers.set(path, { status, body: typeof body === 'string' ? body : JSON.stringify(body) });

const metricsOf = (tag: string) => ok<Record<string, unknown>>('GET', `/flows/${tag}/metrics`);
const flowOf = (tag: string) => ok<{ errored: boolean }>('GET', `/flows/${tag}`);
const bindingOf = (id: string) => ok<DataBinding>('GET', `/data-bindings/${id}`);
/** One pass of the job; its refreshes run on beside it, so what they write is waited for. */
const pass = () => clock.advance(DATA_PASS_MS);

async function source(body: Record<string, unknown>): Promise<DataSource> {
  return ok<DataSource>(
    'POST',
    '/data-sources',
    { kind: 'json', allow_private: true, interval_seconds: 10, ...body },
    201,
  );
}

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  service = await startTestService({ clock });
});
afterAll(async () => {
  await service.close();
  await new Promise((resolve) => server.close(resolve));
});

describe('a JSON data source', () => {
  it('feeds a flow through its mapping, with its secret sent and never answered', async () => {
    serve('/tickets', { queue: { open: 42, oldest: '2h' } });
    const made = await source({ name: 'Helpdesk', url: `${base}/tickets`, auth: 'bearer', secret: SECRET });
    expect(made).toMatchObject({
      name: 'Helpdesk',
      kind: 'json',
      has_secret: true,
      bindings: 0,
      last_run_at: null,
    });
    await ok('POST', '/flows', { tag: 'open-tickets', variant: 'value' }, 201);
    const binding = await ok<DataBinding>(
      'POST',
      '/data-bindings',
      {
        source_id: made.id,
        flow: 'open-tickets',
        query: 'queue',
        mapping: { value: 'open', title: "'Open tickets'" },
      },
      201,
    );
    expect(binding).toMatchObject({ flow_tag: 'open-tickets', query: 'queue', last_run_at: null });

    await pass();
    await expect.poll(() => metricsOf('open-tickets')).toEqual({ value: 42, title: 'Open tickets' });
    expect(seen.at(-1)?.headers.authorization).toBe(`Bearer ${SECRET}`);
    await expect.poll(async () => (await bindingOf(binding.id)).last_ok_at).not.toBeNull();
    const runs = await ok<DataSourceRun[]>('GET', `/data-sources/${made.id}/runs`);
    expect(runs).toMatchObject([{ ok: true, updated: 1, failed: 0, error: null }]);

    // The secret is in no answer about the source.
    for (const path of [
      '/data-sources',
      `/data-sources/${made.id}`,
      `/data-sources/${made.id}/runs`,
      '/data-bindings',
    ]) {
      expect((await service.call('GET', path)).body).not.toContain(SECRET);
    }
    expect(await ok<DataSource>('GET', `/data-sources/${made.id}`)).toMatchObject({
      has_secret: true,
      bindings: 1,
    });

    // A refresh to the same data writes nothing: the screens hear nothing.
    const mark = await lastEventId(service.db);
    const requests = seen.length;
    await clock.advance(10_000);
    await expect.poll(() => seen.length).toBe(requests + 1);
    await expect
      .poll(async () => (await ok<DataSourceRun[]>('GET', `/data-sources/${made.id}/runs`)).length)
      .toBe(2);
    expect(await eventsAfter(service.db, mark, 'metrics.changed')).toEqual([]);

    // A new value at the next refresh, and not before its interval.
    serve('/tickets', { queue: { open: 7 } });
    await pass();
    expect(await metricsOf('open-tickets')).toMatchObject({ value: 42 });
    await clock.advance(10_000);
    await expect.poll(() => metricsOf('open-tickets')).toEqual({ value: 7, title: 'Open tickets' });
    expect(await eventsAfter(service.db, mark, 'metrics.changed')).toHaveLength(1);
  });

  it('marks its flow errored when the source fails, keeps the last data, and recovers', async () => {
    serve('/rooms', [{ name: 'Atlas', free: 3 }]);
    const made = await source({ name: 'Rooms', url: `${base}/rooms` });
    await ok('POST', '/flows', { tag: 'free-rooms', variant: 'value' }, 201);
    const binding = await ok<DataBinding>(
      'POST',
      '/data-bindings',
      { source_id: made.id, flow: 'free-rooms', mapping: { value: '[0].free' } },
      201,
    );
    await pass();
    await expect.poll(() => metricsOf('free-rooms')).toEqual({ value: 3 });

    // A pass writes the flows, then marks them, then records its run: the run is the last to see.
    const runs = () => ok<DataSourceRun[]>('GET', `/data-sources/${made.id}/runs`);
    serve('/rooms', 'upstream down', 503);
    await clock.advance(10_000);
    await expect.poll(async () => (await runs()).length).toBe(2);
    expect((await flowOf('free-rooms')).errored).toBe(true);
    expect(await metricsOf('free-rooms')).toEqual({ value: 3 });
    const failed = await bindingOf(binding.id);
    expect(failed.last_error).toMatch(/503/);
    const after = await ok<DataSource>('GET', `/data-sources/${made.id}`);
    expect(after.last_error).toMatch(/503/);
    expect((await runs())[0]).toMatchObject({ ok: false, failed: 1 });

    serve('/rooms', [{ name: 'Atlas', free: 1 }]);
    await clock.advance(10_000);
    await expect.poll(async () => (await runs()).length).toBe(3);
    expect(await metricsOf('free-rooms')).toEqual({ value: 1 });
    expect((await flowOf('free-rooms')).errored).toBe(false);
    expect((await bindingOf(binding.id)).last_error).toBeNull();
  });

  it('says when the mapped data does not fit the flow’s variant, and writes nothing', async () => {
    serve('/words', { text: 'not a number' });
    const made = await source({ name: 'Words', url: `${base}/words` });
    await ok('POST', '/flows', { tag: 'word-gauge', variant: 'gauge' }, 201);
    const binding = await ok<DataBinding>(
      'POST',
      '/data-bindings',
      { source_id: made.id, flow: 'word-gauge', mapping: { value: 'text' } },
      201,
    );
    await pass();
    await expect.poll(async () => (await bindingOf(binding.id)).last_error).toMatch(/variant "gauge".*value/);
    expect(await metricsOf('word-gauge')).toEqual({});
    expect((await flowOf('word-gauge')).errored).toBe(true);
  });

  it('is refused loopback and private addresses unless it allows them', async () => {
    serve('/private', { n: 1 });
    const made = await source({ name: 'Closed', url: `${base}/private`, allow_private: false });
    await ok('POST', '/flows', { tag: 'closed-value', variant: 'value' }, 201);
    const before = seen.length;
    const binding = await ok<DataBinding>(
      'POST',
      '/data-bindings',
      { source_id: made.id, flow: 'closed-value', mapping: { value: 'n' } },
      201,
    );
    await pass();
    await expect.poll(async () => (await bindingOf(binding.id)).last_error).toMatch(/loopback/);
    // Refused before connecting: the server heard nothing.
    expect(seen.length).toBe(before);

    await ok('PATCH', `/data-sources/${made.id}`, { allow_private: true });
    await pass();
    await expect.poll(() => metricsOf('closed-value')).toEqual({ value: 1 });
  });
});

describe('the refreshing job', () => {
  it('refreshes every source due in one pass, however many, more than run at once', async () => {
    const count = 40;
    for (let n = 0; n < count; n++) {
      serve(`/many/${n}`, { n });
      const made = await source({ name: `Many ${n}`, url: `${base}/many/${n}`, interval_seconds: 3600 });
      await ok('POST', '/flows', { tag: `many-${n}`, variant: 'value' }, 201);
      await ok(
        'POST',
        '/data-bindings',
        { source_id: made.id, flow: `many-${n}`, mapping: { value: 'n' } },
        201,
      );
    }
    const asked = () =>
      new Set(seen.filter((request) => request.path.startsWith('/many/')).map((r) => r.path)).size;
    await pass();
    await expect.poll(asked, { timeout: 10_000 }).toBe(count);
    await expect.poll(() => metricsOf(`many-${count - 1}`)).toEqual({ value: count - 1 });
  });
});

describe('the data sources API', () => {
  it('tests a query and a mapping without writing anything', async () => {
    serve('/sales', {
      rows: [
        { region: 'North', total: 120 },
        { region: 'South', total: 80 },
      ],
    });
    const made = await source({ name: 'Sales', url: `${base}/sales` });
    await ok('POST', '/flows', { tag: 'sales-total', variant: 'value' }, 201);
    const tested = await ok<DataSourceTestResult>('POST', `/data-sources/${made.id}/test`, {
      query: 'rows',
      mapping: { value: 'sum([].total)' },
      flow: 'sales-total',
    });
    expect(tested).toMatchObject({
      ok: true,
      result: [
        { region: 'North', total: 120 },
        { region: 'South', total: 80 },
      ],
      metrics: { value: 200 },
    });
    await ok('POST', '/flows', { tag: 'sales-gauge', variant: 'gauge' }, 201);
    const unfit = await ok<DataSourceTestResult>('POST', `/data-sources/${made.id}/test`, {
      query: 'rows',
      mapping: { value: '[0].region' },
      flow: 'sales-gauge',
    });
    expect(unfit).toMatchObject({ ok: false, metrics: { value: 'North' } });
    expect(unfit.error).toMatch(/does not fit a gauge widget.*value/);
    expect(await metricsOf('sales-total')).toEqual({});
    expect(await metricsOf('sales-gauge')).toEqual({});
    expect(await ok<DataSourceRun[]>('GET', `/data-sources/${made.id}/runs`)).toEqual([]);
  });

  it('refuses what it could not use, naming the field', async () => {
    const refused = async (method: 'POST' | 'PATCH', url: string, body: unknown, status = 400) => {
      const response = await service.call(method, url, body);
      expect(response.statusCode, response.body).toBe(status);
      return (response.json() as { error: { message: string; details?: { path: string }[] } }).error;
    };
    expect(
      (await refused('POST', '/data-sources', { name: 'x', kind: 'json', url: 'ftp://example.com/a' }))
        .message,
    ).toMatch(/url.*http/);
    expect(
      (
        await refused('POST', '/data-sources', {
          name: 'x',
          kind: 'json',
          url: 'https://ann:pw@example.com/a',
        })
      ).message,
    ).toMatch(/password/);
    expect(
      (await refused('POST', '/data-sources', { name: 'x', kind: 'ldap', url: 'https://example.com' }))
        .message,
    ).toMatch(/kind/);
    const made = await source({ name: 'Checked', url: `${base}/checked` });
    await ok('POST', '/flows', { tag: 'checked', variant: 'value' }, 201);
    const bad = await refused('POST', '/data-bindings', {
      source_id: made.id,
      flow: 'checked',
      query: 'rows[',
      mapping: { value: 'n' },
    });
    expect(bad.details?.[0]?.path).toBe('query');
    const badMapping = await refused('POST', '/data-bindings', {
      source_id: made.id,
      flow: 'checked',
      mapping: { value: 'n[' },
    });
    expect(badMapping.details?.[0]?.path).toBe('mapping.value');
    expect(
      (
        await refused('POST', '/data-bindings', {
          source_id: made.id,
          flow: 'no-such-flow',
          mapping: { value: 'n' },
        })
      ).details?.[0]?.path,
    ).toBe('flow');
    await ok('POST', '/data-bindings', { source_id: made.id, flow: 'checked', mapping: { value: 'n' } }, 201);
    await refused(
      'POST',
      '/data-bindings',
      { source_id: made.id, flow: 'checked', mapping: { value: 'n' } },
      409,
    );
  });

  it('takes its bindings with it when deleted, and a binding goes with its flow', async () => {
    const made = await source({ name: 'Short-lived', url: `${base}/gone` });
    await ok('POST', '/flows', { tag: 'gone-1', variant: 'value' }, 201);
    await ok('POST', '/flows', { tag: 'gone-2', variant: 'value' }, 201);
    const one = await ok<DataBinding>(
      'POST',
      '/data-bindings',
      { source_id: made.id, flow: 'gone-1', mapping: { value: 'n' } },
      201,
    );
    await ok('POST', '/data-bindings', { source_id: made.id, flow: 'gone-2', mapping: { value: 'n' } }, 201);
    await ok('DELETE', '/flows/gone-2', undefined, 204);
    expect((await ok<DataBinding[]>('GET', `/data-bindings?source_id=${made.id}`)).map((b) => b.id)).toEqual([
      one.id,
    ]);
    await ok('DELETE', `/data-sources/${made.id}`, undefined, 204);
    expect((await service.call('GET', `/data-bindings/${one.id}`)).statusCode).toBe(404);
  });

  it('is read by viewers and full tokens, changed only with write, and never by tokens that live on screens', async () => {
    const readonly = await service.tokenOf('readonly');
    const affiliated = await service.tokenOf('affiliated');
    for (const token of [readonly, affiliated]) {
      expect((await service.call('GET', '/data-sources', undefined, token)).statusCode).toBe(403);
      expect((await service.call('GET', '/data-bindings', undefined, token)).statusCode).toBe(403);
      expect(
        (
          await service.call(
            'POST',
            '/data-sources',
            { name: 'x', kind: 'json', url: 'https://example.com' },
            token,
          )
        ).statusCode,
      ).toBe(403);
    }
  });
});

describe('an account’s data sources', () => {
  it('are at most SOURCES_PER_ACCOUNT: one more is refused and not stored', async () => {
    const other = await service.addAccount('Many sources');
    const body = (n: number) => ({
      name: `Source ${n}`,
      kind: 'json',
      url: `https://data.example/${n}.json`,
    });
    for (let n = 0; n < SOURCES_PER_ACCOUNT; n++) {
      expect((await other.call('POST', '/data-sources', body(n))).statusCode).toBe(201);
    }
    const refused = await other.call('POST', '/data-sources', body(SOURCES_PER_ACCOUNT));
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.json()).toMatchObject({ error: { code: 'quota_exceeded' } });
    expect((await other.call('GET', '/data-sources')).json()).toHaveLength(SOURCES_PER_ACCOUNT);
  });
});

describe('a service that lets no data source reach its network', () => {
  it('refuses a source switched to reach private addresses', async () => {
    const closed = await startTestService({ clock, config: { privateDataSources: false } });
    try {
      const response = await closed.call('POST', '/data-sources', {
        name: 'LAN',
        kind: 'json',
        url: 'http://10.0.0.5/data.json',
        allow_private: true,
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toMatchObject({ error: { details: [{ path: 'allow_private' }] } });
    } finally {
      await closed.close();
    }
  });
});
