import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sampleHeartbeat } from '../src/shared/testing/device-fixtures';
import { WebhookReceiver } from './alerts/testing/receivers';
import { SOCKET_GRACE_MS } from './realtime/presence';
import { startTestService, type TestService } from './test-support';
import { FakeClock } from './testing/fake-clock';
import { clientsOf, cut, hello, listen, type Client } from './testing/realtime-clients';

// A site's power cut, as the service sees it: 50 screens, each a real socket that said hello as
// its device (what keeps a screen online between heartbeats), all cut at once without a close
// handshake. The operator's receiver hears one digest naming the 50, then one recovery once they
// are all back. The service's jobs (presence, alerts) run on its fake clock.

const SECOND = 1000;
const SCREENS = 50;
const clock = new FakeClock('2026-11-21T07:00:00.000Z');
const receiver = new WebhookReceiver(clock);
let service: TestService;
let url = '';
const clients = clientsOf(() => url);

beforeAll(async () => {
  await receiver.start();
  service = await startTestService({ clock });
  url = await listen(service);
});
afterAll(async () => {
  clients.closeAll();
  await service.close();
  await receiver.close();
});

async function created(path: string, body: unknown): Promise<{ id: string }> {
  const response = await service.call('POST', path, body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

/** The screen comes up as the agent does: a heartbeat, then its socket's hello. */
async function comeUp(tag: string): Promise<Client> {
  const beat = await service.call('POST', `/devices/${tag}/heartbeat`, sampleHeartbeat('board'));
  expect(beat.statusCode, beat.body).toBe(200);
  const client = clients.open();
  expect((await hello(client, null, tag)).error).toBeUndefined();
  return client;
}

async function socketCount(): Promise<number> {
  return (await service.app.realtime.fetchSockets()).length;
}

describe('a site goes dark', () => {
  it('sends one digest naming its 50 screens, and one recovery when they are back', async () => {
    const site = await created('/groups', { name: 'Warehouse' });
    const hook = await created('/alert-destinations', {
      kind: 'webhook',
      url: receiver.url('/site'),
      secret: 'a-shared-secret-of-the-receiver',
    });
    await created('/alert-rules', {
      event: 'device.offline',
      after_seconds: 60,
      target: { group_id: site.id },
      destination_ids: [hook.id],
    });
    const tags = Array.from({ length: SCREENS }, (_, n) => `dock-${String(n).padStart(2, '0')}`);
    for (const tag of tags) await created('/devices', { tag, name: `Dock ${tag}`, group_id: site.id });
    const sockets = await Promise.all(tags.map(comeUp));
    await vi.waitFor(async () => expect(await socketCount()).toBe(SCREENS));

    for (const socket of sockets) cut(socket);
    await vi.waitFor(async () => expect(await socketCount()).toBe(0));
    await clock.advance(SOCKET_GRACE_MS);
    const offline = (await service.call('GET', '/devices')).json<{ tag: string; online: boolean }[]>();
    expect(offline.filter((device) => device.online)).toEqual([]);

    // The rule's minute, the gathering and the passes: one message, however many passes ran.
    await clock.advance(120 * SECOND);
    const fired = receiver.at('/site');
    expect(fired).toHaveLength(1);
    const body = JSON.parse(fired[0]?.body ?? '{}') as { alert: { status: string; devices: string[] } };
    expect(body.alert).toMatchObject({ status: 'firing', devices: tags });

    // Power is back: every screen comes up again. One recovery, naming the same incident.
    await Promise.all(tags.map(comeUp));
    await clock.advance(20 * SECOND);
    const all = receiver.at('/site');
    expect(all).toHaveLength(2);
    expect(JSON.parse(all[1]?.body ?? '{}')).toMatchObject({ alert: { status: 'resolved', devices: tags } });
  });
});
