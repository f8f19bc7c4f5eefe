import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALERT_SCRIPT_FAILURES } from '../src/shared/alert';
import { SCRIPT_RUNS_KEPT } from '../src/shared/script';
import { startTestService, type AccountCall, type TestService } from './test-support';
import { FakeClock } from './testing/fake-clock';

// The rules of the events past device.offline (docs/alerts.md): the fields each takes, the
// target that fits each, the refusals (400 naming the field, nothing stored), and an offline
// rule answered exactly as before.

let service: TestService;
let b: { call: AccountCall };
let hook: string;
let scriptId: string;

beforeAll(async () => {
  service = await startTestService({ clock: new FakeClock('2026-11-21T07:00:00.000Z') });
  b = await service.addAccount('B');
  hook = (
    await service.call('POST', '/alert-destinations', {
      kind: 'webhook',
      url: 'https://hooks.example.com/wallboard',
      secret: 'a-shared-secret-of-the-receiver',
    })
  ).json<{ id: string }>().id;
  scriptId = (
    await service.call('POST', '/scripts', { name: 'Feed', code: 'return 1', interval: '1h', enabled: false })
  ).json<{ id: string }>().id;
});
afterAll(() => service.close());

const rules = async (call: AccountCall = service.call) =>
  (await call('GET', '/alert-rules')).json<Record<string, unknown>[]>();

async function refused(body: Record<string, unknown>, path: string, call: AccountCall = service.call) {
  const response = await call('POST', '/alert-rules', body);
  expect(response.statusCode, `${JSON.stringify(body)}: ${response.body}`).toBe(400);
  const details = response.json().error.details as { path: string; message: string }[];
  expect(
    details.map((detail) => detail.path),
    JSON.stringify(body),
  ).toContain(path);
  return details;
}

describe('the rules of each event', () => {
  it('answers an offline rule exactly as before: no field of the other events', async () => {
    const response = await service.call('POST', '/alert-rules', {
      event: 'device.offline',
      after_seconds: 300,
      target: { all: true },
      destination_ids: [hook],
    });
    expect(response.statusCode).toBe(201);
    const { id } = response.json<{ id: string }>();
    expect(response.body).toBe(
      `{"id":"${id}","event":"device.offline","after_seconds":300,"target":{"all":true},"destination_ids":["${hook}"],"created_at":"2026-11-21T07:00:00.000Z"}`,
    );
  });

  it('takes each event with its fields, and lists them so', async () => {
    const bodies = [
      { event: 'device.failing', after_seconds: 120, target: { device_tag: 'lobby' } },
      { event: 'script.failing', failures: 5, target: { script_id: scriptId } },
      { event: 'script.failing', target: { all: true } },
      { event: 'node.unwritable', after_seconds: 60, target: { all: true } },
      { event: 'node.unwritable', after_seconds: 60 },
    ];
    const made: unknown[] = [];
    for (const body of bodies) {
      const response = await service.call('POST', '/alert-rules', { ...body, destination_ids: [hook] });
      expect(response.statusCode, response.body).toBe(201);
      made.push(response.json());
    }
    expect(made).toEqual([
      expect.objectContaining({
        event: 'device.failing',
        after_seconds: 120,
        target: { device_tag: 'lobby' },
      }),
      expect.objectContaining({ event: 'script.failing', failures: 5, target: { script_id: scriptId } }),
      // Three failed runs in a row unless told.
      expect.objectContaining({
        event: 'script.failing',
        failures: ALERT_SCRIPT_FAILURES.default,
        target: { all: true },
      }),
      expect.objectContaining({ event: 'node.unwritable', after_seconds: 60, target: { all: true } }),
      expect.objectContaining({ event: 'node.unwritable', after_seconds: 60, target: { all: true } }),
    ]);
    expect(made[1]).not.toHaveProperty('after_seconds');
    expect(made[0]).not.toHaveProperty('failures');
    expect(await rules()).toEqual(expect.arrayContaining(made));
  });

  it('refuses a target that does not fit the event, or fields it does not take, naming the field; stores nothing', async () => {
    const before = (await rules()).length;
    const d = { destination_ids: [hook] };
    await refused({ event: 'script.failing', target: { device_tag: 'lobby' }, ...d }, 'body.target');
    await refused({ event: 'script.failing', target: { group_id: 'grp_x' }, ...d }, 'body.target');
    await refused(
      { event: 'device.failing', after_seconds: 60, target: { script_id: scriptId }, ...d },
      'body.target',
    );
    await refused(
      { event: 'device.offline', after_seconds: 60, target: { script_id: scriptId }, ...d },
      'body.target',
    );
    const node = await refused(
      { event: 'node.unwritable', after_seconds: 60, target: { device_tag: 'a' }, ...d },
      'body.target',
    );
    expect(node[0]?.message).toMatch(/watches every node/);
    await refused(
      { event: 'script.failing', failures: 3, target: { script_id: 'sc_nowhere' }, ...d },
      'body.target.script_id',
    );
    await refused(
      { event: 'script.failing', after_seconds: 60, target: { all: true }, ...d },
      'body.after_seconds',
    );
    await refused(
      { event: 'device.failing', failures: 3, after_seconds: 60, target: { all: true }, ...d },
      'body.failures',
    );
    await refused({ event: 'device.failing', target: { all: true }, ...d }, 'body.after_seconds');
    await refused({ event: 'node.unwritable', after_seconds: 5, ...d }, 'body.after_seconds');
    await refused(
      { event: 'node.unwritable', after_seconds: 60, destination_ids: [] },
      'body.destination_ids',
    );
    const unknown = await refused(
      { event: 'screen.sad', after_seconds: 60, target: { all: true }, ...d },
      'body.event',
    );
    expect(unknown[0]?.message).toBe(
      'must be one of device.offline, device.failing, script.failing, node.unwritable',
    );
    expect((await rules()).length).toBe(before);
  });

  it(`counts 1 to ${SCRIPT_RUNS_KEPT} failed runs: the runs a script keeps`, async () => {
    const body = (failures: unknown) => ({
      event: 'script.failing',
      failures,
      target: { script_id: scriptId },
      destination_ids: [hook],
    });
    for (const failures of [ALERT_SCRIPT_FAILURES.min, SCRIPT_RUNS_KEPT]) {
      const response = await service.call('POST', '/alert-rules', body(failures));
      expect(response.statusCode, response.body).toBe(201);
      expect(response.json()).toMatchObject({ failures });
    }
    const before = (await rules()).length;
    for (const failures of [0, SCRIPT_RUNS_KEPT + 1, 2.5, '3', null]) {
      await refused(body(failures), 'body.failures');
    }
    expect((await rules()).length).toBe(before);
  });

  it("goes with its script, and never names another account's", async () => {
    const doomed = (
      await service.call('POST', '/scripts', {
        name: 'Doomed',
        code: 'return 1',
        interval: '1h',
        enabled: false,
      })
    ).json<{ id: string }>().id;
    const rule = (
      await service.call('POST', '/alert-rules', {
        event: 'script.failing',
        target: { script_id: doomed },
        destination_ids: [hook],
      })
    ).json<{ id: string }>();
    expect((await service.call('DELETE', `/scripts/${doomed}`)).statusCode).toBe(204);
    expect((await rules()).map((r) => r.id)).not.toContain(rule.id);

    const theirs = (
      await b.call('POST', '/alert-destinations', {
        kind: 'slack',
        url: 'https://hooks.slack.com/services/T/B/x',
      })
    ).json<{ id: string }>().id;
    await refused(
      { event: 'script.failing', target: { script_id: scriptId }, destination_ids: [theirs] },
      'body.target.script_id',
      b.call,
    );
    expect(await rules(b.call)).toEqual([]);
  });
});
