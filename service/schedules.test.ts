import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Schedule, ScheduleEntry } from '../src/shared/schedule';
import { sampleHeartbeat } from '../src/shared/testing/device-fixtures';
import { rooms } from './realtime/rooms';
import { startTestService, type TestService } from './test-support';
import { FakeClock } from './testing/fake-clock';
import { clientsOf, hello, listen, nextEvent, seed } from './testing/realtime-clients';

/** The web options of a service with its defaults, in every screen's settings. */
const DEFAULT_WEB = {
  tiles: { attribution: '© OpenStreetMap contributors', max_zoom: 19 },
  http_media: false,
  custom_network: false,
};

const clock = new FakeClock('2026-11-23T09:00:00.000Z');
let service: TestService;
let url: string;
const clients = clientsOf(() => url);

// The seed (testing/realtime-clients.ts): device `lobby` plays p1 (board b1, channel c1); p2
// plays b2 (channel c2).
beforeAll(async () => {
  service = await startTestService({ clock });
  await seed(service, [
    "insert into playlists (id, name, items) values ('p_day', 'Day', '[]'), ('p_night', 'Night', '[]'), ('p_weekend', 'Weekend', '[]')",
  ]);
  url = await listen(service);
});
afterEach(() => clients.closeAll());
afterAll(() => service.close());

async function ok(method: 'GET' | 'POST' | 'PATCH', path: string, body?: unknown, status = 200) {
  const response = await service.call(method, path, body);
  expect(response.statusCode, response.body).toBe(status);
  return response.json();
}

const entry = (playlist: string, window: Pick<ScheduleEntry, 'days' | 'from' | 'to'>): ScheduleEntry => ({
  ...window,
  playlist_id: playlist,
  start_date: null,
  end_date: null,
  priority: 0,
});
const WEEKDAYS: ScheduleEntry['days'] = ['mon', 'tue', 'wed', 'thu', 'fri'];
const EVERY_DAY: ScheduleEntry['days'] = [...WEEKDAYS, 'sat', 'sun'];

describe("a screen's settings", () => {
  it("resolves each setting separately: the screen's own, else its group's, else the default", async () => {
    const schedule: Schedule = {
      entries: [entry('p_day', { days: WEEKDAYS, from: '08:00', to: '18:00' })],
      default_playlist_id: null,
    };
    const power = { off: [{ days: EVERY_DAY, from: '01:00', to: '05:00' }] };
    const group = await ok(
      'POST',
      '/groups',
      { name: 'Precedence', playlist_id: 'p2', schedule, power, rotation: 90, time_zone: 'Europe/Paris' },
      201,
    );
    const created = await ok('POST', '/devices', { tag: 'prec', group_id: group.id, rotation: 270 }, 201);
    expect(created).toMatchObject({
      group_id: group.id,
      playlist_id: null,
      schedule: null,
      power: null,
      rotation: 270,
      time_zone: null,
    });

    expect(await ok('GET', '/devices/prec/settings')).toEqual({
      playlist_id: 'p2',
      schedule,
      power,
      rotation: 270,
      time_zone: 'Europe/Paris',
      group_id: group.id,
      sources: {
        playlist_id: 'group',
        schedule: 'group',
        power: 'group',
        rotation: 'screen',
        time_zone: 'group',
      },
      playlist_ids: ['p2', 'p_day'],
      web: {
        tiles: { attribution: '© OpenStreetMap contributors', max_zoom: 19 },
        http_media: false,
        custom_network: false,
      },
      // No emergency override reaches it (overrides.test.ts).
      override: null,
      release: { shell: null, web: null },
      sync: null,
    });

    await ok('PATCH', '/devices/prec', { playlist_id: 'p1', rotation: null, time_zone: 'UTC' });
    expect(await ok('GET', '/devices/prec/settings')).toMatchObject({
      playlist_id: 'p1',
      rotation: 90,
      time_zone: 'UTC',
      sources: {
        playlist_id: 'screen',
        schedule: 'group',
        power: 'group',
        rotation: 'group',
        time_zone: 'screen',
      },
      playlist_ids: ['p1', 'p_day'],
    });

    await ok('PATCH', '/devices/prec', { group_id: null });
    expect(await ok('GET', '/devices/prec/settings')).toEqual({
      playlist_id: 'p1',
      schedule: null,
      power: null,
      rotation: 0,
      time_zone: 'UTC',
      group_id: null,
      sources: {
        playlist_id: 'screen',
        schedule: 'default',
        power: 'default',
        rotation: 'default',
        time_zone: 'screen',
      },
      playlist_ids: ['p1'],
      web: DEFAULT_WEB,
      override: null,
      release: { shell: null, web: null },
      sync: null,
    });
    // /playlist answers the screen's own playlist, else its group's, for clients that know no schedules.
    await ok('PATCH', '/devices/prec', { group_id: group.id, playlist_id: null });
    expect((await ok('GET', '/devices/prec/playlist')).id).toBe('p2');
  });

  it('refuses what a screen cannot be given, naming the field, and changes nothing', async () => {
    await ok('POST', '/devices', { tag: 'strict' }, 201);
    const overlapping: Schedule = {
      entries: [
        entry('p_day', { days: ['mon'], from: '08:00', to: '12:00' }),
        entry('p_night', { days: ['mon'], from: '11:00', to: '15:00' }),
      ],
      default_playlist_id: null,
    };
    const cases: [unknown, string][] = [
      [{ rotation: 45 }, 'body.rotation'],
      [{ time_zone: 'Europe/Atlantis' }, 'body.time_zone'],
      [{ group_id: 'grp_nope' }, 'body.group_id'],
      [
        {
          schedule: {
            entries: [entry('p_gone', { days: ['mon'], from: '08:00', to: '09:00' })],
            default_playlist_id: null,
          },
        },
        'body.schedule.entries.0.playlist_id',
      ],
      [{ schedule: { entries: [], default_playlist_id: 'p_gone' } }, 'body.schedule.default_playlist_id'],
      [
        {
          schedule: {
            entries: [
              { ...entry('p_day', { days: ['mon'], from: '08:00', to: '09:00' }), days: ['someday'] },
            ],
            default_playlist_id: null,
          },
        },
        'body.schedule.entries.0.days.0',
      ],
    ];
    for (const [body, path] of cases) {
      const response = await service.call('PATCH', '/devices/strict', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(
        response.json().error.details.map((d: { path: string }) => d.path),
        JSON.stringify(body),
      ).toContain(path);
    }
    const overlaps = await service.call('PATCH', '/devices/strict', { schedule: overlapping });
    expect(overlaps.statusCode).toBe(400);
    expect(overlaps.json().error.details).toEqual([
      { path: 'body.schedule.entries.1', message: expect.stringMatching(/^overlaps entr\S* ?0/) },
    ]);
    expect(await ok('GET', '/devices/strict')).toMatchObject({
      group_id: null,
      schedule: null,
      rotation: null,
      time_zone: null,
    });
  });

  it("takes a deleted playlist out of a screen's schedule, and tells the screen", async () => {
    await ok('POST', '/playlists', { name: 'Short-lived', items: [] }, 201).then(async ({ id }) => {
      const schedule: Schedule = {
        entries: [
          entry(id, { days: ['mon'], from: '08:00', to: '09:00' }),
          entry('p_day', { days: ['tue'], from: '08:00', to: '09:00' }),
        ],
        default_playlist_id: id,
      };
      await ok('POST', '/devices', { tag: 'forgets', playlist_id: id, schedule }, 201);
      expect((await service.call('DELETE', `/playlists/${id}`)).statusCode).toBe(204);
      expect(await ok('GET', '/devices/forgets')).toMatchObject({
        playlist_id: null,
        schedule: { entries: [schedule.entries[1]], default_playlist_id: null },
      });
    });
  });
});

describe('GET /devices/:tag/schedule/at', () => {
  // Weekdays 08:00 to 18:00 p_day; every night 18:00 to 08:00 p_night; else (weekend days)
  // p_weekend; off from 01:00 to 05:00. In New York, which is UTC-5 in late November.
  const schedule: Schedule = {
    entries: [
      entry('p_day', { days: WEEKDAYS, from: '08:00', to: '18:00' }),
      entry('p_night', { days: EVERY_DAY, from: '18:00', to: '08:00' }),
    ],
    default_playlist_id: 'p_weekend',
  };
  const at = (tag: string, time: string) =>
    ok('GET', `/devices/${tag}/schedule/at?time=${encodeURIComponent(time)}`);

  beforeAll(async () => {
    await ok(
      'POST',
      '/devices',
      {
        tag: 'ny',
        time_zone: 'America/New_York',
        schedule,
        power: { off: [{ days: EVERY_DAY, from: '01:00', to: '05:00' }] },
      },
      201,
    );
  });

  it('answers what plays across a week, in the screen’s zone', async () => {
    const week: [string, string | null, string, number | null, boolean][] = [
      ['2026-11-23T14:00:00Z', 'p_day', 'entry', 0, false], // Monday 09:00
      ['2026-11-23T23:30:00Z', 'p_night', 'entry', 1, false], // Monday 18:30
      ['2026-11-24T07:00:00Z', 'p_night', 'entry', 1, true], // Tuesday 02:00, off
      ['2026-11-24T12:59:00Z', 'p_night', 'entry', 1, false], // Tuesday 07:59
      ['2026-11-24T13:00:00Z', 'p_day', 'entry', 0, false], // Tuesday 08:00
      ['2026-11-27T22:59:00Z', 'p_day', 'entry', 0, false], // Friday 17:59
      ['2026-11-28T17:00:00Z', 'p_weekend', 'schedule-default', null, false], // Saturday noon
      ['2026-11-29T12:30:00Z', 'p_night', 'entry', 1, false], // Sunday 07:30 (from Saturday night)
      ['2026-11-29T09:00:00+09:00', 'p_night', 'entry', 1, false], // the same instant as Saturday 19:00 in NY
    ];
    for (const [time, playlist, reason, index, off] of week) {
      expect(await at('ny', time), time).toEqual({
        time: new Date(time).toISOString(),
        time_zone: 'America/New_York',
        playlist_id: playlist,
        reason,
        entry_index: index,
        off,
      });
    }
  });

  it('follows the wall clock across a daylight-saving change', async () => {
    const daily: Schedule = {
      entries: [entry('p_day', { days: EVERY_DAY, from: '08:00', to: '18:00' })],
      default_playlist_id: null,
    };
    await ok('POST', '/devices', { tag: 'paris', time_zone: 'Europe/Paris', schedule: daily }, 201);
    // Saturday 24 October 2026 is summer time (UTC+2): 06:30Z is 08:30. Paris turns its clocks
    // back in the night to Sunday: 06:30Z is then 07:30, 07:00Z is 08:00.
    expect(await at('paris', '2026-10-24T06:30:00Z')).toMatchObject({
      playlist_id: 'p_day',
      reason: 'entry',
    });
    expect(await at('paris', '2026-10-25T06:30:00Z')).toMatchObject({ playlist_id: null, reason: 'none' });
    expect(await at('paris', '2026-10-25T07:00:00Z')).toMatchObject({
      playlist_id: 'p_day',
      reason: 'entry',
    });
    // And forward in spring: Sunday 29 March 2026 06:00Z is 08:00 summer time.
    expect(await at('paris', '2026-03-28T06:00:00Z')).toMatchObject({ playlist_id: null });
    expect(await at('paris', '2026-03-29T06:00:00Z')).toMatchObject({ playlist_id: 'p_day' });
  });

  it('reads a screen without a zone set in the zone its heartbeat reports, else UTC', async () => {
    const daily: Schedule = {
      entries: [entry('p_day', { days: EVERY_DAY, from: '08:00', to: '18:00' })],
      default_playlist_id: null,
    };
    await ok('POST', '/devices', { tag: 'tokyo', schedule: daily }, 201);
    // 00:30Z is 09:30 in Tokyo and 00:30 in UTC.
    expect(await at('tokyo', '2026-11-24T00:30:00Z')).toMatchObject({ time_zone: 'UTC', playlist_id: null });
    await ok('POST', '/devices/tokyo/heartbeat', { ...sampleHeartbeat('waiting'), time_zone: 'Asia/Tokyo' });
    expect(await at('tokyo', '2026-11-24T00:30:00Z')).toMatchObject({
      time_zone: 'Asia/Tokyo',
      playlist_id: 'p_day',
    });
    // A heartbeat without a zone (an older client) leaves the last one reported.
    await ok('POST', '/devices/tokyo/heartbeat', sampleHeartbeat('waiting'));
    const row = await service.db.kysely
      .selectFrom('devices')
      .select('reported_time_zone')
      .where('tag', '=', 'tokyo')
      .executeTakeFirstOrThrow();
    expect(row.reported_time_zone).toBe('Asia/Tokyo');
    // A zone set on the screen wins over the reported one.
    await ok('PATCH', '/devices/tokyo', { time_zone: 'UTC' });
    expect(await at('tokyo', '2026-11-24T00:30:00Z')).toMatchObject({ time_zone: 'UTC', playlist_id: null });
  });

  it('answers now without a time; refuses one that is not ISO 8601 with its offset, and an unknown screen', async () => {
    for (const time of ['tomorrow', '2026-11-24T00:30:00', '']) {
      const response = await service.call('GET', `/devices/ny/schedule/at?time=${time}`);
      expect(response.statusCode, time).toBe(400);
      expect(response.json().error.details[0].path).toBe('querystring.time');
    }
    // Without a time: now, by the service's clock (Monday 09:00 UTC, 04:00 in New York).
    expect(await ok('GET', '/devices/ny/schedule/at')).toMatchObject({
      time: '2026-11-23T09:00:00.000Z',
      playlist_id: 'p_night',
      off: true,
    });
    const unknown = await service.call('GET', '/devices/nobody/schedule/at?time=2026-11-24T00:30:00Z');
    expect(unknown.statusCode).toBe(404);
    expect((await service.call('GET', '/devices/nobody/settings')).statusCode).toBe(404);
  });
});

describe('screen power', () => {
  it('queues a wake command, as any other command', async () => {
    const client = clients.open();
    await hello(client, null);
    const heard = nextEvent(client);
    const sent = await ok('POST', '/devices/lobby/commands', { type: 'wake' }, 202);
    expect(sent).toMatchObject({ device_tag: 'lobby', type: 'wake', status: 'queued' });
    expect(await heard).toMatchObject({ type: 'command.created', command: { id: sent.id, type: 'wake' } });
  });
});

describe('realtime', () => {
  it("puts a screen in the rooms of every playlist its group's schedule names, and tells it of their changes", async () => {
    const client = clients.open();
    await hello(client, null);
    const schedule: Schedule = {
      entries: [entry('p2', { days: ['sat'], from: '08:00', to: '18:00' })],
      default_playlist_id: null,
    };
    const group = await ok('POST', '/groups', { name: 'Lobby group' }, 201);

    let heard = nextEvent(client);
    await ok('PATCH', '/devices/lobby', { group_id: group.id });
    expect(await heard).toMatchObject({ type: 'device.changed', device_tag: 'lobby' });

    heard = nextEvent(client);
    await ok('PATCH', `/groups/${group.id}`, { schedule });
    expect(await heard).toMatchObject({ type: 'device.changed', device_tag: 'lobby' });
    // Moved to p2's rooms: its playlist, board and channel.
    await expect
      .poll(async () => (await service.app.realtime.in(rooms.channel('c2')).fetchSockets()).length)
      .toBe(1);
    expect((await service.app.realtime.in(rooms.playlist('p2')).fetchSockets()).length).toBe(1);

    heard = nextEvent(client);
    await ok('PATCH', '/playlists/p2', { name: 'Saturdays' });
    expect(await heard).toMatchObject({ type: 'playlist.changed', playlist_id: 'p2' });

    // A token bound to the screen may read the playlists its schedule names.
    const { token } = await ok('POST', '/account/tokens', { scope: 'affiliated', device_tag: 'lobby' }, 201);
    expect((await service.call('GET', '/playlists/p2', undefined, token)).statusCode).toBe(200);
    expect((await service.call('GET', '/playlists/p_night', undefined, token)).statusCode).toBe(404);

    heard = nextEvent(client);
    await ok('PATCH', `/groups/${group.id}`, { schedule: null });
    expect(await heard).toMatchObject({ type: 'device.changed', device_tag: 'lobby' });
    await expect
      .poll(async () => (await service.app.realtime.in(rooms.playlist('p2')).fetchSockets()).length)
      .toBe(0);
  });
});
