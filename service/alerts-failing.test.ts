import { createHmac, timingSafeEqual } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Failure } from '../src/shared/device';
import { SCRIPT_RUNS_KEPT, type ScriptRun } from '../src/shared/script';
import { sampleHeartbeat } from '../src/shared/testing/device-fixtures';
import { WebhookReceiver, type Received } from './alerts/testing/receivers';
import { startTestService, type TestService } from './test-support';
import { FakeClock } from './testing/fake-clock';

// The alerts of screens failing to show items and of scripts failing, end to end
// (docs/alerts.md): the real service on its fake clock, its alert job every 5 s moving with it,
// real heartbeats and real script runs, a webhook receiver on loopback. Each test watches screens
// or scripts of its own.

const SECOND = 1000;
const SECRET = 'a-shared-secret-of-the-receiver';

const clock = new FakeClock('2026-11-21T07:00:00.000Z');
const receiver = new WebhookReceiver(clock);
let service: TestService;

beforeAll(async () => {
  await receiver.start();
  service = await startTestService({ clock, config: { offlineAfterSeconds: 30 } });
});
afterAll(async () => {
  await service.close();
  await receiver.close();
});

const t = () => clock.now().getTime();

async function created(url: string, body: unknown): Promise<{ id: string }> {
  const response = await service.call('POST', url, body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

const webhook = async (path: string) =>
  (await created('/alert-destinations', { kind: 'webhook', url: receiver.url(path), secret: SECRET })).id;

/** A heartbeat reporting `failures` (none: the screen shows everything). */
async function beat(tag: string, failures: Failure[] = []): Promise<void> {
  const response = await service.call('POST', `/devices/${tag}/heartbeat`, {
    ...sampleHeartbeat('board'),
    failures,
  });
  expect(response.statusCode, response.body).toBe(200);
}

const failure = (item: string, reason: string, ago = 0): Failure => ({
  item,
  reason,
  at: new Date(t() - ago).toISOString(),
});

/** Moves time on by `ms`, the screens beating every 10 s meanwhile as `beats` says. */
async function living(ms: number, beats: Record<string, () => Failure[]>): Promise<void> {
  for (let left = ms; left > 0; left -= 10 * SECOND) {
    for (const [tag, failures] of Object.entries(beats)) await beat(tag, failures());
    await clock.advance(Math.min(10 * SECOND, left));
  }
}

function signedBy(request: Received): boolean {
  const expected = Buffer.from(`sha256=${createHmac('sha256', SECRET).update(request.body).digest('hex')}`);
  const given = Buffer.from(String(request.headers['x-wallboard-signature']));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

interface Body {
  alert: { id: string; event: string; status: string; devices: string[]; resolved_at?: string };
  screens: { tag: string; name: string; failures?: Failure[] }[];
  scripts?: { id: string; name: string; failures: number; reason: string }[];
  text: string;
}
const bodyOf = (request: Received | undefined) => JSON.parse(request?.body ?? '{}') as Body;

describe('screens failing to show items', () => {
  it('sends one digest naming the screens and their items, and one recovery once they show them', async () => {
    const hall = await created('/groups', { name: 'Hall' });
    const hook = await webhook('/failing');
    const rule = await created('/alert-rules', {
      event: 'device.failing',
      after_seconds: 60,
      target: { group_id: hall.id },
      destination_ids: [hook],
    });
    for (const tag of ['hall-1', 'hall-2', 'hall-3']) {
      await created('/devices', { tag, name: `Hall ${tag.slice(-1)}`, group_id: hall.id });
    }
    const video = 'video:https://cdn.example.com/promo.mp4';
    const image = 'image:https://cdn.example.com/menu.png';
    // All well for a minute: nothing.
    const well = () => [];
    await living(60 * SECOND, { 'hall-1': well, 'hall-2': well, 'hall-3': well });
    expect(receiver.at('/failing')).toHaveLength(0);

    // Two screens fail, 5 s apart (the video each loop, so its time stays fresh): one message.
    let failing = t();
    const broken = () => [failure(video, 'the video could not be decoded')];
    await living(10 * SECOND, { 'hall-1': broken, 'hall-2': well, 'hall-3': well });
    const both = () => [failure(image, 'HTTP 404'), failure(video, 'the video could not be decoded')];
    await living(120 * SECOND, { 'hall-1': broken, 'hall-2': both, 'hall-3': well });
    expect(receiver.at('/failing')).toHaveLength(1);
    const [alert] = receiver.at('/failing');
    // Within the pass, the 15 s of gathering and a pass.
    expect(alert!.at - failing).toBeLessThanOrEqual(5 * SECOND + 15 * SECOND + 5 * SECOND);
    expect(signedBy(alert!)).toBe(true);
    const body = bodyOf(alert);
    expect(body.alert).toMatchObject({
      event: 'device.failing',
      status: 'firing',
      devices: ['hall-1', 'hall-2'],
    });
    expect(body.screens.map((screen) => screen.failures?.map((f) => f.item))).toEqual([
      [video],
      [image, video],
    ]);
    expect(body.text).toContain('2 screens failing to show items');
    expect(body.text).toContain(`Hall 1 (hall-1): ${video} (the video could not be decoded)`);
    expect(body.text).toContain(`${image} (HTTP 404)`);

    // One screen shows its items again: not yet a recovery; both do: one.
    await living(20 * SECOND, { 'hall-1': well, 'hall-2': both, 'hall-3': well });
    expect(receiver.at('/failing')).toHaveLength(1);
    failing = t();
    await living(10 * SECOND, { 'hall-1': well, 'hall-2': well, 'hall-3': well });
    expect(receiver.at('/failing')).toHaveLength(2);
    const recovery = receiver.at('/failing')[1]!;
    expect(recovery.at - failing).toBeLessThanOrEqual(10 * SECOND);
    expect(bodyOf(recovery).alert).toMatchObject({ id: body.alert.id, status: 'resolved' });
    expect(bodyOf(recovery).text).toContain('showing their items again');

    const listed = (await service.call('GET', '/alerts')).json<Record<string, unknown>[]>();
    expect(listed.find((incident) => incident.id === body.alert.id)).toMatchObject({
      event: 'device.failing',
      status: 'resolved',
      rule_id: rule.id,
      devices: ['hall-1', 'hall-2'],
      screens: [
        { tag: 'hall-1', name: 'Hall 1', failures: [expect.objectContaining({ item: video })] },
        { tag: 'hall-2', name: 'Hall 2', failures: expect.any(Array) },
      ],
    });
  });

  it('counts only failures of the last after_seconds: an old one reported still does not alert', async () => {
    const hook = await webhook('/stale');
    await created('/alert-rules', {
      event: 'device.failing',
      after_seconds: 60,
      target: { device_tag: 'stale' },
      destination_ids: [hook],
    });
    await created('/devices', { tag: 'stale' });
    // The screen still lists an item that last failed 61 s before each heartbeat.
    await living(180 * SECOND, {
      stale: () => [failure('media:https://x.example/a.png', '404', 61 * SECOND)],
    });
    expect(receiver.at('/stale')).toHaveLength(0);
    // A failure within the window before the heartbeat is one.
    await living(30 * SECOND, {
      stale: () => [failure('media:https://x.example/a.png', '404', 50 * SECOND)],
    });
    expect(receiver.at('/stale')).toHaveLength(1);
  });

  it('keeps a screen that fell silent failing until it is heard again without failures', async () => {
    const hook = await webhook('/silent');
    await created('/alert-rules', {
      event: 'device.failing',
      after_seconds: 30,
      target: { device_tag: 'silent' },
      destination_ids: [hook],
    });
    await created('/devices', { tag: 'silent' });
    await living(30 * SECOND, { silent: () => [failure('board:b1', 'the board did not load')] });
    expect(receiver.at('/silent')).toHaveLength(1);
    // Silent for five minutes (offline after 30 s): its last word was a failure, so it is not back.
    await clock.advance(300 * SECOND);
    expect(receiver.at('/silent')).toHaveLength(1);
    await beat('silent');
    await clock.advance(5 * SECOND);
    expect(receiver.at('/silent')).toHaveLength(2);
    expect(bodyOf(receiver.at('/silent')[1]).alert.status).toBe('resolved');
  });

  it('alerts a screen that fails again soon after its recovery only after_seconds after that recovery', async () => {
    const hook = await webhook('/flaps');
    await created('/alert-rules', {
      event: 'device.failing',
      after_seconds: 60,
      target: { device_tag: 'flaps' },
      destination_ids: [hook],
    });
    await created('/devices', { tag: 'flaps' });
    const bad = () => [failure('video:https://x.example/v.mp4', 'decode')];
    await living(30 * SECOND, { flaps: bad });
    await living(10 * SECOND, { flaps: () => [] });
    expect(receiver.at('/flaps')).toHaveLength(2);
    const recovered = receiver.at('/flaps')[1]!.at;
    await living(40 * SECOND, { flaps: bad });
    expect(receiver.at('/flaps')).toHaveLength(2);
    await living(50 * SECOND, { flaps: bad });
    expect(receiver.at('/flaps')).toHaveLength(3);
    expect(receiver.at('/flaps')[2]!.at - recovered).toBeGreaterThanOrEqual(60 * SECOND);
  });
});

async function script(name: string, code: string): Promise<string> {
  return (await created('/scripts', { name, code, interval: '1h', enabled: false })).id;
}

async function run(id: string): Promise<ScriptRun> {
  const response = await service.call('POST', `/scripts/${id}/run`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

describe('scripts failing', () => {
  it('alerts after `failures` failed runs in a row, once, and recovers at the next ok run', async () => {
    const hook = await webhook('/scripts');
    const feed = await script('Weather feed', 'throw new Error("upstream down")');
    const other = await script('Other', 'throw new Error("also down")');
    const rule = await created('/alert-rules', {
      event: 'script.failing',
      failures: 3,
      target: { script_id: feed },
      destination_ids: [hook],
    });
    // Two failures, an ok run, two failures: never three in a row.
    for (const code of ['throw new Error("upstream down")', 'return 1', 'throw new Error("upstream down")']) {
      await service.call('PATCH', `/scripts/${feed}`, { code });
      await run(feed);
      if (code !== 'return 1') await run(feed);
      await clock.advance(10 * SECOND);
    }
    for (let i = 0; i < 4; i++) await run(other);
    await clock.advance(30 * SECOND);
    expect(receiver.at('/scripts')).toHaveLength(0);

    const third = await run(feed);
    expect(third.outcome).toBe('error');
    const failed = t();
    await clock.advance(25 * SECOND);
    expect(receiver.at('/scripts')).toHaveLength(1);
    const alert = receiver.at('/scripts')[0]!;
    expect(alert.at - failed).toBeLessThanOrEqual(5 * SECOND + 15 * SECOND + 5 * SECOND);
    expect(signedBy(alert)).toBe(true);
    const body = bodyOf(alert);
    expect(body.alert).toMatchObject({ event: 'script.failing', status: 'firing', devices: [] });
    expect(body.screens).toEqual([]);
    expect(body.scripts).toEqual([
      { id: feed, name: 'Weather feed', failures: 3, reason: 'failed: Error: upstream down (line 1)' },
    ]);
    expect(body.text).toContain(`Weather feed (${feed}) failed 3 runs in a row`);

    // Failing on: no second alert.
    for (let i = 0; i < 3; i++) await run(feed);
    await clock.advance(30 * SECOND);
    expect(receiver.at('/scripts')).toHaveLength(1);

    await service.call('PATCH', `/scripts/${feed}`, { code: 'return 2' });
    expect((await run(feed)).outcome).toBe('ok');
    // A failure right after the ok run does not hide it: the ok run is the recovery.
    await service.call('PATCH', `/scripts/${feed}`, { code: 'throw new Error("again")' });
    await run(feed);
    await clock.advance(5 * SECOND);
    expect(receiver.at('/scripts')).toHaveLength(2);
    expect(bodyOf(receiver.at('/scripts')[1]).alert).toMatchObject({ id: body.alert.id, status: 'resolved' });

    const listed = (await service.call('GET', '/alerts')).json<Record<string, unknown>[]>();
    expect(listed.find((incident) => incident.id === body.alert.id)).toMatchObject({
      event: 'script.failing',
      status: 'resolved',
      rule_id: rule.id,
      devices: [],
      screens: [],
      scripts: [
        { id: feed, name: 'Weather feed', failures: 3, reason: expect.stringContaining('upstream down') },
      ],
    });
  });

  it(`counts a streak as long as the runs a script keeps (${SCRIPT_RUNS_KEPT})`, async () => {
    const hook = await webhook('/longest');
    const flaky = await script('Flaky', 'throw new Error("down")');
    await created('/alert-rules', {
      event: 'script.failing',
      failures: SCRIPT_RUNS_KEPT,
      target: { script_id: flaky },
      destination_ids: [hook],
    });
    for (let i = 1; i < SCRIPT_RUNS_KEPT; i++) await run(flaky);
    await clock.advance(30 * SECOND);
    expect(receiver.at('/longest')).toHaveLength(0);
    await run(flaky);
    await clock.advance(25 * SECOND);
    expect(receiver.at('/longest')).toHaveLength(1);
    expect(bodyOf(receiver.at('/longest')[0]).scripts?.[0]?.failures).toBe(SCRIPT_RUNS_KEPT);
    // One more run drops the oldest: the store never holds a longer streak to count.
    await run(flaky);
    const runs = (await service.call('GET', `/scripts/${flaky}/runs`)).json<unknown[]>();
    expect(runs).toHaveLength(SCRIPT_RUNS_KEPT);
    expect((await service.call('DELETE', `/scripts/${flaky}`)).statusCode).toBe(204);
  });

  it('gathers the scripts of a rule for every script into one message, and resolves one deleted', async () => {
    const hook = await webhook('/all-scripts');
    await created('/alert-rules', {
      event: 'script.failing',
      failures: 1,
      target: { all: true },
      destination_ids: [hook],
    });
    const a = await script('Feed A', 'throw new Error("a")');
    const b = await script('Feed B', 'await new Promise(() => {})');
    await service.call('PATCH', `/scripts/${b}`, { timeout_seconds: 1 });
    await run(a);
    await clock.advance(5 * SECOND);
    expect((await run(b)).outcome).toBe('timeout');
    await clock.advance(20 * SECOND);
    const ours = receiver.at('/all-scripts');
    expect(ours).toHaveLength(1);
    const body = bodyOf(ours[0]);
    // The scripts of the earlier test fail too, under this rule for every script.
    expect(body.scripts?.map((s) => s.id)).toEqual(expect.arrayContaining([a, b]));
    expect(body.scripts?.find((s) => s.id === b)?.reason).toBe('timed out: stopped after 1 s');
    expect(body.text).toMatch(/\d+ scripts failing since/);

    for (const id of body.scripts?.map((s) => s.id) ?? []) {
      expect((await service.call('DELETE', `/scripts/${id}`)).statusCode).toBe(204);
    }
    await clock.advance(5 * SECOND);
    expect(receiver.at('/all-scripts')).toHaveLength(2);
    expect(bodyOf(receiver.at('/all-scripts')[1]).alert.status).toBe('resolved');
  });
});
