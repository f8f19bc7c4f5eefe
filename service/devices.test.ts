import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { iso } from './repositories/rows';
import { eventsAfter, lastEventId as lastLoggedId, startTestService, type TestService } from './test-support';
import { sampleHeartbeat } from '../src/shared/testing/device-fixtures';

let service: TestService;
let current = new Date('2026-11-21T07:00:00.000Z');
const clock = { now: () => current };

beforeAll(async () => {
  service = await startTestService({ clock });
});
afterAll(() => service.close());

const heartbeat = sampleHeartbeat('board:b_1');

interface EventRow {
  type: string;
  rooms: string[];
  payload: Record<string, unknown>;
}

const lastEventId = () => lastLoggedId(service.db);

/** The events written after `mark`, oldest first. */
const eventsSince = (mark: number): Promise<EventRow[]> => eventsAfter(service.db, mark);

const deviceChanged = (tag: string): EventRow => ({
  type: 'device.changed',
  rooms: [`device:${tag}`],
  payload: { device_tag: tag },
});

async function createDevice(tag: string, extra: Record<string, unknown> = {}) {
  const response = await service.call('POST', '/devices', { tag, ...extra });
  expect(response.statusCode).toBe(201);
  return response.json();
}

async function createPlaylist(name: string): Promise<string> {
  const response = await service.call('POST', '/playlists', { name });
  expect(response.statusCode).toBe(201);
  return response.json().id;
}

describe('device resources', () => {
  it('creates a device from a tag alone, and serves it by tag and in the list', async () => {
    const created = await createDevice('lobby');
    expect(created).toEqual({
      id: expect.stringMatching(/^dev_/),
      tag: 'lobby',
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
    });
    const got = await service.call('GET', '/devices/lobby');
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual(created);
    const list = await service.call('GET', '/devices');
    expect(list.statusCode).toBe(200);
    expect(list.json()).toContainEqual(created);
  });

  it('creates a device with its name, description and playlist', async () => {
    const playlist = await createPlaylist('Hall loop');
    const created = await createDevice('hall', {
      name: ' Hall TV ',
      description: 'by the door',
      playlist_id: playlist,
    });
    expect(created).toMatchObject({
      tag: 'hall',
      name: 'Hall TV',
      description: 'by the door',
      playlist_id: playlist,
    });
  });

  it('answers 409 to a tag already used', async () => {
    await createDevice('dup');
    const response = await service.call('POST', '/devices', { tag: 'dup', name: 'again' });
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toMatchObject({
      code: 'conflict',
      message: 'a device with tag "dup" already exists',
      details: [{ path: 'body.tag' }],
    });
  });

  it('answers 400 naming body.playlist_id to an unknown playlist, on create and on update', async () => {
    const created = await service.call('POST', '/devices', { tag: 'orphan', playlist_id: 'pl_nope' });
    expect(created.statusCode).toBe(400);
    expect(created.json().error).toMatchObject({
      code: 'invalid_request',
      details: [{ path: 'body.playlist_id', message: 'must name an existing playlist' }],
    });
    expect((await service.call('GET', '/devices/orphan')).statusCode).toBe(404);

    await createDevice('patched-orphan');
    const patched = await service.call('PATCH', '/devices/patched-orphan', { playlist_id: 'pl_nope' });
    expect(patched.statusCode).toBe(400);
    expect(patched.json().error.details).toEqual([
      { path: 'body.playlist_id', message: 'must name an existing playlist' },
    ]);
  });

  it('refuses bad bodies with details naming the field', async () => {
    const cases: [unknown, string][] = [
      [{}, 'body.tag'],
      [{ tag: '-starts-with-dash' }, 'body.tag'],
      [{ tag: 'has space' }, 'body.tag'],
      [{ tag: 'ok', name: 'x'.repeat(256) }, 'body.name'],
      [{ tag: 'ok', description: 'x'.repeat(1001) }, 'body.description'],
      [{ tag: 'ok', online: true }, 'body.online'],
    ];
    for (const [body, path] of cases) {
      const response = await service.call('POST', '/devices', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().error.details[0].path, JSON.stringify(body)).toBe(path);
    }
    await createDevice('strict');
    const patched = await service.call('PATCH', '/devices/strict', { tag: 'renamed' });
    expect(patched.statusCode).toBe(400);
    const badParam = await service.call('GET', '/devices/bad%20tag');
    expect(badParam.statusCode).toBe(400);
    expect(badParam.json().error.details[0].path).toBe('params.tag');
  });

  it('answers 404 for an unknown tag on every device route', async () => {
    const routes: [string, string, unknown?][] = [
      ['GET', '/devices/ghost'],
      ['PATCH', '/devices/ghost', { name: 'x' }],
      ['DELETE', '/devices/ghost'],
      ['POST', '/devices/ghost/heartbeat', heartbeat],
      ['GET', '/devices/ghost/status'],
      ['POST', '/devices/ghost/offline'],
      ['GET', '/devices/ghost/playlist'],
    ];
    for (const [method, url, body] of routes) {
      const response = await service.call(method as 'GET', url, body);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.json().error).toMatchObject({ code: 'not_found', message: 'device ghost not found' });
    }
  });

  it('updates name, description and playlist, clears the playlist with null, and publishes each change', async () => {
    await createDevice('kitchen');
    const first = await createPlaylist('Kitchen A');
    const second = await createPlaylist('Kitchen B');
    const mark = await lastEventId();

    const named = await service.call('PATCH', '/devices/kitchen', { name: 'Kitchen', description: 'fridge' });
    expect(named.statusCode).toBe(200);
    expect(named.json()).toMatchObject({
      tag: 'kitchen',
      name: 'Kitchen',
      description: 'fridge',
      playlist_id: null,
    });

    const given = await service.call('PATCH', '/devices/kitchen', { playlist_id: first });
    expect(given.json()).toMatchObject({ name: 'Kitchen', playlist_id: first });
    const moved = await service.call('PATCH', '/devices/kitchen', { playlist_id: second });
    expect(moved.json().playlist_id).toBe(second);
    const cleared = await service.call('PATCH', '/devices/kitchen', { playlist_id: null });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json()).toMatchObject({ name: 'Kitchen', description: 'fridge', playlist_id: null });

    expect(await eventsSince(mark)).toEqual([
      deviceChanged('kitchen'),
      deviceChanged('kitchen'),
      deviceChanged('kitchen'),
      deviceChanged('kitchen'),
    ]);
  });

  it('answers an empty patch with the device and publishes nothing', async () => {
    await createDevice('idle');
    const mark = await lastEventId();
    const response = await service.call('PATCH', '/devices/idle', {});
    expect(response.statusCode).toBe(200);
    expect(response.json().tag).toBe('idle');
    expect(await eventsSince(mark)).toEqual([]);
  });

  it('deletes a device with 204 and an empty body, and publishes it', async () => {
    await createDevice('doomed');
    const mark = await lastEventId();
    const response = await service.call('DELETE', '/devices/doomed');
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
    expect((await service.call('GET', '/devices/doomed')).statusCode).toBe(404);
    expect(await eventsSince(mark)).toEqual([deviceChanged('doomed')]);
    expect((await service.call('DELETE', '/devices/doomed')).statusCode).toBe(404);
  });

  it('never answers the diagnostics column', async () => {
    await createDevice('private');
    await service.call('POST', '/devices/private/heartbeat', heartbeat);
    for (const url of ['/devices', '/devices/private']) {
      expect((await service.call('GET', url)).body).not.toContain('diagnostics');
      expect((await service.call('GET', url)).body).not.toContain('Debian');
    }
  });
});

describe('heartbeats', () => {
  it('marks the device online, seen now from the request address, and publishes it once', async () => {
    await createDevice('beater');
    current = new Date('2026-11-21T08:00:00.000Z');
    const mark = await lastEventId();

    const response = await service.call('POST', '/devices/beater/heartbeat', heartbeat);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      tag: 'beater',
      online: true,
      last_seen_date: '2026-11-21T08:00:00.000Z',
      last_seen_ip: '127.0.0.1',
    });
    expect(response.json()).not.toHaveProperty('diagnostics');

    current = new Date('2026-11-21T08:00:30.000Z');
    const again = await service.call('POST', '/devices/beater/heartbeat', { ...heartbeat, cpu_load: 50 });
    expect(again.json()).toMatchObject({ online: true, last_seen_date: '2026-11-21T08:00:30.000Z' });
    // The second heartbeat found the device online already: nothing to tell.
    expect(await eventsSince(mark)).toEqual([deviceChanged('beater')]);
    const stored = await service.db.kysely
      .selectFrom('devices')
      .select(['last_seen_date', 'last_seen_ip'])
      .where('tag', '=', 'beater')
      .executeTakeFirstOrThrow();
    expect({ ...stored, last_seen_date: iso(stored.last_seen_date) }).toEqual({
      last_seen_date: '2026-11-21T08:00:30.000Z',
      last_seen_ip: '127.0.0.1',
    });
  });

  it('serves the last heartbeat as the status, with the time it was received', async () => {
    await createDevice('reporter');
    const before = await service.call('GET', '/devices/reporter/status');
    expect(before.statusCode).toBe(404);
    expect(before.json().error).toMatchObject({
      code: 'not_found',
      message: 'device reporter has not sent a heartbeat yet',
    });

    current = new Date('2026-11-21T09:00:00.000Z');
    await service.call('POST', '/devices/reporter/heartbeat', heartbeat);
    current = new Date('2026-11-21T09:01:00.000Z');
    await service.call('POST', '/devices/reporter/heartbeat', {
      ...heartbeat,
      recoveries: ['renderer reloaded'],
    });

    const status = await service.call('GET', '/devices/reporter/status');
    expect(status.statusCode).toBe(200);
    expect(status.json()).toEqual({
      ...heartbeat,
      recoveries: ['renderer reloaded'],
      failures: [],
      received_at: '2026-11-21T09:01:00.000Z',
    });
  });

  it('keeps what the screen could not show, with reasons and times, in the status', async () => {
    await createDevice('failing');
    const failures = [
      {
        item: 'media:https://cdn.test/lobby.mp4',
        reason: 'download of https://cdn.test/lobby.mp4 failed: HTTP 404',
        at: '2026-11-21T09:09:00.000Z',
      },
      {
        item: 'board:brd_9',
        reason: 'the service has no such board (deleted?)',
        at: '2026-11-21T09:08:00.000Z',
      },
    ];
    current = new Date('2026-11-21T09:10:00.000Z');
    expect(
      (await service.call('POST', '/devices/failing/heartbeat', { ...heartbeat, failures })).statusCode,
    ).toBe(200);
    expect((await service.call('GET', '/devices/failing/status')).json()).toMatchObject({ failures });
  });

  it('keeps a heartbeat with defaults and a null display', async () => {
    await createDevice('headless');
    current = new Date('2026-11-21T09:30:00.000Z');
    await service.call('POST', '/devices/headless/heartbeat', { ...heartbeat, display: null });
    expect((await service.call('GET', '/devices/headless/status')).json()).toEqual({
      ...heartbeat,
      display: null,
      recoveries: [],
      failures: [],
      received_at: '2026-11-21T09:30:00.000Z',
    });
  });

  it('refuses a bad heartbeat with details naming the field', async () => {
    await createDevice('garbled');
    const cases: [unknown, string][] = [
      [{ ...heartbeat, cpu_load: 101 }, 'body.cpu_load'],
      [{ ...heartbeat, memory: { total_bytes: -1, used_bytes: 0 } }, 'body.memory.total_bytes'],
      [{ ...heartbeat, app_version: undefined }, 'body.app_version'],
      [{ ...heartbeat, surprise: true }, 'body.surprise'],
      [
        { ...heartbeat, failures: [{ item: 'board:b1', reason: 'x', at: 'yesterday' }] },
        'body.failures.0.at',
      ],
      [
        { ...heartbeat, failures: [{ item: 'board:b1', at: '2026-11-21T09:00:00.000Z' }] },
        'body.failures.0.reason',
      ],
      [
        {
          ...heartbeat,
          failures: Array(21).fill({ item: 'b', reason: 'r', at: '2026-11-21T09:00:00.000Z' }),
        },
        'body.failures',
      ],
    ];
    for (const [body, path] of cases) {
      const response = await service.call('POST', '/devices/garbled/heartbeat', body);
      expect(response.statusCode, path).toBe(400);
      expect(response.json().error.details[0].path).toBe(path);
    }
    expect((await service.call('GET', '/devices/garbled')).json().online).toBe(false);
  });

  it('takes a device offline when it says it quits, and publishes it', async () => {
    await createDevice('quitter');
    current = new Date('2026-11-21T10:00:00.000Z');
    await service.call('POST', '/devices/quitter/heartbeat', heartbeat);
    const mark = await lastEventId();

    const response = await service.call('POST', '/devices/quitter/offline');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      tag: 'quitter',
      online: false,
      last_seen_date: '2026-11-21T10:00:00.000Z',
      last_seen_ip: '127.0.0.1',
    });
    expect(await eventsSince(mark)).toEqual([deviceChanged('quitter')]);
    // Its last diagnostics stay readable for the operator.
    expect((await service.call('GET', '/devices/quitter/status')).statusCode).toBe(200);

    // Back on: the next heartbeat brings it online and says so.
    const back = await service.call('POST', '/devices/quitter/heartbeat', heartbeat);
    expect(back.json().online).toBe(true);
    expect(await eventsSince(mark)).toEqual([deviceChanged('quitter'), deviceChanged('quitter')]);
  });
});

describe("a device's playlist", () => {
  it('serves the playlist of the device, or 404 saying it has none', async () => {
    await createDevice('player');
    const none = await service.call('GET', '/devices/player/playlist');
    expect(none.statusCode).toBe(404);
    expect(none.json().error).toMatchObject({ code: 'not_found', message: 'device player has no playlist' });

    const id = await createPlaylist('Player loop');
    await service.call('PATCH', '/devices/player', { playlist_id: id });
    const got = await service.call('GET', '/devices/player/playlist');
    expect(got.statusCode).toBe(200);
    expect(got.json()).toEqual((await service.call('GET', `/playlists/${id}`)).json());
  });
});

describe('device routes in the OpenAPI description', () => {
  it('lists every device and playlist route', async () => {
    const openapi = (await service.call('GET', '/openapi.json', undefined, null)).json();
    expect(Object.keys(openapi.paths)).toEqual(
      expect.arrayContaining([
        '/devices',
        '/devices/{tag}',
        '/devices/{tag}/heartbeat',
        '/devices/{tag}/status',
        '/devices/{tag}/offline',
        '/devices/{tag}/playlist',
        '/playlists',
        '/playlists/{id}',
      ]),
    );
  });
});

describe('device permissions', () => {
  it('lets a readonly token read but refuses every write with 403', async () => {
    await createDevice('watched');
    await service.call('POST', '/devices/watched/heartbeat', heartbeat);
    const readonly = await service.tokenOf('readonly');
    for (const url of ['/devices', '/devices/watched', '/devices/watched/status']) {
      expect((await service.call('GET', url, undefined, readonly)).statusCode, url).toBe(200);
    }
    const writes: [string, string, unknown?][] = [
      ['POST', '/devices', { tag: 'by-readonly' }],
      ['PATCH', '/devices/watched', { name: 'x' }],
      ['DELETE', '/devices/watched'],
      ['POST', '/devices/watched/heartbeat', heartbeat],
      ['POST', '/devices/watched/offline'],
    ];
    for (const [method, url, body] of writes) {
      const response = await service.call(method as 'POST', url, body, readonly);
      expect(response.statusCode, `${method} ${url}`).toBe(403);
      expect(response.json().error.code).toBe('forbidden');
    }
    expect((await service.call('GET', '/devices/watched')).json().online).toBe(true);
  });

  it('lets an affiliated token create, update, beat and quit, but not delete', async () => {
    const affiliated = await service.tokenOf('affiliated');
    const created = await service.call('POST', '/devices', { tag: 'self-registered' }, affiliated);
    expect(created.statusCode).toBe(201);
    const patched = await service.call('PATCH', '/devices/self-registered', { name: 'Mine' }, affiliated);
    expect(patched.statusCode).toBe(200);
    const beat = await service.call('POST', '/devices/self-registered/heartbeat', heartbeat, affiliated);
    expect(beat.statusCode).toBe(200);
    expect(
      (await service.call('GET', '/devices/self-registered/status', undefined, affiliated)).statusCode,
    ).toBe(200);
    const quit = await service.call('POST', '/devices/self-registered/offline', undefined, affiliated);
    expect(quit.statusCode).toBe(200);
    expect((await service.call('DELETE', '/devices/self-registered', undefined, affiliated)).statusCode).toBe(
      403,
    );
    expect((await service.call('GET', '/devices/self-registered')).statusCode).toBe(200);
  });

  it('answers 401 without a token', async () => {
    expect((await service.call('GET', '/devices', undefined, null)).statusCode).toBe(401);
    expect((await service.call('POST', '/devices/lobby/heartbeat', heartbeat, null)).statusCode).toBe(401);
  });
});
