import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boardCreateSchema } from '../src/shared/board';
import { defaultChannelId } from './accounts/accounts';
import { toJson } from './db/dialect';
import { eventsAfter, lastEventId as lastLoggedId, startTestService, type TestService } from './test-support';

let service: TestService;
let current = new Date('2026-11-21T07:00:00.000Z');
const clock = { now: () => current };

beforeAll(async () => {
  service = await startTestService({ clock });
  await insertBoard('b_lobby', 'Lobby');
  await insertBoard('b_sales', 'Sales');
});
afterAll(() => service.close());

/** Boards are another route's work; a raw row is all a playlist needs of one. */
async function insertBoard(id: string, name: string): Promise<void> {
  const { name: _name, ...settings } = boardCreateSchema.parse({ name });
  await service.db.kysely
    .insertInto('boards')
    .values({ id, name, settings: toJson(settings) })
    .execute();
}

interface EventRow {
  type: string;
  rooms: string[];
  payload: Record<string, unknown>;
}

const lastEventId = () => lastLoggedId(service.db);
const eventsSince = (mark: number): Promise<EventRow[]> => eventsAfter(service.db, mark);

const playlistChanged = (id: string): EventRow => ({
  type: 'playlist.changed',
  rooms: [`playlist:${id}`],
  payload: { playlist_id: id },
});

async function createPlaylist(body: Record<string, unknown>) {
  const response = await service.call('POST', '/playlists', body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

describe('playlist resources', () => {
  it('creates a playlist with its items and defaults, and publishes nothing', async () => {
    const mark = await lastEventId();
    current = new Date('2026-11-21T07:05:00.000Z');
    const created = await createPlaylist({
      name: ' Lobby loop ',
      items: [
        { type: 'board', board_id: 'b_lobby', duration: 30 },
        { type: 'board', board_id: 'b_sales', channel_id: defaultChannelId(), duration: 60 },
        { type: 'image', url: 'https://example.com/a.png', duration: 10 },
        { type: 'video', url: 'https://example.com/v.mp4' },
      ],
    });
    expect(created).toEqual({
      id: expect.stringMatching(/^pl_/),
      name: 'Lobby loop',
      items: [
        { type: 'board', board_id: 'b_lobby', channel_id: null, duration: 30 },
        { type: 'board', board_id: 'b_sales', channel_id: defaultChannelId(), duration: 60 },
        { type: 'image', url: 'https://example.com/a.png', fit: 'fit', duration: 10 },
        { type: 'video', url: 'https://example.com/v.mp4', muted: true, duration: null },
      ],
      updated_at: '2026-11-21T07:05:00.000Z',
    });
    expect(await eventsSince(mark)).toEqual([]);

    const got = await service.call('GET', `/playlists/${created.id}`);
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual(created);
    const list = await service.call('GET', '/playlists');
    expect(list.statusCode).toBe(200);
    expect(list.json()).toContainEqual(created);
  });

  it('starts empty without items', async () => {
    expect((await createPlaylist({ name: 'Empty' })).items).toEqual([]);
  });

  it('answers 400 naming the item to a board or channel that does not exist', async () => {
    const response = await service.call('POST', '/playlists', {
      name: 'Broken',
      items: [
        { type: 'image', url: 'https://example.com/a.png', duration: 10 },
        { type: 'board', board_id: 'b_missing', duration: 30 },
        { type: 'board', board_id: 'b_lobby', channel_id: 'ch_missing', duration: 30 },
        { type: 'board', board_id: 'b_gone', channel_id: 'ch_gone', duration: 30 },
      ],
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({
      code: 'invalid_request',
      details: [
        { path: 'body.items.1.board_id', message: 'board b_missing does not exist' },
        { path: 'body.items.2.channel_id', message: 'channel ch_missing does not exist' },
        { path: 'body.items.3.board_id', message: 'board b_gone does not exist' },
        { path: 'body.items.3.channel_id', message: 'channel ch_gone does not exist' },
      ],
    });
    const names = ((await service.call('GET', '/playlists')).json() as { name: string }[]).map((p) => p.name);
    expect(names).not.toContain('Broken');
  });

  it('refuses bad bodies with details naming the field', async () => {
    const cases: [unknown, string][] = [
      [{}, 'body.name'],
      [{ name: '   ' }, 'body.name'],
      [{ name: 'x', items: [{ type: 'audio', url: 'https://example.com/a.mp3' }] }, 'body.items.0.type'],
      [{ name: 'x', items: [{ type: 'board', board_id: 'b_lobby', duration: 0 }] }, 'body.items.0.duration'],
      [
        { name: 'x', items: [{ type: 'image', url: 'ftp://example.com/a.png', duration: 5 }] },
        'body.items.0.url',
      ],
      [{ name: 'x', colour: 'red' }, 'body.colour'],
    ];
    for (const [body, path] of cases) {
      const response = await service.call('POST', '/playlists', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().error.details[0].path, JSON.stringify(body)).toBe(path);
    }
  });

  it('answers 404 to an unknown playlist, and 400 to an id that cannot be one', async () => {
    const tooLong = await service.call('GET', `/playlists/${'x'.repeat(65)}`);
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().error.details[0].path).toBe('params.id');
    for (const [method, body] of [['GET'], ['PATCH', { name: 'x' }], ['PATCH', {}], ['DELETE']] as const) {
      const response = await service.call(method, '/playlists/pl_nope', body);
      expect(response.statusCode, method).toBe(404);
      expect(response.json().error).toMatchObject({
        code: 'not_found',
        message: 'playlist pl_nope not found',
      });
    }
  });
});

describe('playlist updates', () => {
  it('renames keeping the items, replaces items as a whole, and publishes each change', async () => {
    current = new Date('2026-11-21T08:00:00.000Z');
    const created = await createPlaylist({
      name: 'Sales loop',
      items: [
        { type: 'board', board_id: 'b_sales', duration: 30 },
        { type: 'image', url: 'https://example.com/a.png', duration: 10 },
      ],
    });
    const mark = await lastEventId();

    current = new Date('2026-11-21T08:10:00.000Z');
    const renamed = await service.call('PATCH', `/playlists/${created.id}`, { name: 'Sales' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toEqual({ ...created, name: 'Sales', updated_at: '2026-11-21T08:10:00.000Z' });

    current = new Date('2026-11-21T08:20:00.000Z');
    const replaced = await service.call('PATCH', `/playlists/${created.id}`, {
      items: [{ type: 'board', board_id: 'b_lobby', duration: 15 }],
    });
    expect(replaced.json()).toEqual({
      id: created.id,
      name: 'Sales',
      items: [{ type: 'board', board_id: 'b_lobby', channel_id: null, duration: 15 }],
      updated_at: '2026-11-21T08:20:00.000Z',
    });

    const emptied = await service.call('PATCH', `/playlists/${created.id}`, { items: [] });
    expect(emptied.json().items).toEqual([]);

    // An empty patch changes nothing, not even updated_at, and tells nobody.
    current = new Date('2026-11-21T08:30:00.000Z');
    const untouched = await service.call('PATCH', `/playlists/${created.id}`, {});
    expect(untouched.statusCode).toBe(200);
    expect(untouched.json()).toEqual(emptied.json());
    expect(await eventsSince(mark)).toEqual([
      playlistChanged(created.id),
      playlistChanged(created.id),
      playlistChanged(created.id),
    ]);
  });

  it('checks replaced items like new ones and leaves the playlist as it was', async () => {
    const created = await createPlaylist({
      name: 'Kept',
      items: [{ type: 'board', board_id: 'b_lobby', duration: 5 }],
    });
    const mark = await lastEventId();
    const response = await service.call('PATCH', `/playlists/${created.id}`, {
      items: [
        { type: 'board', board_id: 'b_lobby', duration: 5 },
        { type: 'board', board_id: 'b_lobby', channel_id: 'ch_missing', duration: 5 },
      ],
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.details).toEqual([
      { path: 'body.items.1.channel_id', message: 'channel ch_missing does not exist' },
    ]);
    expect((await service.call('GET', `/playlists/${created.id}`)).json()).toEqual(created);
    expect(await eventsSince(mark)).toEqual([]);
  });
});

describe('playlist deletion', () => {
  it("clears the devices' playlist, publishes each of them and the playlist, and answers 204", async () => {
    const doomed = await createPlaylist({ name: 'Doomed' });
    const kept = await createPlaylist({ name: 'Kept for others' });
    for (const [tag, playlist_id] of [
      ['screen-a', doomed.id],
      ['screen-b', doomed.id],
      ['screen-c', kept.id],
    ]) {
      expect((await service.call('POST', '/devices', { tag, playlist_id })).statusCode).toBe(201);
    }
    const mark = await lastEventId();

    const response = await service.call('DELETE', `/playlists/${doomed.id}`);
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect((await service.call('GET', `/playlists/${doomed.id}`)).statusCode).toBe(404);
    expect((await service.call('GET', '/devices/screen-a')).json().playlist_id).toBeNull();
    expect((await service.call('GET', '/devices/screen-b')).json().playlist_id).toBeNull();
    expect((await service.call('GET', '/devices/screen-c')).json().playlist_id).toBe(kept.id);
    expect((await service.call('GET', '/devices/screen-a/playlist')).statusCode).toBe(404);

    expect(await eventsSince(mark)).toEqual([
      { type: 'device.changed', rooms: ['device:screen-a'], payload: { device_tag: 'screen-a' } },
      { type: 'device.changed', rooms: ['device:screen-b'], payload: { device_tag: 'screen-b' } },
      playlistChanged(doomed.id),
    ]);
    expect((await service.call('DELETE', `/playlists/${doomed.id}`)).statusCode).toBe(404);
  });
});

describe('playlist permissions', () => {
  it('lets readonly and affiliated tokens read, and refuses them every write with 403', async () => {
    const created = await createPlaylist({ name: 'Guarded' });
    for (const scope of ['readonly', 'affiliated'] as const) {
      const token = await service.tokenOf(scope);
      expect((await service.call('GET', '/playlists', undefined, token)).statusCode, scope).toBe(200);
      expect(
        (await service.call('GET', `/playlists/${created.id}`, undefined, token)).statusCode,
        scope,
      ).toBe(200);
      const writes: [string, string, unknown?][] = [
        ['POST', '/playlists', { name: `by ${scope}` }],
        ['PATCH', `/playlists/${created.id}`, { name: `by ${scope}` }],
        ['DELETE', `/playlists/${created.id}`],
      ];
      for (const [method, url, body] of writes) {
        const response = await service.call(method as 'POST', url, body, token);
        expect(response.statusCode, `${scope} ${method} ${url}`).toBe(403);
        expect(response.json().error.code).toBe('forbidden');
      }
    }
    expect((await service.call('GET', `/playlists/${created.id}`)).json()).toEqual(created);
  });

  it('answers 401 without a token', async () => {
    expect((await service.call('GET', '/playlists', undefined, null)).statusCode).toBe(401);
  });
});
