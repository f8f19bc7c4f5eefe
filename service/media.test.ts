import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Media } from '../src/shared/media';
import type { Playlist } from '../src/shared/playlist';
import { CHUNK_BYTES } from './media/postgres-storage';
import { eventsAfter, lastEventId, startTestService, type TestService } from './test-support';
import { multipart, type Part } from './testing/multipart';
import { solidPng } from './testing/png';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** An MP3 as file-type tells one: an MPEG audio frame header, then `bytes` of anything. */
function mp3(bytes: number): Buffer {
  return Buffer.concat([Buffer.from([0xff, 0xfb, 0x90, 0x64]), randomBytes(bytes)]);
}

const MAX_BYTES = 3 * CHUNK_BYTES;

let service: TestService;
let mediaDir: string;

beforeAll(async () => {
  mediaDir = await mkdtemp(join(tmpdir(), 'wallboard-media-test-'));
  service = await startTestService({ config: { mediaMaxBytes: MAX_BYTES, mediaDir } });
});

afterAll(async () => {
  await service.close();
  await rm(mediaDir, { recursive: true, force: true });
});

function upload(
  parts: readonly Part[],
  token = 'test-admin-secret-0123456789',
): Promise<LightMyRequestResponse> {
  const body = multipart(parts);
  return service.app.inject({
    method: 'POST',
    url: '/media',
    headers: { ...body.headers, authorization: `Bearer ${token}` },
    payload: body.payload,
  });
}

async function uploaded(content: Buffer, filename = 'logo.png', type = 'image/png'): Promise<Media> {
  const response = await upload([{ name: 'file', filename, type, content }]);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Media>();
}

const content = (id: string, headers: Record<string, string> = {}) =>
  service.app.inject({
    method: 'GET',
    url: `/media/${id}/content`,
    headers: { ...headers, authorization: 'Bearer test-admin-secret-0123456789' },
  });

/** The contents the store still keeps: files of the data folder, or blobs of PostgreSQL. */
async function keptContents(): Promise<string[]> {
  if (service.db.kind === 'postgres') {
    const rows = await service.db.kysely.selectFrom('media_blobs').select('sha256').execute();
    return rows.map((row) => row.sha256).sort();
  }
  return (await readdir(mediaDir)).filter((name) => name !== 'incoming').sort();
}

describe('uploads', () => {
  it('keeps an image and answers what it is, its hash and the URL that names it', async () => {
    const png = solidPng(4, 3);
    const media = await uploaded(png, 'dir/Logo.png');
    expect(media).toMatchObject({
      name: 'Logo.png',
      content_type: 'image/png',
      kind: 'image',
      bytes: png.length,
      sha256: sha256(png),
      url: `/media/${media.id}/content`,
      used_by: [],
    });
    expect((await service.call('GET', `/media/${media.id}`)).json()).toEqual(media);
    expect((await service.call('GET', '/media')).json<Media[]>().map((m) => m.id)).toContain(media.id);
    const whole = await content(media.id);
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-type']).toBe('image/png');
    expect(whole.headers.etag).toBe(`"${media.sha256}"`);
    expect(whole.rawPayload.equals(png)).toBe(true);
  });

  it('trusts the content over the declared type and the name', async () => {
    const media = await uploaded(mp3(2000), 'jingle.png', 'image/png');
    expect(media).toMatchObject({ content_type: 'audio/mpeg', kind: 'sound', name: 'jingle.png' });
  });

  it('refuses what is no image, video or sound, by its content, and keeps nothing', async () => {
    const before = await keptContents();
    const response = await upload([
      { name: 'file', filename: 'logo.png', type: 'image/png', content: 'hello, not a picture' },
    ]);
    expect(response.statusCode).toBe(415);
    expect(response.json().error.message).toMatch(
      /"logo.png" is not an image, video or sound.*content was checked/,
    );
    expect(await keptContents()).toEqual(before);
    expect(await readdir(join(mediaDir, 'incoming'))).toEqual([]);
    // Told up front, so that a client can refuse the file before sending it.
    const listed = await service.call('GET', '/media');
    expect(listed.headers['x-wallboard-media-max-bytes']).toBe(String(MAX_BYTES));
  });

  it('refuses a file over the limit with 413, keeping nothing', async () => {
    const before = await keptContents();
    const response = await upload([{ name: 'file', filename: 'big.mp3', content: mp3(MAX_BYTES) }]);
    expect(response.statusCode).toBe(413);
    expect(response.json().error).toMatchObject({ code: 'payload_too_large' });
    expect(response.json().error.message).toMatch(
      /"big.mp3" is larger than the media library takes.*nothing was kept/,
    );
    expect(await keptContents()).toEqual(before);
    expect(await readdir(join(mediaDir, 'incoming'))).toEqual([]);
  });

  it('refuses a body without a file, with two files, or with other fields', async () => {
    const png = solidPng(2, 2);
    const cases: [Part[], RegExp][] = [
      [[], /holds no file/],
      [
        [
          { name: 'file', filename: 'a.png', content: png },
          { name: 'file', filename: 'b.png', content: png },
        ],
        /one file, not several/,
      ],
      [
        [
          { name: 'file', filename: 'a.png', content: png },
          { name: 'title', content: 'extra' },
        ],
        /no other fields/,
      ],
      [[{ name: 'title', content: 'no file at all' }], /no other fields/],
    ];
    const count = (await service.call('GET', '/media')).json<Media[]>().length;
    for (const [parts, message] of cases) {
      const response = await upload(parts);
      expect(response.statusCode, JSON.stringify(parts.map((p) => p.name))).toBe(400);
      expect(response.json().error.message).toMatch(message);
    }
    const json = await service.call('POST', '/media', { file: 'x' });
    expect(json.statusCode).toBe(415);
    expect(json.json().error.message).toMatch(/multipart\/form-data with exactly one file part/);
    expect((await service.call('GET', '/media')).json<Media[]>()).toHaveLength(count);
  });

  it('needs a write token to upload, a read token to look', async () => {
    const readonly = await service.tokenOf('readonly');
    expect(
      (await upload([{ name: 'file', filename: 'a.png', content: solidPng(2, 2) }], readonly)).statusCode,
    ).toBe(403);
    expect((await service.call('GET', '/media', undefined, readonly)).statusCode).toBe(200);
    expect((await service.call('GET', '/media', undefined, null)).statusCode).toBe(401);
  });
});

describe('content', () => {
  let media: Media;
  let bytes: Buffer;

  beforeAll(async () => {
    // Over two chunks of PostgreSQL's storage, so that ranges cross them.
    bytes = mp3(2 * CHUNK_BYTES + 1000);
    media = await uploaded(bytes, 'long.mp3', 'audio/mpeg');
  });

  it('answers one byte range with 206, across chunks', async () => {
    const start = CHUNK_BYTES - 10;
    const end = 2 * CHUNK_BYTES + 5;
    const response = await content(media.id, { range: `bytes=${start}-${end}` });
    expect(response.statusCode).toBe(206);
    expect(response.headers['content-range']).toBe(`bytes ${start}-${end}/${bytes.length}`);
    expect(response.rawPayload.equals(bytes.subarray(start, end + 1))).toBe(true);
    const suffix = await content(media.id, { range: 'bytes=-4' });
    expect(suffix.statusCode).toBe(206);
    expect(suffix.rawPayload.equals(bytes.subarray(bytes.length - 4))).toBe(true);
    const whole = await content(media.id);
    expect(sha256(whole.rawPayload)).toBe(media.sha256);
  });

  it('answers a range past the end with 416, and a known ETag with 304', async () => {
    const outside = await content(media.id, { range: `bytes=${bytes.length}-` });
    expect(outside.statusCode).toBe(416);
    expect(outside.headers['content-range']).toBe(`bytes */${bytes.length}`);
    expect(outside.json().error.code).toBe('range_not_satisfiable');
    const cached = await content(media.id, { 'if-none-match': `"${media.sha256}"` });
    expect(cached.statusCode).toBe(304);
    expect(cached.rawPayload.length).toBe(0);
  });

  it('shows a device-bound token the media its device plays, and no other', async () => {
    const playlist = await service.call('POST', '/playlists', {
      name: 'Jingles',
      items: [{ type: 'video', url: media.url }],
    });
    const playlistId = playlist.json<Playlist>().id;
    const tokens: string[] = [];
    for (const [tag, playlist_id] of [
      ['lobby', playlistId],
      ['kitchen', null],
    ] as const) {
      expect((await service.call('POST', '/devices', { tag, playlist_id })).statusCode).toBe(201);
      const claim = await service.call('POST', '/account/tokens', { scope: 'affiliated', device_tag: tag });
      tokens.push(claim.json<{ token: string }>().token);
    }
    const [own = '', other = ''] = tokens;
    const read = (token: string) =>
      service.app.inject({
        method: 'GET',
        url: `/media/${media.id}/content`,
        headers: { authorization: `Bearer ${token}`, range: 'bytes=0-3' },
      });
    expect((await read(own)).statusCode).toBe(206);
    expect((await service.call('GET', '/media', undefined, own)).json<Media[]>().map((m) => m.id)).toEqual([
      media.id,
    ]);
    expect((await service.call('GET', `/media/${media.id}`, undefined, own)).json<Media>().used_by).toEqual([
      { type: 'playlist', id: playlistId, name: 'Jingles' },
    ]);
    expect((await read(other)).statusCode).toBe(404);
    expect((await service.call('GET', '/media', undefined, other)).json()).toEqual([]);
    expect((await service.call('GET', `/media/${media.id}`, undefined, other)).statusCode).toBe(404);
    await service.call('DELETE', `/playlists/${playlistId}`);
  });

  it('answers 404 for an unknown medium', async () => {
    expect((await content('med_unknown')).statusCode).toBe(404);
    expect((await service.call('GET', '/media/med_unknown')).json().error.code).toBe('not_found');
  });
});

describe('shared bytes', () => {
  it('keeps one copy of identical uploads and removes it with the last medium', async () => {
    const png = solidPng(7, 7, 3);
    const first = await uploaded(png, 'a.png');
    const second = await uploaded(png, 'b.png');
    expect(second.id).not.toBe(first.id);
    expect(second.sha256).toBe(first.sha256);
    expect(await keptContents()).toContain(first.sha256);
    expect((await service.call('DELETE', `/media/${first.id}`)).statusCode).toBe(204);
    expect((await content(second.id)).rawPayload.equals(png)).toBe(true);
    expect(await keptContents()).toContain(first.sha256);
    expect((await service.call('DELETE', `/media/${second.id}`)).statusCode).toBe(204);
    expect(await keptContents()).not.toContain(first.sha256);
    expect((await service.call('DELETE', `/media/${second.id}`)).statusCode).toBe(404);
  });

  it("keeps the bytes another account's medium still names", async () => {
    const png = solidPng(5, 9, 4);
    const other = await service.addAccount('Other');
    const ours = await uploaded(png, 'ours.png');
    const theirs = (
      await upload([{ name: 'file', filename: 'theirs.png', type: 'image/png', content: png }], other.token)
    ).json<Media>();
    expect(theirs.sha256).toBe(ours.sha256);
    expect((await service.call('DELETE', `/media/${ours.id}`)).statusCode).toBe(204);
    expect(await keptContents()).toContain(ours.sha256);
    const read = await service.app.inject({
      method: 'GET',
      url: `/media/${theirs.id}/content`,
      headers: { authorization: `Bearer ${other.token}` },
    });
    expect(read.rawPayload.equals(png)).toBe(true);
  });
});

describe('naming library media', () => {
  it('takes them in playlists, board backgrounds and notification sounds, and refuses unknown ones', async () => {
    const image = await uploaded(solidPng(5, 5, 9), 'poster.png');
    const sound = await uploaded(mp3(500), 'ding.mp3', 'audio/mpeg');
    const playlist = await service.call('POST', '/playlists', {
      name: 'Lobby',
      items: [
        { type: 'image', url: image.url, duration: 5 },
        { type: 'image', url: 'https://example.com/a.png', duration: 5 },
      ],
    });
    expect(playlist.statusCode, playlist.body).toBe(201);
    const board = await service.call('POST', '/boards', { name: 'Hall', background_url: image.url });
    expect(board.statusCode, board.body).toBe(201);
    const notified = await service.call('POST', '/channels/ch_default/notifications', {
      sound_url: sound.url,
    });
    expect(notified.statusCode, notified.body).toBe(201);

    const unknown = '/media/med_nothere/content';
    const refusals = [
      await service.call('POST', '/playlists', { name: 'x', items: [{ type: 'video', url: unknown }] }),
      await service.call('POST', '/boards', { name: 'x', background_url: unknown }),
      await service.call('PATCH', `/boards/${board.json<{ id: string }>().id}`, { background_url: unknown }),
      await service.call('POST', '/channels/ch_default/notifications', { sound_url: unknown }),
    ];
    for (const refusal of refusals) {
      expect(refusal.statusCode, refusal.body).toBe(400);
      expect(refusal.json().error.message).toMatch(/unknown library media/);
      expect(refusal.json().error.details[0].message).toBe(
        'names medium med_nothere, which is not in the media library',
      );
    }
    const bad = await service.call('POST', '/boards', { name: 'x', background_url: '/media/x/other' });
    expect(bad.json().error.details[0].message).toMatch(
      /must name a library medium as "\/media\/<id>\/content"/,
    );

    const used = (await service.call('GET', `/media/${image.id}`)).json<Media>();
    expect(used.used_by).toEqual([
      { type: 'playlist', id: playlist.json<Playlist>().id, name: 'Lobby' },
      { type: 'board', id: board.json<{ id: string }>().id, name: 'Hall' },
    ]);
  });

  it('refuses to delete a medium in use, and takes it out of its users with detach', async () => {
    const image = await uploaded(solidPng(6, 6, 11), 'menu.png');
    const playlist = (
      await service.call('POST', '/playlists', {
        name: 'Menu',
        items: [
          { type: 'image', url: image.url, duration: 5 },
          { type: 'image', url: 'https://example.com/b.png', duration: 5 },
        ],
      })
    ).json<Playlist>();
    const board = (
      await service.call('POST', '/boards', { name: 'Menu board', background_url: image.url })
    ).json<{
      id: string;
    }>();

    const refused = await service.call('DELETE', `/media/${image.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('conflict');
    expect(refused.json().error.message).toMatch(/\?detach=true/);
    expect(refused.json().error.details).toEqual([
      { path: `used_by.playlist.${playlist.id}`, message: `playlist "Menu" (${playlist.id}) uses it` },
      { path: `used_by.board.${board.id}`, message: `board "Menu board" (${board.id}) uses it` },
    ]);
    expect((await content(image.id)).statusCode).toBe(200);

    const mark = await lastEventId(service.db);
    expect((await service.call('DELETE', `/media/${image.id}?detach=true`)).statusCode).toBe(204);
    const after = (await service.call('GET', `/playlists/${playlist.id}`)).json<Playlist>();
    expect(after.items).toEqual([
      { type: 'image', url: 'https://example.com/b.png', fit: 'fit', duration: 5 },
    ]);
    expect((await service.call('GET', `/boards/${board.id}`)).json().background_url).toBeNull();
    const events = (await eventsAfter(service.db, mark)).map((event) => event.type);
    expect(events).toEqual(['playlist.changed', 'board.changed']);
    expect((await content(image.id)).statusCode).toBe(404);
    expect(await keptContents()).not.toContain(image.sha256);
  });
});
