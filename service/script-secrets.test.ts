import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ScriptRun } from '../src/shared/script';
import type { ScriptSecret } from '../src/shared/script-secret';
import { parseHttpAllow } from './scripts/destinations';
import { startTestService, type TestService } from './test-support';
import { scriptCalls } from './testing/script-calls';

// The value has characters that JSON, URLs and base64 each write differently; its middle is
// what the search looks for in every form, so that a part of it is found too.
const VALUE = 'tok-7f3c9e1d/+"&=';
const CORE = '7f3c9e1d';
const FORMS = [
  CORE,
  Buffer.from(VALUE).toString('base64').replace(/=+$/, ''),
  Buffer.from(VALUE).toString('base64url'),
];

/** Where in `text` a form of the value is, or null. */
function leak(text: string): string | null {
  const form = FORMS.find((candidate) => text.includes(candidate));
  return form === undefined ? null : form;
}

const serviceLog: string[] = [];
const logStream = new Writable({
  write(chunk: Buffer, _encoding, done) {
    serviceLog.push(chunk.toString('utf8'));
    done();
  },
});

let service: TestService;
let apiUrl: string;
const seenAuthorizations: string[] = [];
const api = createServer((request, response) => {
  seenAuthorizations.push(request.headers.authorization ?? '');
  const ok = request.headers.authorization === `Bearer ${VALUE}`;
  response.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' });
  response.end(ok ? '{"open":3}' : '{"error":"unauthorized"}');
});

beforeAll(async () => {
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}/tickets`;
  service = await startTestService({
    config: { scriptsHttpAllow: parseHttpAllow('loopback') },
    logger: { level: 'trace', stream: logStream },
  });
});
afterAll(async () => {
  await service.close();
  api.close();
});

const { createScript, runNow } = scriptCalls(() => service);

const put = (id: string, name: string, body: unknown) =>
  service.call('PUT', `/scripts/${id}/secrets/${name}`, body);

describe("a script's secrets", () => {
  it('are set, replaced, listed by name only and deleted', async () => {
    const script = await createScript({ name: 'keeper', code: 'return 1' });
    const created = await put(script.id, 'API_KEY', { value: 'first' });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toEqual({
      name: 'API_KEY',
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(created.body).not.toContain('first');
    const replaced = await put(script.id, 'API_KEY', { value: 'second' });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect((await put(script.id, 'OTHER_2', { value: 'x' })).statusCode).toBe(201);
    const listed = await service.call('GET', `/scripts/${script.id}/secrets`);
    expect(listed.statusCode).toBe(200);
    expect((listed.json() as ScriptSecret[]).map((secret) => secret.name)).toEqual(['API_KEY', 'OTHER_2']);
    expect(listed.body).not.toMatch(/first|second/);

    expect((await service.call('DELETE', `/scripts/${script.id}/secrets/OTHER_2`)).statusCode).toBe(204);
    expect((await service.call('DELETE', `/scripts/${script.id}/secrets/OTHER_2`)).statusCode).toBe(404);
    expect((await service.call('GET', `/scripts/${script.id}/secrets`)).json()).toHaveLength(1);

    // The script's deletion takes its secrets.
    expect((await service.call('DELETE', `/scripts/${script.id}`)).statusCode).toBe(204);
    const left = await service.db.kysely
      .selectFrom('script_secrets')
      .select('id')
      .where('script_id', '=', script.id)
      .execute();
    expect(left).toEqual([]);
    for (const [method, body] of [['GET'], ['PUT', { value: 'v' }], ['DELETE']] as const) {
      const url =
        method === 'GET' ? `/scripts/${script.id}/secrets` : `/scripts/${script.id}/secrets/API_KEY`;
      expect((await service.call(method, url, body)).statusCode, `${method} ${url}`).toBe(404);
    }
  });

  it('refuses a bad name, an empty or long value and a 51st secret, naming the path and storing nothing', async () => {
    const script = await createScript({ name: 'limits', code: 'return 1' });
    const refusal = async (name: string, body: unknown) => {
      const response = await put(script.id, name, body);
      const { error } = response.json() as { error: { details?: { path: string }[] } };
      return { status: response.statusCode, paths: error.details };
    };
    for (const name of ['api_key', '1KEY', '_KEY', 'KEY-1', `K${'A'.repeat(64)}`]) {
      expect(await refusal(name, { value: 'v' }), name).toMatchObject({
        status: 400,
        paths: [{ path: 'params.name' }],
      });
    }
    for (const body of [
      { value: '' },
      { value: 'x'.repeat(4097) },
      { value: 5 },
      { value: 'v', other: 1 },
      {},
    ]) {
      expect((await refusal('KEY', body)).status, JSON.stringify(body).slice(0, 40)).toBe(400);
    }
    expect(await refusal('KEY', { value: 'x'.repeat(4097) })).toMatchObject({
      paths: [{ path: 'body.value' }],
    });
    expect((await put(script.id, 'KEY', { value: 'x'.repeat(4096) })).statusCode).toBe(201);
    for (let i = 1; i < 50; i++)
      expect((await put(script.id, `KEY_${i}`, { value: 'v' })).statusCode).toBe(201);
    expect(await refusal('ONE_TOO_MANY', { value: 'v' })).toMatchObject({
      status: 409,
      paths: [{ path: 'params.name' }],
    });
    // Replacing one of the 50 is still allowed.
    expect((await put(script.id, 'KEY_1', { value: 'w' })).statusCode).toBe(200);
    expect((await service.call('GET', `/scripts/${script.id}/secrets`)).json()).toHaveLength(50);
  });

  it('are, as scripts are, refused to a readonly token', async () => {
    const script = await createScript({ name: 'scoped', code: 'return 1' });
    const readonly = await service.tokenOf('readonly');
    expect((await service.call('GET', `/scripts/${script.id}/secrets`, undefined, readonly)).statusCode).toBe(
      403,
    );
    expect(
      (await service.call('PUT', `/scripts/${script.id}/secrets/KEY`, { value: 'v' }, readonly)).statusCode,
    ).toBe(403);
    expect(
      (await service.call('DELETE', `/scripts/${script.id}/secrets/KEY`, undefined, readonly)).statusCode,
    ).toBe(403);
  });
});

describe('a secret at run time', () => {
  const ids = { flow: '', channel: '' };

  beforeAll(async () => {
    const flow = await service.call('POST', '/flows', { tag: 'open-tickets', variant: 'value' });
    expect(flow.statusCode, flow.body).toBe(201);
    const channel = await service.call('POST', '/channels', {
      name: 'Helpdesk',
      parent_channel_id: 'ch_default',
    });
    expect(channel.statusCode, channel.body).toBe(201);
    ids.flow = (flow.json() as { id: string }).id;
    ids.channel = (channel.json() as { id: string }).id;
  });

  it('is used by the run, and its value is found in no answer, log, error, notification or table', async () => {
    // A script that does everything careless with its key: logs it in every way, sends it in a
    // refused URL, posts it in a notification and returns it in its metrics.
    const feeder = await createScript({
      name: 'tickets',
      flow_tag: 'open-tickets',
      code: `
        const http = require('wallboard/http');
        const { post } = require('wallboard/notifications');
        const data = await http.getJson(${JSON.stringify(apiUrl)}, {
          headers: { authorization: 'Bearer ' + secrets.KEY },
        });
        console.log('the key is', secrets.KEY, 'and', encodeURIComponent(secrets.KEY));
        console.log({ key: secrets.KEY }, secrets);
        console.warn('x'.repeat(985) + secrets.KEY);
        try {
          await http.get('http://10.9.9.9/?key=' + encodeURIComponent(secrets.KEY));
        } catch (error) {
          console.error(error);
        }
        try {
          await http.getJson(${JSON.stringify(apiUrl)} + '?key=' + secrets.KEY);
        } catch (error) {
          console.error(error.message);
        }
        await post(${JSON.stringify(ids.channel)}, '', 'Key ' + secrets.KEY, 'the key: ' + secrets.KEY, 10);
        return { value: data.open, label: 'open with ' + secrets.KEY };
      `,
    });
    const thrower = await createScript({
      name: 'careless',
      code: `await require('wallboard/http').get('http://10.9.9.9/' + secrets.KEY);`,
    });
    const raiser = await createScript({ name: 'raiser', code: `throw new Error('bad key ' + secrets.KEY);` });
    for (const script of [feeder, thrower, raiser]) {
      expect((await put(script.id, 'KEY', { value: VALUE })).statusCode).toBe(201);
    }

    const fed = await runNow(feeder.id);
    expect(fed.outcome, JSON.stringify(fed)).toBe('ok');
    // The loopback API saw the key itself, so the script had it.
    expect(seenAuthorizations).toContain(`Bearer ${VALUE}`);
    expect(fed.logs[0]).toBe('the key is *** and ***');
    expect(fed.logs[1]).toBe('{"key":"***"} {"KEY":"***"}');
    // Cut at 1000 characters by the host, after the value's first 8: those are masked too.
    expect(fed.logs[2]).toBe(`[warn] ${'x'.repeat(985)}***`);
    expect(fed.logs[3]).toContain('10.9.9.9/?key=*** is refused');
    expect(fed.logs[4]).toContain('?key=*** answered 401');
    const thrown = await runNow(thrower.id);
    expect(thrown).toMatchObject({ outcome: 'error', error: expect.stringContaining('http://10.9.9.9/***') });
    const raised = await runNow(raiser.id);
    expect(raised).toMatchObject({ outcome: 'error', error: 'Error: bad key *** (line 1)' });
    const metrics = (await service.call('GET', '/flows/open-tickets/metrics')).json() as Record<
      string,
      unknown
    >;
    expect(metrics).toMatchObject({ value: 3, label: 'open with ***' });
    const notifications = await service.call('GET', '/notifications');
    expect(notifications.body).toContain('the key: ***');

    const found: string[] = [];
    const search = (where: string, text: string) => {
      const form = leak(text);
      if (form !== null) found.push(`${where} holds ${form}`);
    };
    for (const [name, run] of [
      ['feeder', fed],
      ['thrower', thrown],
      ['raiser', raised],
    ] as const) {
      search(`the answer of ${name}'s run`, JSON.stringify(run));
    }

    // Every GET of the API: the lists, and each route of an id or a tag with every id and tag made here.
    const doc = (await service.call('GET', '/openapi.json')).json() as {
      paths: Record<string, Record<string, unknown>>;
    };
    const fillings = [feeder.id, thrower.id, raiser.id, ids.flow, 'open-tickets', ids.channel];
    let answered = 0;
    for (const [path, operations] of Object.entries(doc.paths)) {
      if (!('get' in operations)) continue;
      const params = path.match(/\{[^}]+\}/g) ?? [];
      if (params.some((param) => param !== '{id}' && param !== '{tag}')) continue;
      const urls =
        params.length === 0 ? [path] : fillings.map((filling) => path.replace(/\{(id|tag)\}/g, filling));
      for (const url of urls) {
        const response = await service.call('GET', url);
        if (response.statusCode === 200) answered += 1;
        search(`GET ${url}`, response.body);
      }
    }
    // The walk reached the script's own routes, the audit trail's and the notifications' at least.
    expect(answered).toBeGreaterThan(30);
    // The audit trail, when the service keeps one, has the secrets' writes among what was searched.
    const audit = await service.call('GET', '/audit');
    if (audit.statusCode !== 404) expect(audit.body).toContain('script_secrets');

    // Every row of every table, as a backup (a copy of the SQLite file, or pg_dump) would hold
    // them: only the secret's own row has the value.
    for (const table of await tables()) {
      const rows = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(
        service.db.kysely,
      );
      for (const row of rows.rows) {
        const shown = table === 'script_secrets' ? { ...row, value: undefined } : row;
        search(`table ${table}`, JSON.stringify(shown));
      }
    }
    search("the service's log", serviceLog.join(''));
    expect(serviceLog.length).toBeGreaterThan(0);
    expect(found).toEqual([]);
  });

  it('is read when each run starts: a replaced value counts from the next run, a deleted one is gone', async () => {
    const script = await createScript({
      name: 'reader',
      code: 'console.log(String(secrets.NAME?.length), Object.isFrozen(secrets)); secrets.NAME = "x"; console.log(String(secrets.NAME))',
    });
    const logs = async () => (await runNow(script.id)).logs;
    expect(await logs()).toEqual(['undefined true', 'undefined']);
    expect((await put(script.id, 'NAME', { value: 'abc' })).statusCode).toBe(201);
    expect(await logs()).toEqual(['3 true', '***']);
    expect((await put(script.id, 'NAME', { value: 'abcdef' })).statusCode).toBe(200);
    expect(await logs()).toEqual(['6 true', '***']);
    expect((await service.call('DELETE', `/scripts/${script.id}/secrets/NAME`)).statusCode).toBe(204);
    expect(await logs()).toEqual(['undefined true', 'undefined']);
  });

  it('is given to scheduled runs as to manual ones', async () => {
    const script = await createScript({
      name: 'scheduled',
      code: 'console.log(String(secrets.NAME.length), secrets.NAME)',
    });
    expect((await put(script.id, 'NAME', { value: 'scheduled-value' })).statusCode).toBe(201);
    // Enabling it runs it at once, as the scheduler does.
    expect((await service.call('PATCH', `/scripts/${script.id}`, { enabled: true })).statusCode).toBe(200);
    await vi.waitFor(
      async () => {
        const runs = (await service.call('GET', `/scripts/${script.id}/runs`)).json() as ScriptRun[];
        expect(runs[0]).toMatchObject({ trigger: 'schedule', outcome: 'ok', logs: ['15 ***'] });
      },
      { timeout: 10_000, interval: 100 },
    );
    await service.call('PATCH', `/scripts/${script.id}`, { enabled: false });
  });
});

/** The store's tables, on either store. */
async function tables(): Promise<string[]> {
  const query =
    service.db.kind === 'postgres'
      ? sql<{
          name: string;
        }>`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`
      : sql<{
          name: string;
        }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`;
  return (await query.execute(service.db.kysely)).rows.map((row) => row.name);
}
