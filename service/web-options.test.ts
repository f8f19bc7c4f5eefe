import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boardContentSchema, toContentSave } from '../src/shared/board-content';
import { webOptionsSchema } from '../src/shared/web-content';
import { HTTP_MEDIA_REFUSED } from './domain/http-media';
import { ADMIN_SECRET, startTestService, type TestService } from './test-support';
import { multipart } from './testing/multipart';
import { solidPng } from './testing/png';

let strict: TestService;
let lenient: TestService;
beforeAll(async () => {
  strict = await startTestService();
  lenient = await startTestService({
    config: { httpMedia: true, mapTiles: null, customWidgetsNetwork: true },
  });
});
afterAll(async () => {
  await strict.close();
  await lenient.close();
});

describe('GET /web-options', () => {
  it('tells any token the service options, as screens get them', async () => {
    const readonly = await strict.tokenOf('readonly');
    const answer = await strict.call('GET', '/web-options', undefined, readonly);
    expect(answer.statusCode).toBe(200);
    expect(webOptionsSchema.parse(answer.json())).toEqual({
      tiles: { attribution: '© OpenStreetMap contributors', max_zoom: 19 },
      http_media: false,
      custom_network: false,
    });
    expect((await lenient.call('GET', '/web-options')).json()).toEqual({
      tiles: null,
      http_media: true,
      custom_network: true,
    });
    expect((await strict.call('GET', '/web-options', undefined, null)).statusCode).toBe(401);
  });
});

const refusal = (path: string) => ({
  error: {
    code: 'invalid_request',
    message: `${path} ${HTTP_MEDIA_REFUSED}`,
    details: [{ path, message: HTTP_MEDIA_REFUSED }],
  },
});

describe('plain http media', () => {
  it('refuses http images and videos in playlists, but not web pages', async () => {
    const items = [
      { type: 'web', url: 'http://intranet.example/dashboard', duration: 30 },
      { type: 'image', url: 'https://cdn.example/a.png', duration: 10 },
      { type: 'video', url: 'http://cdn.example/a.mp4' },
    ];
    const created = await strict.call('POST', '/playlists', { name: 'Lobby', items });
    expect(created.statusCode).toBe(400);
    expect(created.json()).toEqual(refusal('body.items.2.url'));
    expect((await strict.call('GET', '/playlists')).json()).toEqual([]);

    const fine = await strict.call('POST', '/playlists', { name: 'Lobby', items: items.slice(0, 2) });
    expect(fine.statusCode, fine.body).toBe(201);
    const patched = await strict.call('PATCH', `/playlists/${fine.json().id}`, {
      items: [{ type: 'image', url: 'HTTP://cdn.example/b.png', duration: 5 }],
    });
    expect(patched.statusCode).toBe(400);
    expect(patched.json()).toEqual(refusal('body.items.0.url'));
    expect((await strict.call('GET', `/playlists/${fine.json().id}`)).json().items).toHaveLength(2);

    const allowed = await lenient.call('POST', '/playlists', { name: 'Lobby', items });
    expect(allowed.statusCode, allowed.body).toBe(201);
  });

  it('refuses an http board background on create, update and content save; library media are fine', async () => {
    const background = 'http://cdn.example/bg.jpg';
    const created = await strict.call('POST', '/boards', { name: 'Ops', background_url: background });
    expect(created.statusCode).toBe(400);
    expect(created.json()).toEqual(refusal('body.background_url'));

    const upload = multipart([
      { name: 'file', filename: 'bg.png', type: 'image/png', content: solidPng(4, 4) },
    ]);
    const medium = await strict.app.inject({
      method: 'POST',
      url: '/media',
      headers: { authorization: `Bearer ${ADMIN_SECRET}`, ...upload.headers },
      payload: upload.payload,
    });
    expect(medium.statusCode, medium.body).toBe(201);
    const board = await strict.call('POST', '/boards', { name: 'Ops', background_url: medium.json().url });
    expect(board.statusCode, board.body).toBe(201);
    const id = board.json().id as string;

    const updated = await strict.call('PATCH', `/boards/${id}`, { background_url: background });
    expect(updated.statusCode).toBe(400);
    expect(updated.json()).toEqual(refusal('body.background_url'));

    const content = boardContentSchema.parse((await strict.call('GET', `/boards/${id}/content`)).json());
    const save = toContentSave(content);
    const saved = await strict.call('PUT', `/boards/${id}/content`, {
      ...save,
      board: { ...save.board, background_url: background },
    });
    expect(saved.statusCode).toBe(400);
    expect(saved.json()).toEqual(refusal('body.board.background_url'));
    expect((await strict.call('GET', `/boards/${id}`)).json().background_url).toBe(medium.json().url);

    const allowed = await lenient.call('POST', '/boards', { name: 'Ops', background_url: background });
    expect(allowed.statusCode, allowed.body).toBe(201);
  });

  it("refuses http media in image and video widgets' data, one flow at a time and in a batch; loopback is fine", async () => {
    for (const service of [strict, lenient]) {
      await service.call('POST', '/flows', { tag: 'poster', variant: 'image' });
      await service.call('POST', '/flows', { tag: 'promo', variant: 'video' });
    }
    const one = await strict.call('PUT', '/flows/poster/metrics', { url: 'http://cdn.example/a.png' });
    expect(one.statusCode).toBe(400);
    expect(one.json().error.details).toEqual([{ path: 'body.url', message: HTTP_MEDIA_REFUSED }]);
    expect((await strict.call('GET', '/flows/poster/metrics')).json()).toEqual({});

    const batch = await strict.call('POST', '/metrics', {
      data: {
        poster: { url: 'http://127.0.0.1:8080/a.png' },
        promo: { mp4: 'https://cdn.example/a.mp4', poster: 'http://cdn.example/a.jpg' },
      },
    });
    expect(batch.statusCode, batch.body).toBe(200);
    expect(batch.json()).toMatchObject({
      updated: ['poster'],
      errors: [`promo: body.data.promo.poster: ${HTTP_MEDIA_REFUSED}`],
      error_details: [
        { tag: 'promo', details: [{ path: 'body.data.promo.poster', message: HTTP_MEDIA_REFUSED }] },
      ],
    });

    const allowed = await lenient.call('PUT', '/flows/promo/metrics', { mp4: 'http://cdn.example/a.mp4' });
    expect(allowed.statusCode, allowed.body).toBe(200);
  });
});
