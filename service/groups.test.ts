import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperatorNotice } from '../src/shared/notices';
import type { Schedule } from '../src/shared/schedule';
import { eventsAfter, lastEventId, startTestService, type TestService } from './test-support';
import { FakeClock } from './testing/fake-clock';

const clock = new FakeClock('2026-11-23T09:00:00.000Z');
let service: TestService;
let day: string;
let night: string;

beforeAll(async () => {
  service = await startTestService({ clock });
  day = (await ok('POST', '/playlists', { name: 'Day', items: [] }, 201)).id;
  night = (await ok('POST', '/playlists', { name: 'Night', items: [] }, 201)).id;
});
afterAll(() => service.close());

async function ok(method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown, status = 200) {
  const response = await service.call(method, url, body);
  expect(response.statusCode, response.body).toBe(status);
  return response.json();
}

const weekdays = (playlist: string): Schedule => ({
  entries: [
    {
      days: ['mon', 'tue', 'wed', 'thu', 'fri'],
      from: '08:00',
      to: '18:00',
      playlist_id: playlist,
      start_date: null,
      end_date: null,
      priority: 0,
    },
  ],
  default_playlist_id: null,
});

const deviceChanged = (tag: string) => ({
  type: 'device.changed',
  payload: { device_tag: tag },
  rooms: [`device:${tag}`],
});

describe('groups of screens', () => {
  it('creates, reads, lists, renames and deletes a group, the clock stamping it', async () => {
    const created = await ok('POST', '/groups', { name: ' Lobby screens ', rotation: 90 }, 201);
    expect(created).toEqual({
      id: expect.stringMatching(/^grp_/),
      name: 'Lobby screens',
      playlist_id: null,
      schedule: null,
      power: null,
      rotation: 90,
      time_zone: null,
      created_at: '2026-11-23T09:00:00.000Z',
      updated_at: '2026-11-23T09:00:00.000Z',
    });
    expect(await ok('GET', `/groups/${created.id}`)).toEqual(created);
    expect(await ok('GET', '/groups')).toContainEqual(created);

    await clock.advance(60_000);
    const renamed = await ok('PATCH', `/groups/${created.id}`, { name: 'Foyer', time_zone: 'Europe/Paris' });
    expect(renamed).toEqual({
      ...created,
      name: 'Foyer',
      time_zone: 'Europe/Paris',
      updated_at: '2026-11-23T09:01:00.000Z',
    });
    // A setting null unsets it; what a patch leaves out stays.
    expect(await ok('PATCH', `/groups/${created.id}`, { rotation: null })).toMatchObject({
      name: 'Foyer',
      rotation: null,
      time_zone: 'Europe/Paris',
    });

    expect((await service.call('DELETE', `/groups/${created.id}`)).statusCode).toBe(204);
    expect((await service.call('GET', `/groups/${created.id}`)).json().error).toMatchObject({
      code: 'not_found',
      message: `group ${created.id} not found`,
    });
    expect((await service.call('DELETE', `/groups/${created.id}`)).statusCode).toBe(404);
    expect((await service.call('PATCH', `/groups/${created.id}`, { name: 'x' })).statusCode).toBe(404);
    expect((await service.call('GET', `/groups/${created.id}/devices`)).statusCode).toBe(404);
  });

  it('refuses a taken name with 409, and bad bodies with 400 naming the field', async () => {
    await ok('POST', '/groups', { name: 'Taken' }, 201);
    const taken = await service.call('POST', '/groups', { name: 'Taken' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error).toMatchObject({
      code: 'conflict',
      message: 'a group named "Taken" already exists',
      details: [{ path: 'body.name', message: 'is already used by another group' }],
    });
    const other = await ok('POST', '/groups', { name: 'Other' }, 201);
    expect((await service.call('PATCH', `/groups/${other.id}`, { name: 'Taken' })).statusCode).toBe(409);

    const cases: [unknown, string][] = [
      [{}, 'body.name'],
      [{ name: '' }, 'body.name'],
      [{ name: 'x', rotation: 45 }, 'body.rotation'],
      [{ name: 'x', time_zone: 'Mars/Olympus' }, 'body.time_zone'],
      [
        { name: 'x', power: { off: [{ days: ['mon'], from: '25:00', to: '06:00' }] } },
        'body.power.off.0.from',
      ],
      [{ name: 'x', colour: 'red' }, 'body.colour'],
    ];
    for (const [body, path] of cases) {
      const response = await service.call('POST', '/groups', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().error.code).toBe('invalid_request');
      expect(response.json().error.details.map((d: { path: string }) => d.path)).toContain(path);
    }
  });

  it('refuses playlists that do not exist, naming where, and writes nothing', async () => {
    const schedule = {
      entries: [
        ...weekdays(day).entries,
        ...weekdays('pl_gone').entries.map((e) => ({ ...e, days: ['sat'] })),
      ],
      default_playlist_id: 'pl_none',
    };
    const response = await service.call('POST', '/groups', {
      name: 'Ghosts',
      playlist_id: 'pl_nope',
      schedule,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toEqual({
      code: 'invalid_request',
      message: 'playlists pl_nope, pl_gone, pl_none do not exist',
      details: [
        { path: 'body.playlist_id', message: 'must name an existing playlist' },
        { path: 'body.schedule.entries.1.playlist_id', message: 'must name an existing playlist' },
        { path: 'body.schedule.default_playlist_id', message: 'must name an existing playlist' },
      ],
    });
    expect((await ok('GET', '/groups')).map((g: { name: string }) => g.name)).not.toContain('Ghosts');
  });

  it('refuses overlapping schedule entries with the path of each problem', async () => {
    const overlapping: Schedule = {
      entries: [
        weekdays(day).entries[0]!,
        // As long a window, on the same days: only their order would decide from 17:00 to 18:00.
        { ...weekdays(night).entries[0]!, from: '17:00', to: '03:00' },
      ],
      default_playlist_id: null,
    };
    const response = await service.call('POST', '/groups', { name: 'Overlaps', schedule: overlapping });
    expect(response.statusCode).toBe(400);
    const { error } = response.json();
    expect(error.code).toBe('invalid_request');
    expect(error.details).toEqual([
      { path: 'body.schedule.entries.1', message: expect.stringMatching(/^overlaps entr\S* ?0/) },
    ]);
    // A higher priority decides: no longer a problem.
    const decided = {
      ...overlapping,
      entries: [overlapping.entries[0], { ...overlapping.entries[1], priority: 1 }],
    };
    await ok('POST', '/groups', { name: 'Overlaps decided', schedule: decided }, 201);
  });

  it("lists a group's screens, and tells each of them when a setting of the group changes", async () => {
    const group = await ok('POST', '/groups', { name: 'Floor 2' }, 201);
    for (const tag of ['f2-a', 'f2-b']) await ok('POST', '/devices', { tag, group_id: group.id }, 201);
    await ok('POST', '/devices', { tag: 'f2-alone' }, 201);
    expect((await ok('GET', `/groups/${group.id}/devices`)).map((d: { tag: string }) => d.tag)).toEqual([
      'f2-a',
      'f2-b',
    ]);

    let mark = await lastEventId(service.db);
    await ok('PATCH', `/groups/${group.id}`, { name: 'Second floor' });
    expect(await eventsAfter(service.db, mark)).toEqual([]); // a name shows nowhere

    await ok('PATCH', `/groups/${group.id}`, { playlist_id: day, schedule: weekdays(night) });
    expect(await eventsAfter(service.db, mark)).toEqual([deviceChanged('f2-a'), deviceChanged('f2-b')]);

    // Joining or leaving a group is the screen's own change.
    mark = await lastEventId(service.db);
    await ok('PATCH', '/devices/f2-alone', { group_id: group.id });
    await ok('PATCH', '/devices/f2-a', { group_id: null });
    expect(await eventsAfter(service.db, mark)).toEqual([deviceChanged('f2-alone'), deviceChanged('f2-a')]);
  });

  it('leaves the screens of a deleted group in none, and tells them', async () => {
    const group = await ok('POST', '/groups', { name: 'Doomed', rotation: 180 }, 201);
    await ok('POST', '/devices', { tag: 'doomed-a', group_id: group.id }, 201);
    expect((await ok('GET', '/devices/doomed-a/settings')).rotation).toBe(180);
    const mark = await lastEventId(service.db);
    expect((await service.call('DELETE', `/groups/${group.id}`)).statusCode).toBe(204);
    expect(await eventsAfter(service.db, mark)).toEqual([deviceChanged('doomed-a')]);
    expect(await ok('GET', '/devices/doomed-a')).toMatchObject({ group_id: null });
    expect(await ok('GET', '/devices/doomed-a/settings')).toMatchObject({ rotation: 0, group_id: null });
  });

  it("clears a deleted playlist from groups: their playlist, their schedule's entries and default", async () => {
    const doomed = (await ok('POST', '/playlists', { name: 'Doomed', items: [] }, 201)).id;
    const schedule: Schedule = {
      entries: [weekdays(doomed).entries[0]!, { ...weekdays(day).entries[0]!, days: ['sat', 'sun'] }],
      default_playlist_id: doomed,
    };
    const group = await ok('POST', '/groups', { name: 'Uses doomed', playlist_id: doomed, schedule }, 201);
    await ok('POST', '/devices', { tag: 'uses-doomed', group_id: group.id }, 201);
    const mark = await lastEventId(service.db);
    expect((await service.call('DELETE', `/playlists/${doomed}`)).statusCode).toBe(204);
    expect(await ok('GET', `/groups/${group.id}`)).toMatchObject({
      playlist_id: null,
      schedule: { entries: [schedule.entries[1]], default_playlist_id: null },
    });
    const events = await eventsAfter(service.db, mark);
    expect(events).toContainEqual(deviceChanged('uses-doomed'));
    expect(events).toContainEqual({
      type: 'playlist.changed',
      payload: { playlist_id: doomed },
      rooms: [`playlist:${doomed}`],
    });
  });

  it('lets a device-bound token see its own group only, and change none', async () => {
    const mine = await ok('POST', '/groups', { name: 'Mine' }, 201);
    const theirs = await ok('POST', '/groups', { name: 'Theirs' }, 201);
    await ok('POST', '/devices', { tag: 'bound-screen', group_id: mine.id }, 201);
    await ok('POST', '/devices', { tag: 'mine-too', group_id: mine.id }, 201);
    const { token } = await ok(
      'POST',
      '/account/tokens',
      { scope: 'affiliated', device_tag: 'bound-screen' },
      201,
    );
    const as = (method: 'GET' | 'PATCH' | 'POST' | 'DELETE', url: string, body?: unknown) =>
      service.call(method, url, body, token);

    expect((await as('GET', '/groups')).json().map((g: { id: string }) => g.id)).toEqual([mine.id]);
    expect((await as('GET', `/groups/${mine.id}`)).statusCode).toBe(200);
    expect((await as('GET', `/groups/${theirs.id}`)).statusCode).toBe(404);
    expect((await as('GET', `/groups/${mine.id}/devices`)).json().map((d: { tag: string }) => d.tag)).toEqual(
      ['bound-screen'],
    );
    expect((await as('POST', '/groups', { name: 'Nope' })).statusCode).toBe(403);
    expect((await as('PATCH', `/groups/${mine.id}`, { rotation: 90 })).statusCode).toBe(403);
    expect((await as('DELETE', `/groups/${mine.id}`)).statusCode).toBe(403);
    const own = await as('PATCH', '/devices/bound-screen', { group_id: theirs.id });
    expect(own.statusCode).toBe(403);
    expect((await as('PATCH', '/devices/bound-screen', { rotation: 90 })).statusCode).toBe(403);
    expect((await as('PATCH', '/devices/bound-screen', { name: 'Still mine' })).statusCode).toBe(200);
    expect((await as('GET', '/devices/bound-screen/settings')).statusCode).toBe(200);
    expect((await as('GET', '/devices/mine-too/settings')).statusCode).toBe(404);
  });

  it('tells watching consoles of every group written (the groups notice)', async () => {
    const heard: OperatorNotice[] = [];
    const stop = service.app.wallboard.changes.onNotice((notice) => heard.push(notice));
    try {
      const group = await ok('POST', '/groups', { name: 'Noticed' }, 201);
      await ok('PATCH', `/groups/${group.id}`, { name: 'Noticed again' });
      expect((await service.call('DELETE', `/groups/${group.id}`)).statusCode).toBe(204);
      expect(heard.filter((notice) => notice.resource === 'groups')).toEqual([
        { resource: 'groups', id: group.id },
        { resource: 'groups', id: group.id },
        { resource: 'groups', id: group.id },
      ]);
    } finally {
      stop();
    }
  });

  it('lets a readonly token read groups and change none', async () => {
    const readonly = await service.tokenOf('readonly');
    expect((await service.call('GET', '/groups', undefined, readonly)).statusCode).toBe(200);
    expect((await service.call('POST', '/groups', { name: 'ro' }, readonly)).statusCode).toBe(403);
  });

  it('describes every group route in the OpenAPI description', async () => {
    const { paths } = (await service.call('GET', '/openapi.json', undefined, null)).json();
    expect(Object.keys(paths['/groups'])).toEqual(['get', 'post']);
    expect(Object.keys(paths['/groups/{id}'])).toEqual(['get', 'patch', 'delete']);
    expect(Object.keys(paths['/groups/{id}/devices'])).toEqual(['get']);
    expect(Object.keys(paths['/devices/{tag}/settings'])).toEqual(['get']);
    expect(Object.keys(paths['/devices/{tag}/schedule/at'])).toEqual(['get']);
    expect(paths['/groups'].post.description).toContain('Permission: `write`');
  });
});
