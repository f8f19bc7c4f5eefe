import type { LogEvent } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Media } from '../src/shared/media';
import type { Playlist } from '../src/shared/playlist';
import { ADMIN_SECRET, startTestService, type TestService } from './test-support';
import { FakeClock } from './testing/fake-clock';
import { multipart } from './testing/multipart';
import { solidPng } from './testing/png';
import { SEEN_MEDIA_MS } from './visibility/seen-media';

// A screen reads a video range by range with its device-bound token: after the first range has
// found that its device plays the medium, the next ones cost what the admin's do, the medium's row
// and its bytes (on PostgreSQL, read from the store; visibility/seen-media.ts), and a change of
// what the device plays is obeyed at the next range. On both stores (npm run test:postgres).
const statements: string[] = [];
const clock = new FakeClock('2026-11-28T08:00:00.000Z');
let service: TestService;
let medium: Media;
let playlist: Playlist;
const tokens: Record<string, string> = { admin: ADMIN_SECRET };
/** The statements of a range read with the admin's token, which sees every medium. */
let plain: number;

beforeAll(async () => {
  service = await startTestService(
    { clock },
    { log: (event: LogEvent) => void (event.level === 'query' && statements.push(event.query.sql)) },
  );
  const body = multipart([
    { name: 'file', filename: 'poster.png', type: 'image/png', content: solidPng(9, 9) },
  ]);
  const uploaded = await service.app.inject({
    method: 'POST',
    url: '/media',
    headers: { ...body.headers, authorization: `Bearer ${ADMIN_SECRET}` },
    payload: body.payload,
  });
  medium = uploaded.json<Media>();
  playlist = (
    await service.call('POST', '/playlists', {
      name: 'Lobby',
      items: [{ type: 'image', url: medium.url, duration: 5 }],
    })
  ).json<Playlist>();
  for (const [tag, playlistId] of [
    ['lobby', playlist.id],
    ['kitchen', null],
  ] as const) {
    expect((await service.call('POST', '/devices', { tag, playlist_id: playlistId })).statusCode).toBe(201);
    const claim = await service.call('POST', '/account/tokens', { scope: 'affiliated', device_tag: tag });
    tokens[tag] = claim.json<{ token: string }>().token;
  }
  plain = (await range('admin')).statements;
});
afterAll(() => service.close());

/** A range of the medium read with the token of the device (or admin): its status and the statements it ran. */
async function range(tag: string): Promise<{ status: number; statements: number }> {
  const from = statements.length;
  const response = await service.app.inject({
    method: 'GET',
    url: `/media/${medium.id}/content`,
    headers: { authorization: `Bearer ${tokens[tag]}`, range: 'bytes=0-7' },
  });
  return { status: response.statusCode, statements: statements.length - from };
}

/** The status of the device's range, polled: events reach the hub after their commit. */
const status = (tag: string) => expect.poll(async () => (await range(tag)).status, { timeout: 2000 });

const setItems = (items: object[]) =>
  service.call('PATCH', `/playlists/${playlist.id}`, { items }).then((r) => expect(r.statusCode).toBe(200));

it('reads the medium alone for the ranges after the first, and never remembers a refusal', async () => {
  const first = await range('lobby');
  expect(first.status).toBe(206);
  // The first finds what the device plays: its settings, playlist, boards, flows, channels.
  expect(first.statements).toBeGreaterThanOrEqual(plain + 5);
  for (let n = 0; n < 5; n += 1) expect(await range('lobby')).toEqual({ status: 206, statements: plain });
  // Another screen's token learns nothing from it, and asks every time.
  for (let n = 0; n < 2; n += 1) {
    const other = await range('kitchen');
    expect(other.status).toBe(404);
    expect(other.statements).toBeGreaterThanOrEqual(plain + 4);
  }
});

it('refuses the medium at once once the device no longer plays it, and serves it again once it does', async () => {
  expect((await range('lobby')).status).toBe(206);
  await setItems([{ type: 'image', url: 'https://example.com/other.png', duration: 5 }]);
  // Time stands still here: only the playlist's event can have made the service forget.
  await status('lobby').toBe(404);
  await setItems([{ type: 'image', url: medium.url, duration: 5 }]);
  expect((await range('lobby')).status).toBe(206);
  const device = await service.call('PATCH', '/devices/lobby', { playlist_id: null });
  expect(device.statusCode).toBe(200);
  await status('lobby').toBe(404);
  await service.call('PATCH', '/devices/lobby', { playlist_id: playlist.id });
  expect((await range('lobby')).status).toBe(206);
});

it('asks again once a finding is older than it may be believed', async () => {
  expect((await range('lobby')).status).toBe(206);
  await clock.jump(SEEN_MEDIA_MS - 1000);
  expect((await range('lobby')).statements).toBe(plain);
  await clock.jump(1000);
  const after = await range('lobby');
  expect(after.status).toBe(206);
  expect(after.statements).toBeGreaterThanOrEqual(plain + 5);
});
