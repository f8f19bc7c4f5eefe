// Each account's caps on scripts: its script time per hour (counted, refused, given back as the
// hour passes) and its enabled scripts; the real service, its real script hosts, a clock of its own.
import { afterEach, describe, expect, it } from 'vitest';
import type { Script, ScriptRun, ScriptUsage } from '../../src/shared/script';
import { HELP, parseCommand } from '../cli-options';
import { startTestService, type AccountCall, type TestService } from '../test-support';
import { FakeClock } from '../testing/fake-clock';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function serviceWith(
  config: Record<string, number>,
): Promise<{ service: TestService; clock: FakeClock }> {
  const clock = new FakeClock();
  const service = await startTestService({ clock, config });
  closers.push(() => service.close());
  return { service, clock };
}

async function created(call: AccountCall, body: Record<string, unknown>): Promise<Script> {
  const response = await call('POST', '/scripts', {
    interval: '1h',
    enabled: false,
    code: 'return 1',
    ...body,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

async function usage(call: AccountCall): Promise<ScriptUsage> {
  const response = await call('GET', '/scripts/usage');
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

describe("an account's script time per hour", () => {
  it('refuses manual runs (429) and records scheduled ones as refused once spent, until the hour frees it', async () => {
    const { service, clock } = await serviceWith({ scriptSecondsPerHour: 1 });
    const other = await service.addAccount('other');
    const busy = await created(service.call, {
      name: 'busy',
      code: 'const end = Date.now() + 1200; while (Date.now() < end) {} return 1',
      timeout_seconds: 5,
    });
    const first = await service.call('POST', `/scripts/${busy.id}/run`);
    expect(first.statusCode, first.body).toBe(200);
    expect((first.json() as ScriptRun).duration_ms).toBeGreaterThanOrEqual(1200);

    // Over the hour's budget: refused at once, nothing run, and told when to come back.
    const refused = await service.call('POST', `/scripts/${busy.id}/run`);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ error: { code: 'rate_limited' } });
    expect(refused.json().error.message).toMatch(/1 s of script time for this hour/);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(3590);
    expect(retryAfter).toBeLessThanOrEqual(3610);
    expect((await service.call('GET', `/scripts/${busy.id}/runs`)).json()).toHaveLength(1);
    const spent = await usage(service.call);
    expect(spent.script_time.used_seconds).toBeGreaterThanOrEqual(1.2);
    expect(spent.script_time).toMatchObject({ limit_seconds: 1, refused_runs: 1 });

    // A scheduled run is recorded as refused, naming the limit; the flow is not fed.
    const ticking = await created(service.call, { name: 'ticking', interval: '10m', enabled: true });
    await clock.advance(0);
    await clock.advance(10 * 60_000);
    const runs = (await service.call('GET', `/scripts/${ticking.id}/runs`)).json() as ScriptRun[];
    expect(runs).toHaveLength(2);
    for (const run of runs) {
      expect(run).toMatchObject({ outcome: 'error', trigger: 'schedule', duration_ms: 0 });
      expect(run.error).toMatch(/^refused: .*script time for this hour/);
    }
    expect((await usage(service.call)).script_time.refused_runs).toBe(3);

    // Another account's budget is its own.
    const theirs = await created(other.call, { name: 'theirs' });
    expect((await other.call('POST', `/scripts/${theirs.id}/run`)).statusCode).toBe(200);
    expect((await usage(other.call)).script_time.refused_runs).toBe(0);

    // Refused every 10 minutes while the busy run's time is within the hour; at 70 minutes it
    // has left the window and the schedule runs again.
    await clock.advance(60 * 60_000);
    const after = (await service.call('GET', `/scripts/${ticking.id}/runs`)).json() as ScriptRun[];
    expect(after.map((run) => run.outcome)).toEqual(['ok', ...Array<string>(7).fill('error')]);
    expect((await usage(service.call)).script_time.used_seconds).toBeLessThan(1);
  }, 20_000);
});

describe("an account's enabled scripts", () => {
  it('refuses enabling past the limit (403 naming it), changing nothing, per account', async () => {
    const { service } = await serviceWith({ scriptsEnabledPerAccount: 2 });
    const other = await service.addAccount('other');
    await created(service.call, { name: 'one', enabled: true });
    const two = await created(service.call, { name: 'two', enabled: true });

    const third = await service.call('POST', '/scripts', {
      name: 'three',
      code: 'return 1',
      interval: '1h',
      enabled: true,
    });
    expect(third.statusCode).toBe(403);
    expect(third.json()).toMatchObject({
      error: { code: 'quota_exceeded', details: [{ path: 'body.enabled' }] },
    });
    expect(third.json().error.message).toMatch(/at most 2 scripts enabled/);
    expect((await service.call('GET', '/scripts')).json()).toHaveLength(2);

    // Disabled, it is kept; enabling it is refused and leaves it as it was.
    const kept = await created(service.call, { name: 'three' });
    const enabling = await service.call('PATCH', `/scripts/${kept.id}`, { enabled: true, name: 'renamed' });
    expect(enabling.statusCode).toBe(403);
    expect((await service.call('GET', `/scripts/${kept.id}`)).json()).toMatchObject({
      name: 'three',
      enabled: false,
    });
    // An enabled script changed stays enabled; one disabled frees its place.
    expect(
      (await service.call('PATCH', `/scripts/${two.id}`, { enabled: true, name: 'two!' })).statusCode,
    ).toBe(200);
    expect((await service.call('PATCH', `/scripts/${two.id}`, { enabled: false })).statusCode).toBe(200);
    expect((await service.call('PATCH', `/scripts/${kept.id}`, { enabled: true })).statusCode).toBe(200);
    expect((await usage(service.call)).enabled_scripts).toEqual({ used: 2, limit: 2 });

    // Another account has places of its own.
    await created(other.call, { name: 'a', enabled: true });
    await created(other.call, { name: 'b', enabled: true });
    expect((await usage(other.call)).enabled_scripts).toEqual({ used: 2, limit: 2 });
  });
});

describe('the caps on the command line', () => {
  it('are read, shown in --help, and refused when not whole numbers', () => {
    const serve = parseCommand(['--script-seconds-per-hour', '600', '--scripts-enabled-per-account', '50']);
    expect(serve).toMatchObject({ config: { scriptSecondsPerHour: 600, scriptsEnabledPerAccount: 50 } });
    expect(parseCommand([])).toMatchObject({
      config: { scriptSecondsPerHour: 3600, scriptsEnabledPerAccount: 200 },
    });
    expect(() => parseCommand(['--script-seconds-per-hour', '0'])).toThrow(
      '--script-seconds-per-hour must be a whole number from 1 to 1000000, not "0"',
    );
    expect(() => parseCommand(['--scripts-enabled-per-account', 'many'])).toThrow(
      /--scripts-enabled-per-account must be a whole number/,
    );
    expect(HELP).toContain('--script-seconds-per-hour <s>');
    expect(HELP).toContain('--scripts-enabled-per-account <n>');
  });
});
