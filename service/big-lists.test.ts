// The lists that grow with the fleet (the screens overview, the devices, a screen's plays) are read
// and answered a page at a time (http/paged-answer.ts): the same JSON as one read gave, in the same
// order, checked outside production and sent as it is in production. How long they hold the event
// loop at 10,000 screens is bench/overview.ts's to measure.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceSchema, type DeviceOverview } from '../src/shared/device';
import type { Play } from '../src/shared/play';
import { buildApp, type App } from './app';
import { DEVICE_PAGE } from './repositories/device-overview';
import { PLAY_PAGE, PlayRepository } from './repositories/plays';
import { ADMIN_SECRET, startTestService, type TestService } from './test-support';
import { seedFleet, seedPlays, SEEDED_AT } from './testing/big-fleet';

/** Not a multiple of a page, so that the last page is a short one. */
const SCREENS = 2 * DEVICE_PAGE + 203;
const PLAYS = 2 * PLAY_PAGE + 345;

let service: TestService;
/** The same service and store, answering as in production. */
let production: App;
let playlistId: string;
let boardId: string;

beforeAll(async () => {
  service = await startTestService();
  production = await buildApp({ db: service.db, checkAnswers: false });
  playlistId = (await service.call('POST', '/playlists', { name: 'Lobby loop', items: [] })).json().id;
  boardId = (await service.call('POST', '/boards', { name: 'Lobby' })).json().id;
  await seedFleet(service.db, SCREENS, playlistId);
  await seedPlays(service.db, 'dev_fleet_00001', PLAYS, boardId);
}, 60_000);
afterAll(async () => {
  await production.close();
  await service.close();
});

const inProduction = (url: string) =>
  production.inject({ method: 'GET', url, headers: { authorization: `Bearer ${ADMIN_SECRET}` } });

/** What seedFleet wrote of the n-th screen (from 1), as the overview shows it. */
function seeded(n: number): DeviceOverview {
  const number = String(n).padStart(5, '0');
  const seen = new Date(SEEDED_AT - 60_000).toISOString();
  return {
    id: `dev_fleet_${number}`,
    tag: `fleet-${number}`,
    playlist_id: playlistId,
    group_id: null,
    schedule: null,
    power: null,
    rotation: null,
    time_zone: null,
    name: `Screen ${number}`,
    description: '',
    online: n % 2 === 1,
    last_seen_date: seen,
    last_seen_ip: '10.0.0.1',
    playlist_name: 'Lobby loop',
    showing: 'board:b1',
    app_version: '1.4.0',
    display: { width: 1920, height: 1080 },
    failures: 1,
    screenshot_taken_at: n % 2 === 1 ? seen : null,
    // An empty playlist shows nothing: the online half, reporting a board, plays the wrong thing.
    playing: {
      kind: 'playlist',
      summary: 'Lobby loop (playlist)',
      agrees: n % 2 === 1 ? false : null,
      detail: n % 2 === 1 ? 'should play Lobby loop (playlist), shows board "b1"' : null,
    },
  };
}

describe('the lists of every device', () => {
  it('answer every screen once, by tag, with its summary, across pages', async () => {
    const response = await service.call('GET', '/devices?include=status');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.json()).toEqual(Array.from({ length: SCREENS }, (_, i) => seeded(i + 1)));
  });

  it('answer the plain list as the overview without its summary', async () => {
    const overview: DeviceOverview[] = (await service.call('GET', '/devices?include=status')).json();
    const plain = (await service.call('GET', '/devices')).json();
    const fields = Object.keys(deviceSchema.shape) as (keyof DeviceOverview)[];
    expect(plain).toEqual(
      overview.map((device) => Object.fromEntries(fields.map((field) => [field, device[field]]))),
    );
  });

  it('answer the same bytes in production as checked', async () => {
    for (const url of ['/devices?include=status', '/devices']) {
      const checked = await service.call('GET', url);
      const unchecked = await inProduction(url);
      expect(unchecked.statusCode).toBe(200);
      expect(unchecked.body).toBe(checked.body);
    }
  });

  it('show a device-bound token its own screen only', async () => {
    // On the second page.
    const n = DEVICE_PAGE + 77;
    const bound = await service.call('POST', '/account/tokens', {
      scope: 'affiliated',
      name: 'one screen',
      device_tag: seeded(n).tag,
    });
    expect(bound.statusCode, bound.body).toBe(201);
    const response = await service.call('GET', '/devices?include=status', undefined, bound.json().token);
    expect(response.json()).toEqual([seeded(n)]);
    const none = await service.addAccount('Other');
    expect((await none.call('GET', '/devices?include=status')).json()).toEqual([]);
  });
});

describe("a screen's plays", () => {
  const to = new Date(SEEDED_AT).toISOString();
  const from = new Date(SEEDED_AT - (PLAYS + 1) * 60_000).toISOString();
  const url = (limit: number) => `/devices/fleet-00001/plays?from=${from}&to=${to}&limit=${limit}`;

  it('answer at most the limit, oldest first, each once, across pages', async () => {
    const plays: Play[] = (await service.call('GET', url(PLAYS - 7))).json();
    expect(plays).toHaveLength(PLAYS - 7);
    expect(new Set(plays.map((play) => play.id)).size).toBe(PLAYS - 7);
    const starts = plays.map((play) => Date.parse(play.started_at));
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
    expect(starts[0]).toBe(SEEDED_AT - PLAYS * 60_000);
    expect(plays[0]).toMatchObject({
      device_tag: 'fleet-00001',
      type: 'board',
      board_id: boardId,
      seconds: 10,
    });
    expect((await inProduction(url(PLAYS - 7))).body).toBe((await service.call('GET', url(PLAYS - 7))).body);
  });

  it('answer plays that started at the same instant across a page boundary once each, by id', async () => {
    const at = new Date(SEEDED_AT - 30_000).toISOString();
    const ended = new Date(SEEDED_AT - 20_000).toISOString();
    const same = Array.from({ length: PLAY_PAGE + 10 }, () => ({
      id: randomUUID(),
      type: 'board' as const,
      board_id: boardId,
      url: null,
      channel_id: null,
      started_at: at,
      ended_at: ended,
    }));
    await new PlayRepository(service.db).add('dev_fleet_00002', same);
    const response = await service.call('GET', `/devices/fleet-00002/plays?from=${from}&to=${to}`);
    const ids = (response.json() as Play[]).map((play) => play.id);
    expect(ids).toEqual(same.map((play) => play.id).sort());
  });

  it('answer the CSV of every page', async () => {
    const response = await service.call('GET', `${url(PLAYS)}&format=csv`);
    expect(response.statusCode).toBe(200);
    expect(response.body.trimEnd().split('\r\n')).toHaveLength(PLAYS + 1);
  });
});
