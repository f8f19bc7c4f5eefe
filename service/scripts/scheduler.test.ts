// The scheduler of scripts, on a clock each test moves: every advance waits for the runs it starts,
// so a run that must not happen is shown not to without waiting on the wall clock.
import { afterEach, describe, expect, it } from 'vitest';
import type { Flow } from '../../src/shared/flow';
import type { Script, ScriptRun } from '../../src/shared/script';
import { createScript } from '../actions/scripts';
import { buildApp } from '../app';
import { ScriptRepository } from '../repositories/scripts';
import { openTestStore, startTestService, type TestService } from '../test-support';
import { FakeClock } from '../testing/fake-clock';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A service of its own, on a clock of its own. */
async function scheduled(): Promise<{ service: TestService; clock: FakeClock }> {
  const clock = new FakeClock();
  const service = await startTestService({ clock });
  closers.push(() => service.close());
  return { service, clock };
}

async function scheduledRuns(service: TestService, id: string): Promise<ScriptRun[]> {
  const runs = (await service.call('GET', `/scripts/${id}/runs`)).json() as ScriptRun[];
  return runs.filter((run) => run.trigger === 'schedule');
}

async function created(service: TestService, body: Record<string, unknown>): Promise<Script> {
  const response = await service.call('POST', '/scripts', { code: 'return 1', enabled: true, ...body });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

describe('the scheduler', () => {
  it('runs an enabled script at once and then on its interval, and stops when it is disabled', async () => {
    const { service, clock } = await scheduled();
    const target = (
      await service.call('POST', '/flows', { tag: 'ticking', variant: 'value' })
    ).json() as Flow;
    const script = await created(service, {
      name: 'ticker',
      code: 'return { value: (previous.value ?? 0) + 1 }',
      interval: '1s',
      flow_id: target.id,
    });
    await clock.advance(0);
    expect(await scheduledRuns(service, script.id)).toHaveLength(1);
    await clock.advance(999);
    expect(await scheduledRuns(service, script.id)).toHaveLength(1);
    await clock.advance(1);
    await clock.advance(1000);
    expect(await scheduledRuns(service, script.id)).toHaveLength(3);
    expect((await service.call('GET', '/flows/ticking/metrics')).json()).toEqual({ value: 3 });

    await service.call('PATCH', `/scripts/${script.id}`, { enabled: false });
    await clock.advance(10_000);
    expect(await scheduledRuns(service, script.id)).toHaveLength(3);
  });

  it('hears of every change at once: a new interval, a deletion', async () => {
    const { service, clock } = await scheduled();
    const script = await created(service, { name: 'slow', interval: '1h' });
    await clock.advance(0);
    expect(await scheduledRuns(service, script.id)).toHaveLength(1);
    // A change runs it again at once, then on the new interval.
    await service.call('PATCH', `/scripts/${script.id}`, { interval: '10s' });
    await clock.advance(0);
    expect(await scheduledRuns(service, script.id)).toHaveLength(2);
    await clock.advance(10_000);
    expect(await scheduledRuns(service, script.id)).toHaveLength(3);
    // An empty change is no change.
    await service.call('PATCH', `/scripts/${script.id}`, {});
    await clock.advance(0);
    expect(await scheduledRuns(service, script.id)).toHaveLength(3);

    // Its timer goes with it; the other jobs' stay.
    const waiting = clock.pending;
    expect((await service.call('DELETE', `/scripts/${script.id}`)).statusCode).toBe(204);
    expect(clock.pending).toBe(waiting - 1);
  });

  it('schedules the scripts written before the app was ready when it starts', async () => {
    // As `npm start` does: the demo is seeded through the context before the app listens.
    const clock = new FakeClock();
    const { db, drop } = await openTestStore();
    const app = await buildApp({ db, clock });
    closers.push(async () => {
      await app.close();
      await drop();
    });
    const script = await createScript(app.wallboard, {
      name: 'early',
      code: 'return 1',
      interval: '1m',
      timeout_seconds: 10,
      enabled: true,
    });
    await clock.advance(0);
    expect(await new ScriptRepository(db).listRuns(script.id)).toEqual([]);
    await app.ready();
    await clock.advance(0);
    expect(await new ScriptRepository(db).listRuns(script.id)).toMatchObject([{ trigger: 'schedule' }]);
  });
});
