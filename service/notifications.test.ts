import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventsAfter, lastEventId, startTestService, type TestService } from './test-support';

let service: TestService;
let readonly: string;
let affiliated: string;
/** The service's clock: each notification gets its own instant, so "newest first" is testable. */
let now = new Date('2026-11-21T07:00:00.000Z');
const tick = () => (now = new Date(now.getTime() + 1000));

let channel: { id: string; tag: string };
let flowTag: string;
beforeAll(async () => {
  service = await startTestService({ clock: { now: () => now } });
  readonly = await service.tokenOf('readonly');
  affiliated = await service.tokenOf('affiliated');
  channel = (
    await service.call('POST', '/channels', {
      name: 'Alerts',
      parent_channel_id: 'ch_default',
      tag: 'alerts',
    })
  ).json();
  flowTag = 'alerting-flow';
  await service.call('POST', '/flows', { tag: flowTag, variant: 'value', channel_id: channel.id });
});
afterAll(() => service.close());

interface Notification {
  id: string;
  channel_id: string;
  title: string | null;
  message: string | null;
  icon: string | null;
  duration: number;
  sound_url: string | null;
  created_at: string;
}

async function send(path: string, body: unknown, token?: string): Promise<Notification> {
  tick();
  const response = await service.call('POST', path, body, token);
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

async function listOf(url: string): Promise<Notification[]> {
  const response = await service.call('GET', url);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

describe('sending notifications', () => {
  it('lands in the same channel by channel id, channel tag and flow tag', async () => {
    const byId = await send(`/channels/${channel.id}/notifications`, { title: 'by id', message: 'm' });
    const byTag = await send('/channels/alerts/notifications', { title: 'by tag', message: 'm' });
    const byFlow = await send(`/flows/${flowTag}/notifications`, { title: 'by flow', message: 'm' });
    for (const notification of [byId, byTag, byFlow]) expect(notification.channel_id).toBe(channel.id);
    const listed = await listOf(`/channels/${channel.id}/notifications`);
    expect(listed.map((n) => n.title)).toEqual(['by flow', 'by tag', 'by id']);
  });

  it('answers 201 with the notification: duration 10 by default, empty icon as null', async () => {
    const notification = await send(`/channels/${channel.id}/notifications`, {
      title: 'Deploy',
      message: 'done',
      icon: '',
    });
    expect(notification).toEqual({
      id: expect.stringMatching(/^nt_/),
      channel_id: channel.id,
      target: { channel_id: channel.id },
      title: 'Deploy',
      message: 'done',
      icon: null,
      duration: 10,
      sound_url: null,
      created_at: now.toISOString(),
    });
    const full = await send(`/channels/${channel.id}/notifications`, {
      title: 'Deploy',
      message: 'failed',
      icon: 'fa-bug',
      duration: 1,
      sound_url: 'default',
    });
    expect(full).toMatchObject({ icon: 'fa-bug', duration: 1, sound_url: 'default' });
    const sound = await send(`/channels/${channel.id}/notifications`, {
      sound_url: 'https://example.com/ding.mp3',
    });
    expect(sound).toMatchObject({ title: null, message: null, sound_url: 'https://example.com/ding.mp3' });
  });

  it('accepts 255 characters of title and message', async () => {
    const text = 'x'.repeat(255);
    const notification = await send(`/channels/${channel.id}/notifications`, { title: text, message: text });
    expect(notification.title).toHaveLength(255);
  });

  it('publishes notification.created to its own channel room only', async () => {
    const mark = await lastEventId(service.db);
    const notification = await send('/channels/alerts/notifications', { title: 'evt', message: 'm' });
    const events = await eventsAfter(service.db, mark);
    expect(events).toEqual([
      { type: 'notification.created', payload: { notification }, rooms: [`channel:${channel.id}`] },
    ]);
  });

  it('finds a channel by id before tag', async () => {
    const other = (
      await service.call('POST', '/channels', {
        name: 'Shadow',
        parent_channel_id: 'ch_default',
        tag: channel.id,
      })
    ).json();
    const notification = await send(`/channels/${channel.id}/notifications`, {
      title: 'id wins',
      message: 'm',
    });
    expect(notification.channel_id).toBe(channel.id);
    expect(other.tag).toBe(channel.id);
  });
});

describe('refusing notifications', () => {
  const post = (body: unknown) => service.call('POST', `/channels/${channel.id}/notifications`, body);

  it('applies the presence rule, the 255-character limits and the duration minimum, naming the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ title: 'only a title' }, 'body.message'],
      [{ message: 'only a message' }, 'body.title'],
      [{ title: 'title and sound', sound_url: 'default' }, 'body.message'],
      [{}, 'body'],
      [{ icon: 'bug', duration: 5 }, 'body'],
      [{ title: 'x'.repeat(256), message: 'm' }, 'body.title'],
      [{ title: 't', message: 'x'.repeat(256) }, 'body.message'],
      [{ title: '', message: 'm' }, 'body.title'],
      [{ title: 't', message: 'm', duration: 0 }, 'body.duration'],
      [{ title: 't', message: 'm', duration: 1.5 }, 'body.duration'],
      [{ title: 't', message: 'm', duration: '10s' }, 'body.duration'],
      [{ sound_url: 'http://example.com/ding.mp3' }, 'body.sound_url'],
      [{ title: 't', message: 'm', icon: 'Not An Icon' }, 'body.icon'],
    ];
    for (const [body, path] of cases) {
      const response = await post(body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      const error = response.json().error;
      expect(error.code).toBe('invalid_request');
      expect(
        error.details.map((d: { path: string }) => d.path),
        JSON.stringify(body),
      ).toContain(path);
    }
    expect((await post({ title: 't', message: 'm', colour: 'red' })).statusCode).toBe(400);
  });

  it('answers 404 for an unknown channel or flow, 409 for a flow without a channel', async () => {
    const body = { title: 't', message: 'm' };
    expect((await service.call('POST', '/channels/nowhere/notifications', body)).statusCode).toBe(404);
    expect((await service.call('POST', '/flows/no-such-flow/notifications', body)).statusCode).toBe(404);
    expect((await service.call('GET', '/channels/ch_nope/notifications')).statusCode).toBe(404);
    await service.call('POST', '/flows', { tag: 'channelless', variant: 'value', channel_id: null });
    const response = await service.call('POST', '/flows/channelless/notifications', body);
    expect(response.statusCode).toBe(409);
    expect(response.json().error.code).toBe('conflict');
  });
});

describe('listing and deleting notifications', () => {
  it('lists every channel newest first, with limit and since', async () => {
    const first = await send('/channels/ch_default/notifications', { title: 'default 1', message: 'm' });
    const second = await send('/channels/alerts/notifications', { title: 'alerts 1', message: 'm' });
    const third = await send('/channels/default/notifications', { title: 'default 2', message: 'm' });
    const all = await listOf('/notifications');
    expect(all.slice(0, 3).map((n) => n.id)).toEqual([third.id, second.id, first.id]);
    const times = all.map((n) => n.created_at);
    expect([...times].sort().reverse()).toEqual(times);

    expect((await listOf('/notifications?limit=2')).map((n) => n.id)).toEqual([third.id, second.id]);
    expect((await listOf(`/notifications?since=${first.created_at}`)).map((n) => n.id)).toEqual([
      third.id,
      second.id,
    ]);
    expect(
      (await listOf(`/channels/ch_default/notifications?since=${first.created_at}`)).map((n) => n.id),
    ).toEqual([third.id]);
    expect((await listOf('/channels/ch_default/notifications?limit=1')).map((n) => n.id)).toEqual([third.id]);
  });

  it('keeps the default list at 100 and refuses bad limit and since', async () => {
    for (let i = 0; i < 101; i++) {
      tick();
      await service.db.kysely
        .insertInto('notifications')
        .values({
          id: `nt_bulk_${i}`,
          channel_id: 'ch_default',
          title: 'bulk',
          message: 'm',
          duration: 10,
          created_at: now.toISOString(),
        })
        .execute();
    }
    expect(await listOf('/notifications')).toHaveLength(100);
    expect((await listOf('/notifications?limit=500')).length).toBeGreaterThan(101);
    for (const query of ['limit=0', 'limit=501', 'limit=abc', 'limit=1.5']) {
      const response = await service.call('GET', `/notifications?${query}`);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().error.details[0].path).toBe('querystring.limit');
    }
    const since = await service.call('GET', '/notifications?since=yesterday');
    expect(since.statusCode).toBe(400);
    expect(since.json().error.details[0].path).toBe('querystring.since');
  });

  it('deletes a notification', async () => {
    const notification = await send('/channels/alerts/notifications', { title: 'gone', message: 'm' });
    const response = await service.call('DELETE', `/notifications/${notification.id}`);
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect((await listOf('/notifications?limit=500')).map((n) => n.id)).not.toContain(notification.id);
    expect((await service.call('DELETE', `/notifications/${notification.id}`)).statusCode).toBe(404);
  });
});

describe('notification permissions', () => {
  const body = { title: 't', message: 'm' };

  it('lets readonly tokens read, and refuses every write with 403', async () => {
    const notification = await send('/channels/alerts/notifications', body);
    expect((await service.call('GET', '/notifications', undefined, readonly)).statusCode).toBe(200);
    expect(
      (await service.call('GET', '/channels/ch_default/notifications', undefined, readonly)).statusCode,
    ).toBe(200);
    expect((await service.call('POST', '/channels/alerts/notifications', body, readonly)).statusCode).toBe(
      403,
    );
    expect((await service.call('POST', `/flows/${flowTag}/notifications`, body, readonly)).statusCode).toBe(
      403,
    );
    expect(
      (await service.call('DELETE', `/notifications/${notification.id}`, undefined, readonly)).statusCode,
    ).toBe(403);
  });

  it('lets affiliated tokens send notifications but not delete them', async () => {
    const byChannel = await send('/channels/alerts/notifications', body, affiliated);
    const byFlow = await send(`/flows/${flowTag}/notifications`, body, affiliated);
    expect(byFlow.channel_id).toBe(byChannel.channel_id);
    expect((await service.call('GET', '/notifications', undefined, affiliated)).statusCode).toBe(200);
    expect(
      (await service.call('DELETE', `/notifications/${byChannel.id}`, undefined, affiliated)).statusCode,
    ).toBe(403);
  });
});
