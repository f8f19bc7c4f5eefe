import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startTestService, type TestService } from '../../service/test-support';
import { multipart } from '../../service/testing/multipart';
import { solidPng } from '../../service/testing/png';
import { listen } from '../../service/testing/realtime-clients';
import type { Media } from '../shared/media';
import type { DeviceAgent } from './agent';
import { createNodeAgent } from './node-agent';
import type { Fetch } from './ports';
import { fixedSystem, recordingLogger } from './testing/fakes';

const FOREIGN = 'https://cdn.example.test/poster.png';

let service: TestService;
let server: string;
let dir: string;
let agent: DeviceAgent | null = null;

beforeEach(async () => {
  service = await startTestService();
  server = await listen(service);
  dir = await mkdtemp(join(tmpdir(), 'wallboard-library-'));
});

afterEach(async () => {
  await agent?.stop();
  agent = null;
  await service.close();
  await rm(dir, { recursive: true, force: true });
});

/** What the agent fetched, with the authorization it sent; the foreign host is answered here, offline. */
function recordingFetch(foreign: Buffer): {
  fetch: Fetch;
  sent: { url: string; authorization: string | null }[];
} {
  const sent: { url: string; authorization: string | null }[] = [];
  const fetch: Fetch = async (url, init) => {
    sent.push({ url, authorization: new Headers(init?.headers).get('authorization') });
    if (url.startsWith('https://cdn.example.test/')) {
      return new Response(new Uint8Array(foreign), { headers: { 'content-type': 'image/png' } });
    }
    return globalThis.fetch(url, init);
  };
  return { fetch, sent };
}

describe('library media on a screen', () => {
  it('downloads a library medium with the screen’s own token, and sends no token to other hosts', async () => {
    const png = solidPng(8, 8, 200);
    const body = multipart([{ name: 'file', filename: 'poster.png', content: png }]);
    const uploaded = await service.app.inject({
      method: 'POST',
      url: '/media',
      headers: { ...body.headers, authorization: 'Bearer test-admin-secret-0123456789' },
      payload: body.payload,
    });
    const media = uploaded.json<Media>();
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const playlist = await service.call('POST', '/playlists', {
      name: 'Lobby',
      items: [
        { type: 'image', url: media.url, duration: 5 },
        { type: 'image', url: FOREIGN, duration: 5 },
      ],
    });
    expect(playlist.statusCode, playlist.body).toBe(201);
    await service.call('POST', '/devices', { tag: 'lobby', name: 'Lobby' });
    await service.call('PATCH', '/devices/lobby', { playlist_id: playlist.json<{ id: string }>().id });
    // The screen's own credential: a token bound to its device, as pairing gives it.
    const token = (
      await service.call('POST', '/account/tokens', {
        scope: 'affiliated',
        name: 'lobby',
        device_tag: 'lobby',
      })
    ).json<{ token: string }>().token;

    const { fetch, sent } = recordingFetch(solidPng(2, 2));
    const created = createNodeAgent({
      config: {
        server,
        token,
        tag: 'lobby',
        name: 'Lobby',
        heartbeatSeconds: 30,
        cacheDir: join(dir, 'media'),
        cacheLimitBytes: 10 * 1024 * 1024,
      },
      dataDir: dir,
      mediaBaseUrl: '/media/',
      appVersion: 'test',
      log: recordingLogger(),
      system: fixedSystem,
      fetch,
    });
    agent = created.agent;
    await agent.start();

    // The playlist names the medium by its version's URL (docs/api/media.md).
    const played = media.play_url ?? '';
    expect(played).toBe(`${media.url}?v=${media.sha256.slice(0, 16)}`);
    const shown = async (url: string, bytes: Buffer) => {
      const state = await vi.waitFor(
        () => {
          const current = created.agent.getState();
          expect(Object.keys(current.media).sort()).toEqual([url, FOREIGN].sort());
          return current;
        },
        { timeout: 10_000, interval: 50 },
      );
      const local = state.media[url] ?? '';
      expect(local).toMatch(/^\/media\/[0-9a-f]{32}\.png$/);
      expect(await readFile(join(dir, 'media', local.slice('/media/'.length)))).toEqual(bytes);
      return local;
    };
    const before = await shown(played, png);

    const library = sent.filter((request) => request.url === `${server}${played}`);
    expect(library).toEqual([{ url: `${server}${played}`, authorization: `Bearer ${token}` }]);
    expect(sent.filter((request) => request.url === FOREIGN)).toEqual([
      { url: FOREIGN, authorization: null },
    ]);

    // Its file replaced under the same id: the screen hears of its playlist, finds the new
    // version's URL and fetches the new bytes into a file of their own.
    const next = solidPng(8, 8, 90);
    const replacement = multipart([{ name: 'file', filename: 'poster.png', content: next }]);
    const replaced = await service.app.inject({
      method: 'PUT',
      url: `/media/${media.id}/content`,
      headers: { ...replacement.headers, authorization: 'Bearer test-admin-secret-0123456789' },
      payload: replacement.payload,
    });
    expect(replaced.statusCode, replaced.body).toBe(200);
    const after = replaced.json<Media>();
    expect(after.id).toBe(media.id);
    const now = await shown(after.play_url ?? '', next);
    expect(now).not.toBe(before);
  });
});
