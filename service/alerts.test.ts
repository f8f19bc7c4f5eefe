import { createHmac, timingSafeEqual } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleHeartbeat } from '../src/shared/testing/device-fixtures';
import { MailReceiver, WebhookReceiver, type Received } from './alerts/testing/receivers';
import { startTestService, type TestService } from './test-support';
import { FakeClock } from './testing/fake-clock';

// Offline alerts end to end (docs/alerts.md): the real service on its fake clock, its jobs (the
// presence sweep, every 10 s here, and the alert job, every 5 s) moving with it, a webhook
// receiver and an SMTP server on loopback. Each test watches screens of its own (a tag or a
// group), so the rules of one never see another's screens.

const SECOND = 1000;
const SECRET = 'a-shared-secret-of-the-receiver';

const clock = new FakeClock('2026-11-21T07:00:00.000Z');
const receiver = new WebhookReceiver(clock);
const smtp = new MailReceiver();
let service: TestService;

beforeAll(async () => {
  await receiver.start();
  const smtpUrl = await smtp.start();
  service = await startTestService({
    clock,
    config: { offlineAfterSeconds: 30, smtp: { url: smtpUrl, from: 'alerts@wallboard.test' } },
  });
});
afterAll(async () => {
  await service.close();
  await receiver.close();
  await smtp.close();
});

const t = () => clock.now().getTime();

async function created(url: string, body: unknown): Promise<{ id: string }> {
  const response = await service.call('POST', url, body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

async function webhook(path: string): Promise<string> {
  return (await created('/alert-destinations', { kind: 'webhook', url: receiver.url(path), secret: SECRET }))
    .id;
}

async function screen(tag: string, extra: Record<string, unknown> = {}): Promise<void> {
  await created('/devices', { tag, name: `Screen ${tag}`, ...extra });
  await beat(tag);
}

async function beat(tag: string): Promise<void> {
  const response = await service.call('POST', `/devices/${tag}/heartbeat`, sampleHeartbeat('board'));
  expect(response.statusCode, response.body).toBe(200);
}

/** The signature as a receiver checks it: the HMAC of the raw body, compared in constant time. */
function signedBy(secret: string, request: Received): boolean {
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(request.body).digest('hex')}`);
  const given = Buffer.from(String(request.headers['x-wallboard-signature']));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

interface Body {
  alert: {
    id: string;
    event: string;
    status: string;
    devices: string[];
    started_at: string;
    resolved_at?: string;
  };
  text: string;
}
const bodyOf = (request: Received | undefined) => JSON.parse(request?.body ?? '{}') as Body;

describe('a screen that dies', () => {
  it('alerts each destination once after the rule time, signed, and once again when it is back', async () => {
    const hook = await webhook('/one');
    const slack = (await created('/alert-destinations', { kind: 'slack', url: receiver.url('/slack') })).id;
    const teams = (await created('/alert-destinations', { kind: 'teams', url: receiver.url('/teams') })).id;
    const rule = await created('/alert-rules', {
      event: 'device.offline',
      after_seconds: 60,
      target: { device_tag: 'lobby' },
      destination_ids: [hook, slack, teams],
    });
    await screen('lobby');
    const seen = t();

    // Offline from the sweep after 30 s; not yet for the rule before 60 s.
    await clock.advance(59 * SECOND);
    expect((await service.call('GET', '/devices/lobby')).json().online).toBe(false);
    expect(receiver.at('/one')).toHaveLength(0);
    // Qualifies at 60 s; the alert goes out once its incident stops gathering, 15 s later.
    await clock.advance(30 * SECOND);
    const [alert] = receiver.at('/one');
    expect(receiver.at('/one')).toHaveLength(1);
    expect(alert!.at - seen).toBeGreaterThanOrEqual(60 * SECOND);
    expect(alert!.at - seen).toBeLessThanOrEqual(60 * SECOND + 15 * SECOND + 5 * SECOND);
    expect(signedBy(SECRET, alert!)).toBe(true);
    expect(signedBy('another secret of 16+ chars', alert!)).toBe(false);
    expect(alert!.headers['content-type']).toBe('application/json');
    const body = bodyOf(alert);
    expect(body.alert).toEqual({
      id: expect.any(String),
      event: 'device.offline',
      status: 'firing',
      devices: ['lobby'],
      started_at: new Date(seen + 60 * SECOND).toISOString(),
    });
    expect(body.text).toContain('Screen lobby (lobby)');
    expect(JSON.parse(receiver.at('/slack')[0]!.body)).toEqual({ text: body.text });
    expect(JSON.parse(receiver.at('/teams')[0]!.body)).toMatchObject({
      '@type': 'MessageCard',
      '@context': 'https://schema.org/extensions',
      summary: '[Wallboard] Screen lobby is offline',
      text: body.text,
    });

    // Still offline ten minutes on: no second alert for the same incident.
    await clock.advance(600 * SECOND);
    for (const path of ['/one', '/slack', '/teams']) expect(receiver.at(path), path).toHaveLength(1);

    await beat('lobby');
    const back = t();
    await clock.advance(20 * SECOND);
    const recoveries = receiver.at('/one').slice(1);
    expect(recoveries).toHaveLength(1);
    expect(recoveries[0]!.at - back).toBeLessThanOrEqual(5 * SECOND);
    expect(signedBy(SECRET, recoveries[0]!)).toBe(true);
    expect(bodyOf(recoveries[0]).alert).toMatchObject({
      id: body.alert.id,
      status: 'resolved',
      devices: ['lobby'],
      resolved_at: new Date(recoveries[0]!.at).toISOString(),
    });
    // Alive, beating: nothing more.
    for (let i = 0; i < 15; i++) {
      await beat('lobby');
      await clock.advance(20 * SECOND);
    }
    for (const path of ['/one', '/slack', '/teams']) expect(receiver.at(path), path).toHaveLength(2);

    const alerts = (await service.call('GET', '/alerts')).json<Record<string, unknown>[]>();
    const incident = alerts.find((a) => a.id === body.alert.id);
    expect(incident).toMatchObject({ status: 'resolved', devices: ['lobby'], rule_id: rule.id });
    expect(incident?.deliveries).toHaveLength(6);
    expect(incident?.deliveries).toEqual(
      expect.arrayContaining([expect.objectContaining({ status: 'delivered', attempts: 1 })]),
    );
  });

  it('does not alert for a screen that was never seen', async () => {
    const hook = await webhook('/never');
    await created('/alert-rules', {
      event: 'device.offline',
      after_seconds: 10,
      target: { device_tag: 'unplugged' },
      destination_ids: [hook],
    });
    await created('/devices', { tag: 'unplugged' });
    await clock.advance(120 * SECOND);
    expect(receiver.at('/never')).toHaveLength(0);
  });
});

describe('many screens at once', () => {
  it('sends one digest naming all 50 when a site goes dark, and one recovery', async () => {
    const site = await created('/groups', { name: 'Site 50' });
    const hook = await webhook('/site');
    await created('/alert-rules', {
      event: 'device.offline',
      after_seconds: 60,
      target: { group_id: site.id },
      destination_ids: [hook],
    });
    const tags = Array.from({ length: 50 }, (_, i) => `site-${String(i).padStart(2, '0')}`);
    // Their last heartbeats spread over 10 s, as a fleet's do.
    for (const [i, tag] of tags.entries()) {
      await screen(tag, { group_id: site.id });
      if (i % 10 === 9) await clock.advance(2 * SECOND);
    }
    await clock.advance(120 * SECOND);
    expect(receiver.at('/site')).toHaveLength(1);
    const body = bodyOf(receiver.at('/site')[0]);
    expect(body.alert.devices).toEqual(tags);
    for (const tag of tags) expect(body.text).toContain(`Screen ${tag} (${tag})`);
    expect(body.text).toContain('50 screens offline');

    // One recovery once every one of them is back, not before.
    for (const tag of tags.slice(0, 49)) await beat(tag);
    await clock.advance(20 * SECOND);
    expect(receiver.at('/site')).toHaveLength(1);
    for (const tag of tags) await beat(tag);
    await clock.advance(10 * SECOND);
    expect(receiver.at('/site')).toHaveLength(2);
    expect(bodyOf(receiver.at('/site')[1]).alert).toMatchObject({ status: 'resolved', devices: tags });
  });
});

describe('a receiver that fails', () => {
  it('is tried again after 10 s, then 20 s, and the third attempt is delivered and recorded', async () => {
    const hook = await webhook('/flaky');
    receiver.answer('/flaky', 500, 500);
    await created('/alert-rules', {
      event: 'device.offline',
      after_seconds: 30,
      target: { device_tag: 'flaky-screen' },
      destination_ids: [hook],
    });
    await screen('flaky-screen');
    await clock.advance(120 * SECOND);
    const attempts = receiver.at('/flaky');
    expect(attempts).toHaveLength(3);
    expect(attempts[1]!.at - attempts[0]!.at).toBe(10 * SECOND);
    expect(attempts[2]!.at - attempts[1]!.at).toBe(20 * SECOND);
    // The same message each time, its delivery named by one id.
    expect(new Set(attempts.map((a) => a.body)).size).toBe(1);
    expect(new Set(attempts.map((a) => a.headers['x-wallboard-delivery'])).size).toBe(1);
    const alerts = (await service.call('GET', '/alerts')).json<
      { devices: string[]; deliveries: unknown[] }[]
    >();
    expect(alerts.find((a) => a.devices.includes('flaky-screen'))?.deliveries).toEqual([
      {
        destination_id: hook,
        phase: 'firing',
        status: 'delivered',
        attempts: 3,
        delivered_at: new Date(attempts[2]!.at).toISOString(),
        last_error: 'the receiver answered 500',
      },
    ]);
  });
});

describe('a screen that flaps', () => {
  it('waits twice the rule time before alerting again a screen that died soon after its recovery', async () => {
    const hook = await webhook('/flap');
    await created('/alert-rules', {
      event: 'device.offline',
      after_seconds: 60,
      target: { device_tag: 'flapper' },
      destination_ids: [hook],
    });
    await screen('flapper');
    await clock.advance(90 * SECOND);
    expect(receiver.at('/flap')).toHaveLength(1);
    await beat('flapper');
    await clock.advance(5 * SECOND);
    expect(receiver.at('/flap')).toHaveLength(2);
    // Silent again at once: not alerted after 60 s, but after 120 s (and the gathering).
    const silent = t();
    await clock.advance(100 * SECOND);
    expect(receiver.at('/flap')).toHaveLength(2);
    await clock.advance(40 * SECOND);
    expect(receiver.at('/flap')).toHaveLength(3);
    expect(receiver.at('/flap')[2]!.at - silent).toBeGreaterThanOrEqual(120 * SECOND);
  });
});

describe('e-mail', () => {
  it('delivers to the SMTP server, naming the screens', async () => {
    const mail = await created('/alert-destinations', {
      kind: 'email',
      to: ['ops@example.com', 'noc@example.com'],
    });
    await created('/alert-rules', {
      event: 'device.offline',
      after_seconds: 60,
      target: { device_tag: 'mailroom' },
      destination_ids: [mail.id],
    });
    await screen('mailroom');
    await clock.advance(100 * SECOND);
    expect(smtp.mails).toHaveLength(1);
    const [sent] = smtp.mails;
    expect(sent!.from).toBe('alerts@wallboard.test');
    expect(sent!.to).toEqual(['ops@example.com', 'noc@example.com']);
    expect(sent!.data).toContain('Subject: [Wallboard] Screen mailroom is offline');
    // The text part is quoted-printable: its soft line breaks undone.
    expect(sent!.data.replace(/=\r?\n/g, '')).toContain('Screen mailroom (mailroom)');
    const listed = (await service.call('GET', '/alert-destinations')).json<{ id: string }[]>();
    expect(listed.find((d) => d.id === mail.id)).toMatchObject({
      kind: 'email',
      to: ['ops@example.com', 'noc@example.com'],
      has_secret: false,
    });
  });
});
