import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Flow } from '../src/shared/flow';
import type { Script, ScriptRun } from '../src/shared/script';
import { parseHttpAllow } from './scripts/destinations';
import {
  eventsAfter as loggedAfter,
  lastEventId as lastLoggedId,
  startTestService,
  type TestService,
} from './test-support';
import { scriptCalls } from './testing/script-calls';

let service: TestService;
let readonly: string;
let affiliated: string;
beforeAll(async () => {
  service = await startTestService();
  readonly = await service.tokenOf('readonly');
  affiliated = await service.tokenOf('affiliated');
});
afterAll(() => service.close());

async function createFlow(tag: string, variant: string, extra: Record<string, unknown> = {}): Promise<Flow> {
  const response = await service.call('POST', '/flows', { tag, variant, ...extra });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

const { createScript, runNow } = scriptCalls(() => service);

async function flow(id: string): Promise<Flow> {
  return (await service.call('GET', `/flows/${id}`)).json();
}

const lastEventId = () => lastLoggedId(service.db);
const eventsAfter = (mark: number) => loggedAfter(service.db, mark);

describe('the script resource', () => {
  it('is created, listed, read, changed and deleted', async () => {
    const created = await createScript({ name: 'Hello', code: 'return 1', interval: '1h30m' });
    expect(created).toMatchObject({
      name: 'Hello',
      code: 'return 1',
      interval: '1h30m',
      interval_seconds: 5400,
      timeout_seconds: 10,
      enabled: false,
      flow_id: null,
    });
    expect(created.id).toMatch(/^sc_/);
    expect((await service.call('GET', '/scripts')).json()).toContainEqual(created);
    expect((await service.call('GET', `/scripts/${created.id}`)).json()).toEqual(created);

    const patched = await service.call('PATCH', `/scripts/${created.id}`, {
      name: 'Hi',
      timeout_seconds: 60,
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({ name: 'Hi', timeout_seconds: 60, code: 'return 1' });
    expect((await service.call('PATCH', `/scripts/${created.id}`, {})).json()).toMatchObject({ name: 'Hi' });

    expect((await service.call('DELETE', `/scripts/${created.id}`)).statusCode).toBe(204);
    for (const [method, url] of [
      ['GET', `/scripts/${created.id}`],
      ['PATCH', `/scripts/${created.id}`],
      ['DELETE', `/scripts/${created.id}`],
      ['POST', `/scripts/${created.id}/run`],
      ['GET', `/scripts/${created.id}/runs`],
    ] as const) {
      const response = await service.call(method, url, method === 'PATCH' ? { name: 'x' } : undefined);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.json().error.code).toBe('not_found');
    }
  });

  it('refuses bad bodies with 400 naming the field', async () => {
    const base = { name: 'x', code: 'return 1', interval: '1m' };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...base, interval: '5x' }, 'body.interval'],
      [{ ...base, interval: '0s' }, 'body.interval'],
      [{ ...base, interval: '500ms' }, 'body.interval'],
      [{ ...base, interval: '8d' }, 'body.interval'],
      [{ ...base, timeout_seconds: 61 }, 'body.timeout_seconds'],
      [{ ...base, timeout_seconds: 0 }, 'body.timeout_seconds'],
      [{ ...base, name: '' }, 'body.name'],
      [{ ...base, code: 'return (' }, 'body.code'],
      [{ ...base, code: 'x'.repeat(100_001) }, 'body.code'],
      [{ ...base, flow_id: 'fl_nothing' }, 'body.flow_id'],
      [{ ...base, flow_tag: 'no-such-flow' }, 'body.flow_tag'],
      [{ ...base, flow_tag: 'bad tag' }, 'body.flow_tag'],
      [{ ...base, flow_id: 'fl_a', flow_tag: 'a' }, 'body.flow_tag'],
      [{ ...base, surprise: true }, 'body.surprise'],
      [{ name: 'x', code: 'return 1' }, 'body.interval'],
    ];
    for (const [body, path] of cases) {
      const response = await service.call('POST', '/scripts', body);
      expect(response.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(response.json().error.details.map((d: { path: string }) => d.path)).toContain(path);
    }
    const script = await createScript(base);
    const patch = await service.call('PATCH', `/scripts/${script.id}`, {
      code: 'const a = 1;\nconst a = 2;',
    });
    expect(patch.statusCode).toBe(400);
    expect(patch.json().error.details).toEqual([
      { path: 'body.code', message: expect.stringMatching(/line 2/) },
    ]);
    expect((await service.call('PATCH', `/scripts/${script.id}`, { interval: 'often' })).statusCode).toBe(
      400,
    );
  });

  it('lets only full tokens write, and read code and logs', async () => {
    const script = await createScript({ name: 'scoped', code: 'return 1' });
    for (const token of [readonly, affiliated]) {
      for (const [method, url, body] of [
        ['POST', '/scripts', { name: 'x', code: 'return 1', interval: '1m' }],
        ['PATCH', `/scripts/${script.id}`, { name: 'y' }],
        ['DELETE', `/scripts/${script.id}`, undefined],
        ['POST', `/scripts/${script.id}/run`, undefined],
      ] as const) {
        const response = await service.call(method, url, body, token);
        expect(response.statusCode, `${method} ${url}`).toBe(403);
        expect(response.json().error.code).toBe('forbidden');
      }
      // Code holds secrets, and readonly and affiliated tokens live on kiosks.
      for (const url of ['/scripts', `/scripts/${script.id}`, `/scripts/${script.id}/runs`]) {
        const response = await service.call('GET', url, undefined, token);
        expect(response.statusCode, `GET ${url}`).toBe(403);
        expect(response.json().error.code).toBe('forbidden');
      }
    }
    expect((await service.call('GET', '/scripts', undefined, null)).statusCode).toBe(401);
  });
});

describe('a script and its flow', () => {
  it('becomes the flow’s source (ready and enabled), and lets go of it', async () => {
    const target = await createFlow('linked', 'value', { source: 'sc_placeholder' });
    expect(target).toMatchObject({ enabled: false, parameters: null });
    const mark = await lastEventId();
    const script = await createScript({ name: 'feeder', code: 'return { value: 1 }', flow_tag: 'linked' });
    expect(script.flow_id).toBe(target.id);
    expect(await flow(target.id)).toMatchObject({ source: script.id, parameters: {}, enabled: true });
    expect(await eventsAfter(mark)).toEqual([
      { type: 'flow.changed', payload: { flow_id: target.id }, rooms: [`flow:${target.id}`] },
    ]);

    const other = await createFlow('linked-2', 'value');
    const taken = await service.call('POST', '/scripts', {
      name: 'rival',
      code: 'return 1',
      interval: '1m',
      flow_id: target.id,
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error.code).toBe('conflict');

    const moved = await service.call('PATCH', `/scripts/${script.id}`, { flow_id: other.id });
    expect(moved.json().flow_id).toBe(other.id);
    expect(await flow(target.id)).toMatchObject({ source: null, enabled: true });
    expect(await flow(other.id)).toMatchObject({ source: script.id, parameters: {} });

    expect(
      (await service.call('PATCH', `/scripts/${script.id}`, { flow_id: null })).json().flow_id,
    ).toBeNull();
    expect((await flow(other.id)).source).toBeNull();

    await service.call('PATCH', `/scripts/${script.id}`, { flow_tag: 'linked-2' });
    expect((await flow(other.id)).source).toBe(script.id);
    expect((await service.call('DELETE', `/scripts/${script.id}`)).statusCode).toBe(204);
    expect((await flow(other.id)).source).toBeNull();
  });

  it('writes what the script returns as the flow’s metrics and publishes metrics.changed', async () => {
    const target = await createFlow('fed', 'gauge');
    const script = await createScript({
      name: 'gauge feeder',
      code: 'console.log("measuring"); return { value: 42, max: 100, title: "Load" }',
      flow_id: target.id,
    });
    const mark = await lastEventId();
    const run = await runNow(script.id);
    expect(run).toMatchObject({
      script_id: script.id,
      outcome: 'ok',
      trigger: 'manual',
      logs: ['measuring'],
      error: null,
    });
    expect(run.duration_ms).toBeGreaterThanOrEqual(0);
    const data = { value: 42, max: 100, title: 'Load' };
    expect((await service.call('GET', '/flows/fed/metrics')).json()).toEqual(data);
    expect(await eventsAfter(mark)).toEqual([
      {
        type: 'metrics.changed',
        payload: { flow_id: target.id, flow_tag: 'fed', data },
        rooms: [`flow:${target.id}`],
      },
    ]);
    expect((await service.call('GET', `/scripts/${script.id}/runs`)).json()).toEqual([run]);
  });

  it('hands the script the flow’s metrics as `previous`', async () => {
    const target = await createFlow('counter', 'value');
    const script = await createScript({
      name: 'counter',
      code: 'return { value: (previous.value ?? 0) + 1 }',
      flow_id: target.id,
    });
    await runNow(script.id);
    await runNow(script.id);
    expect((await service.call('GET', '/flows/counter/metrics')).json()).toEqual({ value: 2 });
  });

  it('marks the flow errored when the script throws, and clears it on the next good run', async () => {
    const target = await createFlow('flaky', 'value');
    const script = await createScript({ name: 'flaky', code: 'return { value: 1 }', flow_id: target.id });
    await runNow(script.id);
    await service.call('PATCH', `/scripts/${script.id}`, { code: '\nthrow new Error("source down")' });

    let mark = await lastEventId();
    const failed = await runNow(script.id);
    expect(failed).toMatchObject({ outcome: 'error', error: 'Error: source down (line 2)' });
    expect((await flow(target.id)).errored).toBe(true);
    expect((await service.call('GET', '/flows/flaky/metrics')).json()).toEqual({ value: 1 });
    expect(await eventsAfter(mark)).toEqual([
      { type: 'flow.changed', payload: { flow_id: target.id }, rooms: [`flow:${target.id}`] },
    ]);
    // Failing again changes nothing a screen shows.
    mark = await lastEventId();
    await runNow(script.id);
    expect(await eventsAfter(mark)).toEqual([]);

    await service.call('PATCH', `/scripts/${script.id}`, { code: 'return { value: 2 }' });
    mark = await lastEventId();
    expect((await runNow(script.id)).outcome).toBe('ok');
    expect((await flow(target.id)).errored).toBe(false);
    expect((await eventsAfter(mark)).map((event) => event.type)).toEqual(['metrics.changed', 'flow.changed']);
  });

  it('marks the flow errored when the result does not fit its variant', async () => {
    const target = await createFlow('strict', 'gauge');
    const script = await createScript({ name: 'strict', code: 'return { value: 5 }', flow_id: target.id });
    await runNow(script.id);
    const results: [string, RegExp][] = [
      ['return { value: "high" }', /does not fit a flow of variant "gauge": value: /],
      ['return [1, 2]', /must return an object/],
      ['return 7', /must return an object/],
      ['const nothing = 1;', /returned nothing/],
      ['return { value: 1, max: "x" }', /max: /],
      ['return () => 1', /cannot be turned into JSON/],
    ];
    for (const [code, error] of results) {
      await service.call('PATCH', `/scripts/${script.id}`, { code });
      const run = await runNow(script.id);
      expect(run.outcome, code).toBe('invalid');
      expect(run.error, code).toMatch(error);
      expect((await flow(target.id)).errored).toBe(true);
    }
    expect((await service.call('GET', '/flows/strict/metrics')).json()).toEqual({ value: 5 });
    await service.call('PATCH', `/scripts/${script.id}`, { code: 'return { value: 6 }' });
    expect((await runNow(script.id)).outcome).toBe('ok');
    expect((await flow(target.id)).errored).toBe(false);
  });
});

describe('limits and isolation', () => {
  it('stops a script that loops forever while the API and other scripts go on', async () => {
    const target = await createFlow('stuck', 'value');
    const looping = await createScript({
      name: 'loop',
      code: 'while (true) {}',
      timeout_seconds: 3,
      flow_id: target.id,
    });
    const quick = await createScript({ name: 'quick', code: 'return 1' });
    const usedSeconds = async (): Promise<number> =>
      (await service.call('GET', '/scripts/usage')).json().script_time.used_seconds;
    const before = await usedSeconds();
    let loopDone = false;
    const stuck = runNow(looping.id).then((run) => {
      loopDone = true;
      return run;
    });
    // The loop holds its slot: its time counts toward the account's (in tenths of a second).
    await expect.poll(usedSeconds, { timeout: 15_000 }).toBeGreaterThan(before);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => service.call('GET', '/health', undefined, null)),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(20).fill(200));
    expect((await runNow(quick.id)).outcome).toBe('ok');
    expect(loopDone).toBe(false);
    const run = await stuck;
    expect(run).toMatchObject({ outcome: 'timeout', error: 'stopped after 3 s' });
    expect(run.duration_ms).toBeGreaterThanOrEqual(2900);
    expect((await flow(target.id)).errored).toBe(true);
  });

  it('refuses the process, files, environment and network to a script; the service goes on', async () => {
    process.env.WALLBOARD_SCRIPT_SECRET = 'do-not-leak';
    const attempts = [
      'process.exit(1)',
      "return require('fs').readdirSync('/')",
      'return globalThis.process.env.WALLBOARD_SCRIPT_SECRET',
      "return this.constructor.constructor('return process')().env.WALLBOARD_SCRIPT_SECRET",
      "return fetch('http://127.0.0.1/')",
      "const m = await import('node:fs'); return m.readdirSync('/')",
    ];
    for (const code of attempts) {
      const script = await createScript({ name: 'escape', code });
      const run = await runNow(script.id);
      expect(run.outcome, code).toBe('error');
      expect(JSON.stringify(run)).not.toContain('do-not-leak');
    }
    expect((await service.call('GET', '/health', undefined, null)).statusCode).toBe(200);
    delete process.env.WALLBOARD_SCRIPT_SECRET;
  });

  it('lets wallboard/http reach loopback only when the service is set to (--scripts-http-allow)', async () => {
    const server = createServer((_request, response) => response.end('{"value":7}'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    const code = `console.log((await require('wallboard/http').getJson('${url}')).value)`;
    const allowing = await startTestService({ config: { scriptsHttpAllow: parseHttpAllow('loopback') } });
    try {
      expect(await runNow((await createScript({ name: 'inner', code })).id)).toMatchObject({
        outcome: 'error',
        error: expect.stringContaining(`http.getJson: ${url} is refused: 127.0.0.1 is a loopback address`),
      });
      const body = { name: 'inner', code, interval: '1h', enabled: false };
      const created = (await allowing.call('POST', '/scripts', body)).json() as Script;
      const run = (await allowing.call('POST', `/scripts/${created.id}/run`)).json() as ScriptRun;
      expect(run).toMatchObject({ outcome: 'ok', logs: ['7'] });
    } finally {
      await allowing.close();
      server.close();
    }
  });

  it('keeps the newest 50 runs, newest first', async () => {
    const script = await createScript({ name: 'busy', code: 'console.log(String(Date.now()))' });
    const runs: ScriptRun[] = [];
    for (let i = 0; i < 53; i++) runs.push(await runNow(script.id));
    const kept = (await service.call('GET', `/scripts/${script.id}/runs`)).json() as ScriptRun[];
    expect(kept).toHaveLength(50);
    expect(kept.map((run) => run.id)).toEqual(
      runs
        .slice(3)
        .reverse()
        .map((run) => run.id),
    );
    const stored = await service.db.kysely
      .selectFrom('script_runs')
      .select('id')
      .where('script_id', '=', script.id)
      .execute();
    expect(stored).toHaveLength(50);
  });
});
