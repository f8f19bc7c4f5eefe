import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RealtimeEvent } from '../src/shared/events';
import type { Notification } from '../src/shared/notification';
import { multipart } from './testing/multipart';
import { clientsOf, hello, listen, type Client } from './testing/realtime-clients';
import {
  ADMIN_SECRET,
  lastEventId,
  startTestService,
  type AccountCall,
  type TestService,
} from './test-support';

// POST /notifications to every screen, a group or one screen, through the real service and real
// sockets: screens "lobby-a" and "lobby-b" in the group Lobby, "kitchen" in Kitchen, "loose" in
// none; another account has a screen "lobby-a" of its own in a group of its own.

let service: TestService;
let other: { id: string; token: string; call: AccountCall };
let url: string;
const clients = clientsOf(() => url);
/** The service's clock runs with the real one, `skew` ms ahead: a test moves it on. */
let skew = 0;
const groups = { lobby: '', kitchen: '', others: '' };

async function made(call: AccountCall, path: string, body: unknown): Promise<string> {
  const response = await call('POST', path, body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ id: string }>().id;
}

const admin: AccountCall = (method, path, body) => service.call(method, path, body);

beforeAll(async () => {
  service = await startTestService({ clock: { now: () => new Date(Date.now() + skew) } });
  other = await service.addAccount('Other');
  groups.lobby = await made(admin, '/groups', { name: 'Lobby' });
  groups.kitchen = await made(admin, '/groups', { name: 'Kitchen' });
  groups.others = await made(other.call, '/groups', { name: 'Lobby of the other account' });
  // One board of the default channel, so that a channel's notification has screens too.
  const board = await made(admin, '/boards', { name: 'Ops', channel_ids: ['ch_default'] });
  const playlist = await made(admin, '/playlists', {
    name: 'Loop',
    items: [{ type: 'board', board_id: board, duration: 10 }],
  });
  for (const [tag, group] of [
    ['lobby-a', groups.lobby],
    ['lobby-b', groups.lobby],
    ['kitchen', groups.kitchen],
    ['loose', null],
  ] as const) {
    await made(admin, '/devices', { tag, group_id: group, playlist_id: playlist });
  }
  await made(other.call, '/devices', { tag: 'lobby-a', group_id: groups.others });
  url = await listen(service);
});
afterEach(() => clients.closeAll());
afterAll(() => service.close());

async function send(body: unknown, call: AccountCall = admin): Promise<Notification> {
  const response = await call('POST', '/notifications', body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

/** A screen's socket, said hello as `tag`, and every notification it hears. */
async function screen(tag: string, token?: string): Promise<{ client: Client; titles: string[] }> {
  const client = clients.open(token);
  const titles: string[] = [];
  client.on('event', (event: RealtimeEvent) => {
    if (event.type === 'notification.created') titles.push(event.notification.title ?? '');
  });
  const ack = await hello(client, null, tag);
  expect(ack.error).toBeUndefined();
  return { client, titles };
}

describe('POST /notifications: what it refuses', () => {
  it('answers every bad target with 400 naming the field, and stores and tells nothing', async () => {
    const listed = (await service.call('GET', '/notifications')).json<unknown[]>().length;
    const mark = await lastEventId(service.db);
    const text = { title: 'Refused', message: 'm' };
    const cases: [unknown, string][] = [
      [text, 'body.target'],
      [{ ...text, target: {} }, 'body.target'],
      [{ ...text, target: { all: false } }, 'body.target'],
      [{ ...text, target: { all: true, group_id: groups.lobby } }, 'body.target'],
      [{ ...text, target: 'everyone' }, 'body.target'],
      [{ ...text, target: { group_id: '' } }, 'body.target.group_id'],
      [{ ...text, target: { device_tag: 'not a tag!' } }, 'body.target.device_tag'],
      [{ ...text, target: { group_id: 'g_nothing' } }, 'body.target.group_id'],
      // Another account's group is not there for this one.
      [{ ...text, target: { group_id: groups.others } }, 'body.target.group_id'],
      [{ ...text, target: { device_tag: 'nowhere' } }, 'body.target.device_tag'],
      [{ ...text, target: { channel_id: 'no-such-channel' } }, 'body.target.channel_id'],
      [{ title: 'Only a title', target: { all: true } }, 'body.message'],
      [{ ...text, duration: 0, target: { all: true } }, 'body.duration'],
      [{ ...text, target: { all: true }, colour: 'red' }, 'body.colour'],
    ];
    for (const [body, path] of cases) {
      const response = await service.call('POST', '/notifications', body);
      const where = `${JSON.stringify(body)}: ${response.body}`;
      expect(response.statusCode, where).toBe(400);
      const paths = response
        .json<{ error: { details: { path: string }[] } }>()
        .error.details.map((d) => d.path);
      expect(paths, where).toContain(path);
    }
    // Nor is this account's group the other account's to use.
    expect(
      (await other.call('POST', '/notifications', { ...text, target: { group_id: groups.lobby } }))
        .statusCode,
    ).toBe(400);
    expect((await service.call('GET', '/notifications')).json<unknown[]>()).toHaveLength(listed);
    expect(await lastEventId(service.db)).toBe(mark);
  });

  it('needs notifications:write, as the channel route: a readonly token gets 403', async () => {
    const readonly = await service.tokenOf('readonly');
    const body = { title: 'Not yours', message: 'm', target: { all: true } };
    expect((await service.call('POST', '/notifications', body, readonly)).statusCode).toBe(403);
    expect((await service.call('POST', '/notifications', body, null)).statusCode).toBe(401);
    const affiliated = await service.tokenOf('affiliated');
    expect((await service.call('POST', '/notifications', body, affiliated)).statusCode).toBe(201);
  });

  it("lets a screen's own token reach itself and its group, not another group nor every screen", async () => {
    const own = await screenToken('lobby-a');
    const as = (target: unknown) =>
      service.call('POST', '/notifications', { title: 'From lobby-a', message: 'm', target }, own);
    expect((await as({ all: true })).statusCode).toBe(403);
    const kitchen = await as({ group_id: groups.kitchen });
    expect(kitchen.statusCode).toBe(400);
    expect(kitchen.json().error.details[0].path).toBe('body.target.group_id');
    expect((await as({ device_tag: 'kitchen' })).statusCode).toBe(400);
    expect((await as({ group_id: groups.lobby })).statusCode).toBe(201);
    expect((await as({ device_tag: 'lobby-a' })).statusCode).toBe(201);
    // It lists what reaches its screen: its group's, its own, every screen's; not the kitchen's.
    const kitchens = await send({
      title: 'Kitchen only',
      message: 'm',
      target: { group_id: groups.kitchen },
    });
    const listed = (await service.call('GET', '/notifications?limit=500', undefined, own)).json<
      Notification[]
    >();
    expect(listed.map((n) => n.id)).not.toContain(kitchens.id);
    expect(listed.map((n) => n.target)).toEqual(
      expect.arrayContaining([{ group_id: groups.lobby }, { device_tag: 'lobby-a' }, { all: true }]),
    );
    expect(listed.every((n) => n.channel_id === null || n.channel_id === 'ch_default')).toBe(true);
  });
});

/** A token bound to the screen `tag`: what the screen itself holds. */
async function screenToken(tag: string): Promise<string> {
  const response = await service.call('POST', '/account/tokens', { scope: 'affiliated', device_tag: tag });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ token: string }>().token;
}

describe('a library sound of a notification to screens', () => {
  it('is there for the screens it reaches, to cache, and for no other screen', async () => {
    // An MPEG audio frame's header, then noise: the library tells a sound by its content.
    const mp3 = Buffer.concat([Buffer.from([0xff, 0xfb, 0x90, 0x64]), Buffer.alloc(600, 7)]);
    const body = multipart([{ name: 'file', filename: 'gong.mp3', type: 'audio/mpeg', content: mp3 }]);
    const uploaded = await service.app.inject({
      method: 'POST',
      url: '/media',
      headers: { ...body.headers, authorization: `Bearer ${ADMIN_SECRET}` },
      payload: body.payload,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const sound = uploaded.json<{ id: string; url: string }>();
    await send({ title: 'Gong', message: 'm', sound_url: sound.url, target: { group_id: groups.kitchen } });
    const kitchen = await screenToken('kitchen');
    const lobby = await screenToken('lobby-b');
    expect((await service.call('GET', sound.url, undefined, kitchen)).statusCode).toBe(200);
    expect((await service.call('GET', sound.url, undefined, lobby)).statusCode).toBe(404);
  });
});

describe('POST /notifications: where it goes', () => {
  it('answers 201 with the notification and its target; GET /notifications lists every kind', async () => {
    const toGroup = await send({
      title: 'Group',
      message: 'm',
      icon: 'bug',
      target: { group_id: groups.lobby },
    });
    expect(toGroup).toMatchObject({
      channel_id: null,
      target: { group_id: groups.lobby },
      title: 'Group',
      icon: 'bug',
      duration: 10,
    });
    const toAll = await send({ title: 'All', message: 'm', target: { all: true } });
    const toOne = await send({ sound_url: 'default', target: { device_tag: 'kitchen' } });
    const byTag = await send({ title: 'Channel', message: 'm', target: { channel_id: 'default' } });
    expect(byTag).toMatchObject({ channel_id: 'ch_default', target: { channel_id: 'ch_default' } });
    const viaRoute = await service.call('POST', '/channels/ch_default/notifications', {
      title: 'Old',
      message: 'm',
    });
    expect(viaRoute.json()).toMatchObject({ channel_id: 'ch_default', target: { channel_id: 'ch_default' } });

    const listed = (await service.call('GET', '/notifications')).json<Notification[]>();
    const byId = new Map(listed.map((n) => [n.id, n]));
    expect(byId.get(toAll.id)?.target).toEqual({ all: true });
    expect(byId.get(toOne.id)?.target).toEqual({ device_tag: 'kitchen' });
    expect(byId.get(toGroup.id)?.target).toEqual({ group_id: groups.lobby });
    // A channel's list holds its own only.
    const ofChannel = (await service.call('GET', '/channels/ch_default/notifications')).json<
      Notification[]
    >();
    expect(ofChannel.length).toBeGreaterThan(0);
    expect(ofChannel.every((n) => n.channel_id === 'ch_default')).toBe(true);
    // Another account lists none of them.
    expect((await other.call('GET', '/notifications')).json<unknown[]>()).toEqual([]);
  });

  it("reaches a group's screens live, and no other screen of either account", async () => {
    const a = await screen('lobby-a');
    const b = await screen('lobby-b');
    const kitchen = await screen('kitchen');
    const loose = await screen('loose');
    const theirs = await screen('lobby-a', other.token);
    const everyone = [a, b, kitchen, loose, theirs];

    const sent = Date.now();
    await send({ title: 'Lobby closes at six', message: 'm', target: { group_id: groups.lobby } });
    for (const shown of [a, b]) {
      await expect.poll(() => shown.titles, { timeout: 1000, interval: 10 }).toContain('Lobby closes at six');
    }
    expect(Date.now() - sent).toBeLessThan(1000);

    await send({ title: 'Kitchen', message: 'm', target: { device_tag: 'kitchen' } });
    await send({ title: 'Every screen', message: 'm', target: { all: true } });
    await send({ title: 'Theirs', message: 'm', target: { all: true } }, other.call);
    // Events reach a socket in the order of their ids: once the last has come, the others had.
    for (const shown of [a, b, kitchen, loose]) {
      await expect.poll(() => shown.titles).toContain('Every screen');
    }
    await expect.poll(() => theirs.titles).toContain('Theirs');
    expect(a.titles).toEqual(['Lobby closes at six', 'Every screen']);
    expect(b.titles).toEqual(['Lobby closes at six', 'Every screen']);
    expect(kitchen.titles).toEqual(['Kitchen', 'Every screen']);
    expect(loose.titles).toEqual(['Every screen']);
    expect(theirs.titles).toEqual(['Theirs']);
    for (const { client } of everyone) client.disconnect();
  });

  it('follows a screen into the group it joins', async () => {
    const loose = await screen('loose');
    expect((await service.call('PATCH', '/devices/loose', { group_id: groups.kitchen })).statusCode).toBe(
      200,
    );
    // The move is told to its socket with device.changed; it is in the group's room after it.
    await expect
      .poll(async () => (await service.app.realtime.in(`group:${groups.kitchen}`).fetchSockets()).length)
      .toBe(1);
    await send({ title: 'Now in the kitchen', message: 'm', target: { group_id: groups.kitchen } });
    await expect.poll(() => loose.titles).toContain('Now in the kitchen');
    await service.call('PATCH', '/devices/loose', { group_id: null });
  });
});

describe('a screen that was away', () => {
  it("is not replayed a channel's notification whose time on screen is over", async () => {
    const away = clients.open();
    const { last_event_id: seen } = await hello(away, null, 'kitchen');
    away.disconnect();
    const sent = await service.call('POST', '/channels/ch_default/notifications', {
      title: 'Over',
      message: 'm',
      duration: 2,
    });
    expect(sent.statusCode).toBe(201);
    skew += 3_000;
    const ack = await hello(clients.open(), seen, 'kitchen');
    expect(ack.resync).toBe(false);
    expect(ack.events.filter((e) => e.type === 'notification.created')).toEqual([]);
  });

  it('is replayed a notification still in its time, and not one whose time is over', async () => {
    const away = clients.open();
    const { last_event_id: seen } = await hello(away, null, 'lobby-b');
    away.disconnect();
    const fresh = await send({
      title: 'Fresh',
      message: 'm',
      duration: 30,
      target: { group_id: groups.lobby },
    });
    const back = clients.open();
    const ack = await hello(back, seen, 'lobby-b');
    expect(ack.resync).toBe(false);
    expect(ack.events.flatMap((e) => (e.type === 'notification.created' ? [e.notification.id] : []))).toEqual(
      [fresh.id],
    );
    back.disconnect();

    // Away for longer than they are on screen: neither the group's nor a channel's is shown late.
    const mark = ack.last_event_id;
    await send({ title: 'Stale', message: 'm', duration: 5, target: { group_id: groups.lobby } });
    await service.call('POST', '/channels/ch_default/notifications', {
      title: 'Stale too',
      message: 'm',
      duration: 5,
    });
    skew += 6_000;
    const later = clients.open();
    const late = await hello(later, mark, 'lobby-b');
    expect(late.resync).toBe(false);
    expect(late.events.filter((e) => e.type === 'notification.created')).toEqual([]);
    // Covered by the last id answered, so they never come afterwards either.
    expect(late.last_event_id).toBe(await lastEventId(service.db));
  });
});
