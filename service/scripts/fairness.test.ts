// Fair shares of the run slots between accounts, on the real service with real script hosts: one
// account's endless loops may not hold another's run back longer than about one run's timeout.
import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Script, ScriptRun } from '../../src/shared/script';
import { startTestService, type AccountCall, type TestService } from '../test-support';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

async function created(call: AccountCall, body: Record<string, unknown>): Promise<Script> {
  const response = await call('POST', '/scripts', { interval: '1h', enabled: false, ...body });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

const TIMEOUT_MS = 2000;

describe('run slots shared between accounts', () => {
  it("starts one account's run within about one run timeout of another account's endless loops", async () => {
    const busy = await service.addAccount('busy');
    const quiet = await service.addAccount('quiet');
    const loops = await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        created(busy.call, { name: `loop ${index}`, code: 'while (true) {}', timeout_seconds: 2 }),
      ),
    );
    const trivial = await created(quiet.call, { name: 'trivial', code: 'return 1' });

    // Six loops queued first: on a first-come-first-served queue they hold both slots for three
    // timeouts in a row.
    const looping = loops.map((loop) => busy.call('POST', `/scripts/${loop.id}/run`));
    // Both slots held by loops (their time counts, in tenths of a second), the rest queued behind.
    await expect
      .poll(async () => (await busy.call('GET', '/scripts/usage')).json().script_time.used_seconds, {
        timeout: 15_000,
      })
      .toBeGreaterThanOrEqual(0.2);
    const start = performance.now();
    const answer = await quiet.call('POST', `/scripts/${trivial.id}/run`);
    const waitedMs = performance.now() - start;
    expect(answer.statusCode, answer.body).toBe(200);
    expect((answer.json() as ScriptRun).outcome).toBe('ok');
    // One timeout, and a margin for a fresh script host after the killed one (2 shared cores; about
    // 2.7 s in all here, where a first-come-first-served queue makes it 5.8 s).
    expect(waitedMs, `waited ${Math.round(waitedMs)} ms`).toBeLessThanOrEqual(TIMEOUT_MS + 2000);

    // Nothing of the busy account's is lost: every loop ran to its timeout.
    const runs = await Promise.all(looping);
    expect(runs.map((run) => run.statusCode)).toEqual(Array(6).fill(200));
    expect(runs.map((run) => (run.json() as ScriptRun).outcome)).toEqual(Array(6).fill('timeout'));
  }, 30_000);
});
