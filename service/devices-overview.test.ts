import type { LogEvent } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeviceOverview } from '../src/shared/device';
import { heartbeatSchema } from '../src/shared/device';
import { sampleHeartbeat } from '../src/shared/testing/device-fixtures';
import { toJson } from './db/dialect';
import { DEVICE_PAGE } from './repositories/device-overview';
import { startTestService, type TestService } from './test-support';
import { FakeClock } from './testing/fake-clock';
import { solidPng } from './testing/png';

const clock = new FakeClock('2026-11-21T09:00:00.000Z');
let service: TestService;
/** Set while a test counts the statements its request sends. */
let counting: string[] | null = null;

beforeAll(async () => {
  service = await startTestService(
    { clock },
    {
      log: (event: LogEvent) => {
        // Reads only: a token's last use is written in the background, whenever it falls due.
        if (event.level === 'query' && /^\s*(select|with)\b/i.test(event.query.sql))
          counting?.push(event.query.sql);
      },
    },
  );
});
afterAll(() => service.close());

async function overview(token?: string): Promise<DeviceOverview[]> {
  const response = await service.call('GET', '/devices?include=status', undefined, token);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/** The statements one overview request sends. */
async function statementsOfOverview(): Promise<number> {
  counting = [];
  try {
    await overview();
    return counting.length;
  } finally {
    counting = null;
  }
}

/** `count` devices named fleet-0001 …, each with a heartbeat, half of them with a screenshot. */
async function fleet(count: number, playlistId: string): Promise<void> {
  const diagnostics = toJson({
    ...heartbeatSchema.parse(sampleHeartbeat('board:b1')),
    failures: [{ item: 'media:https://x.example/a.png', reason: '404', at: '2026-11-21T08:00:00.000Z' }],
    received_at: '2026-11-21T08:59:00.000Z',
  });
  const png = solidPng(4, 3);
  for (let start = 0; start < count; start += 200) {
    const rows = Array.from({ length: Math.min(200, count - start) }, (_, i) => {
      const n = String(start + i + 1).padStart(4, '0');
      return {
        id: `dev_fleet_${n}`,
        tag: `fleet-${n}`,
        name: `Screen ${n}`,
        playlist_id: playlistId,
        online: (start + i) % 2 === 0,
        last_seen_date: '2026-11-21T08:59:00.000Z',
        last_seen_ip: '10.0.0.1',
        diagnostics,
      };
    });
    await service.db.kysely.insertInto('devices').values(rows).execute();
    await service.db.kysely
      .insertInto('screenshots')
      .values(
        rows
          .filter((_, i) => i % 2 === 0)
          .map((row) => ({
            device_id: row.id,
            png,
            width: 4,
            height: 3,
            taken_at: '2026-11-21T08:58:00.000Z',
          })),
      )
      .execute();
  }
}

describe('the screens overview', () => {
  it("gives each device's summary: status from its heartbeat, playlist name, newest screenshot", async () => {
    const playlist = (await service.call('POST', '/playlists', { name: 'Lobby loop', items: [] })).json();
    await service.call('POST', '/devices', { tag: 'bare' });
    await service.call('POST', '/devices', { tag: 'lobby', name: 'Lobby', playlist_id: playlist.id });
    const failure = {
      item: 'image:https://x.example/a.png',
      reason: 'did not decode',
      at: '2026-11-21T08:00:00Z',
    };
    const beat = heartbeatSchema.parse({ ...sampleHeartbeat('board:b1'), failures: [failure, failure] });
    expect((await service.call('POST', '/devices/lobby/heartbeat', beat)).statusCode).toBe(200);
    const png = solidPng(8, 6);
    const shot = await service.app.inject({
      method: 'PUT',
      url: '/devices/lobby/screenshot',
      headers: {
        authorization: `Bearer ${await service.tokenOf('affiliated')}`,
        'content-type': 'image/png',
      },
      payload: png,
    });
    expect(shot.statusCode, shot.body).toBe(200);

    const [bare, lobby] = await overview();
    expect(bare).toEqual({
      id: expect.any(String),
      tag: 'bare',
      playlist_id: null,
      group_id: null,
      schedule: null,
      power: null,
      rotation: null,
      time_zone: null,
      name: '',
      description: '',
      online: false,
      last_seen_date: null,
      last_seen_ip: null,
      playlist_name: null,
      showing: null,
      app_version: null,
      display: null,
      failures: 0,
      screenshot_taken_at: null,
      playing: { kind: 'nothing', summary: 'nothing (no playlist)', agrees: null, detail: null },
    });
    expect(lobby).toMatchObject({
      tag: 'lobby',
      online: true,
      last_seen_date: clock.now().toISOString(),
      playlist_id: playlist.id,
      playlist_name: 'Lobby loop',
      showing: 'board:b1',
      app_version: '1.4.0',
      display: { width: 1920, height: 1080 },
      failures: 2,
      screenshot_taken_at: clock.now().toISOString(),
    });
    // Without include, the list is as it always was.
    expect(Object.keys((await service.call('GET', '/devices')).json()[0]).sort()).toEqual([
      'description',
      'group_id',
      'id',
      'last_seen_date',
      'last_seen_ip',
      'name',
      'online',
      'playlist_id',
      'power',
      'rotation',
      'schedule',
      'tag',
      'time_zone',
    ]);
  });

  it('shows a device-bound token its own device only, and refuses an unknown include', async () => {
    const bound = await service.call('POST', '/account/tokens', {
      scope: 'affiliated',
      name: 'lobby',
      device_tag: 'lobby',
    });
    expect((await overview(bound.json().token)).map((d) => d.tag)).toEqual(['lobby']);
    const bad = await service.call('GET', '/devices?include=everything');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details[0]).toMatchObject({ path: 'querystring.include' });
  });

  it('takes the same few statements per page of devices, whatever their heartbeats and screenshots, and answers them quickly', async () => {
    await overview();
    const few = await statementsOfOverview();
    expect(few).toBeGreaterThan(0);
    const playlist = (await service.call('POST', '/playlists', { name: 'Fleet', items: [] })).json();
    await fleet(1000, playlist.id);
    await overview();
    // 1,002 devices: the page of the 2 took as many statements as each page of the 1,000 takes: the
    // page, its screens' settings and their wake commands (repositories/playing.ts). What every
    // page shares is read once.
    const perPage = 3;
    expect(await statementsOfOverview()).toBe(few + (Math.ceil(1002 / DEVICE_PAGE) - 1) * perPage);

    const started = performance.now();
    const all = await overview();
    const elapsed = performance.now() - started;
    expect(all).toHaveLength(1002);
    expect(all.find((d) => d.tag === 'fleet-0001')).toMatchObject({
      playlist_name: 'Fleet',
      failures: 1,
      screenshot_taken_at: '2026-11-21T08:58:00.000Z',
    });
    expect(all.find((d) => d.tag === 'fleet-0002')?.screenshot_taken_at).toBeNull();
    // Measured at 16 to 40 ms on SQLite, 19 to 22 ms on PostgreSQL (docs/api/devices.md): a wide bound here.
    expect(elapsed).toBeLessThan(2000);
  });
});
