import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Board } from '../src/shared/board';
import type { Media } from '../src/shared/media';
import type { Playlist } from '../src/shared/playlist';
import { resolveItem } from '../renderer/src/player/resolve-item';
import { cacheNameOf } from '../src/agent/media-urls';
import { eventsAfter, lastEventId, startTestService, type TestService } from './test-support';
import { multipart } from './testing/multipart';
import { solidPng } from './testing/png';

// Tags, renaming, replacing a file under its id, and expiry (docs/api/media.md), on the store
// the run chose (SQLite, or PostgreSQL under .ci/with-postgres.sh).

const ADMIN = 'Bearer test-admin-secret-0123456789';
let service: TestService;
let mediaDir: string;

beforeAll(async () => {
  mediaDir = await mkdtemp(join(tmpdir(), 'wallboard-media-organisation-'));
  service = await startTestService({ config: { mediaDir } });
});

afterAll(async () => {
  await service.close();
  await rm(mediaDir, { recursive: true, force: true });
});

function send(method: 'POST' | 'PUT', url: string, content: Buffer, filename = 'poster.png') {
  const body = multipart([{ name: 'file', filename, type: 'image/png', content }]);
  return service.app.inject({
    method,
    url,
    headers: { ...body.headers, authorization: ADMIN },
    payload: body.payload,
  });
}

async function uploaded(content: Buffer, filename = 'poster.png'): Promise<Media> {
  const response = await send('POST', '/media', content, filename);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Media>();
}

const patch = (id: string, body: unknown) => service.call('PATCH', `/media/${id}`, body);

async function playlistWith(media: Media): Promise<Playlist> {
  const created = await service.call('POST', '/playlists', {
    name: `Shows ${media.name}`,
    // The URL the library lists; the service stores the versioned one.
    items: [{ type: 'image', url: media.url, duration: 5 }],
  });
  expect(created.statusCode, created.body).toBe(201);
  return created.json<Playlist>();
}

const itemUrl = async (playlistId: string): Promise<string> => {
  const playlist = (await service.call('GET', `/playlists/${playlistId}`)).json<Playlist>();
  const item = playlist.items[0];
  if (!item || item.type === 'board') throw new Error('the playlist lost its image');
  return item.url;
};

describe('tags and names', () => {
  it('renames and tags a medium, tags told apart as people read them', async () => {
    const media = await uploaded(solidPng(3, 3, 1));
    expect(media).toMatchObject({ tags: [], expires_at: null });
    const changed = await patch(media.id, { name: '  Lobby poster ', tags: ['Lobby', 'lobby', ' winter '] });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json<Media>()).toMatchObject({
      id: media.id,
      name: 'Lobby poster',
      tags: ['Lobby', 'winter'],
    });
    const listed = (await service.call('GET', '/media')).json<Media[]>().find((m) => m.id === media.id);
    expect(listed).toMatchObject({ name: 'Lobby poster', tags: ['Lobby', 'winter'] });
    // Only what is sent changes.
    expect((await patch(media.id, { tags: [] })).json<Media>()).toMatchObject({
      name: 'Lobby poster',
      tags: [],
    });
  });

  it('refuses bad input with a 400 naming the field, and an unknown medium with a 404', async () => {
    const media = await uploaded(solidPng(3, 3, 2));
    const cases: [unknown, string][] = [
      [{ name: '' }, 'name'],
      [{ name: 'a\u0007b' }, 'name'],
      [{ tags: 'lobby' }, 'tags'],
      [{ tags: ['ok', 'a,b'] }, 'tags.1'],
      [{ tags: ['x'.repeat(41)] }, 'tags.0'],
      [{ tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }, 'tags'],
      [{ expires_at: 'tomorrow' }, 'expires_at'],
      [{ colour: 'red' }, ''],
    ];
    for (const [body, path] of cases) {
      const refused = await patch(media.id, body);
      expect(refused.statusCode, JSON.stringify(body)).toBe(400);
      const paths = refused
        .json<{ error: { details: { path: string }[] } }>()
        .error.details.map((d) => d.path);
      expect(
        paths.some((p) => p.endsWith(path) || (path === '' && p.startsWith('body'))),
        paths.join(),
      ).toBe(true);
    }
    expect((await patch('med_nothere', { name: 'x' })).statusCode).toBe(404);
  });
});

describe('replacing a file', () => {
  it('keeps the id, changes the version playlists and boards name, and tells the screens', async () => {
    const first = solidPng(4, 4, 3);
    const media = await uploaded(first);
    const playlist = await playlistWith(media);
    const board = await service.call('POST', '/boards', { name: 'Hall', background_url: media.url });
    expect(board.statusCode, board.body).toBe(201);
    const before = await itemUrl(playlist.id);
    expect(before).toBe(`/media/${media.id}/content?v=${media.sha256.slice(0, 16)}`);

    const mark = await lastEventId(service.db);
    const second = solidPng(8, 8, 4);
    const replaced = await send('PUT', `/media/${media.id}/content`, second, 'poster-v2.png');
    expect(replaced.statusCode, replaced.body).toBe(200);
    const after = replaced.json<Media>();
    expect(after).toMatchObject({ id: media.id, name: media.name, bytes: second.length });
    expect(after.sha256).not.toBe(media.sha256);

    // The screens hear of the playlist and the board, and find a new URL: their caches, keyed
    // by URL, fetch the new file (and the old one is evicted in time).
    const events = await eventsAfter(service.db, mark);
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['playlist.changed', 'board.changed']));
    const now = await itemUrl(playlist.id);
    expect(now).toBe(after.play_url);
    expect(cacheNameOf(now)).not.toBe(cacheNameOf(before));
    const hall = (await service.call('GET', `/boards/${board.json<Board>().id}`)).json<Board>();
    expect(hall.background_url).toBe(after.play_url);

    // That URL serves the new bytes for ever; the plain one is checked each time.
    const fetched = await service.app.inject({ method: 'GET', url: now, headers: { authorization: ADMIN } });
    expect(fetched.rawPayload.equals(second)).toBe(true);
    expect(fetched.headers['cache-control']).toContain('immutable');
    const plain = await service.app.inject({
      method: 'GET',
      url: media.url,
      headers: { authorization: ADMIN },
    });
    expect(plain.headers['cache-control']).toBe('private, no-cache');
    expect(plain.headers.etag).toBe(`"${after.sha256}"`);
  });

  it('refuses a file of another kind, naming the field, and keeps the old one', async () => {
    const media = await uploaded(solidPng(4, 4, 5));
    const mp3 = Buffer.concat([Buffer.from([0xff, 0xfb, 0x90, 0x64]), Buffer.alloc(400, 7)]);
    const refused = await send('PUT', `/media/${media.id}/content`, mp3, 'ding.mp3');
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json<{ error: { details: { path: string }[] } }>().error.details[0]?.path).toBe('file');
    expect((await service.call('GET', `/media/${media.id}`)).json<Media>().sha256).toBe(media.sha256);
    expect((await send('PUT', '/media/med_nothere/content', solidPng(2, 2, 1))).statusCode).toBe(404);
  });
});

describe('expiry', () => {
  it('puts the expiry into what screens get, and a screen stops playing it then by its own clock', async () => {
    const media = await uploaded(solidPng(5, 5, 6));
    const playlist = await playlistWith(media);
    const mark = await lastEventId(service.db);
    const expires = '2030-01-02T03:04:05.000Z';
    const set = await patch(media.id, { expires_at: '2030-01-02T04:04:05+01:00' });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json<Media>().expires_at).toBe(expires);
    expect((await eventsAfter(service.db, mark, 'playlist.changed')).length).toBe(1);

    const url = await itemUrl(playlist.id);
    expect(url).toBe(`${media.url}?v=${media.sha256.slice(0, 16)}&until=${Date.parse(expires) / 1000}`);
    const item = (await service.call('GET', `/playlists/${playlist.id}`)).json<Playlist>().items[0];
    if (!item) throw new Error('no item');
    const state = { boards: {}, media: { [url]: 'file:///cache/poster.png' } };
    expect(resolveItem(item, state, Date.parse(expires) - 1000)).toHaveProperty('view');
    expect(resolveItem(item, state, Date.parse(expires))).toEqual({
      skip: `image ${url} expired at ${expires}`,
    });

    // Cleared: it plays again, and a playlist saved with the plain URL gets the current one.
    await patch(media.id, { expires_at: null });
    expect(await itemUrl(playlist.id)).toBe(`${media.url}?v=${media.sha256.slice(0, 16)}`);
  });
});
