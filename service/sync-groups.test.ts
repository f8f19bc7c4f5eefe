import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ClockEstimator } from '../src/shared/sync-clock';
import { CLOCK_RATE } from './realtime/clock';
import { clientsOf, listen, seed } from './testing/realtime-clients';
import { FakeClock } from './testing/fake-clock';
import { eventsAfter, lastEventId, startTestService, type TestService } from './test-support';

const clock = new FakeClock('2026-11-28T03:00:00.000Z');
let service: TestService;
let url: string;
const clients = clientsOf(() => url);

beforeAll(async () => {
  service = await startTestService({ clock });
  await seed(service, [
    "insert into devices (id, tag, playlist_id) values ('d2', 'hall', 'p1'), ('d3', 'bar', 'p1')",
  ]);
  url = await listen(service);
});
afterEach(() => clients.closeAll());
afterAll(() => service.close());

async function ok(
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  path: string,
  body?: unknown,
  status = 200,
) {
  const response = await service.call(method, path, body);
  expect(response.statusCode, response.body).toBe(status);
  return response.body ? response.json() : undefined;
}

const WALL = {
  columns: 2,
  rows: 2,
  screen_width_mm: 1210,
  screen_height_mm: 680,
  bezel_x_mm: 12.1,
  bezel_y_mm: 6.8,
};

describe('the clock ping', () => {
  it("answers with the service's clock, which a device's filter reads within its round trip", async () => {
    const client = clients.open();
    await new Promise<void>((resolve) => client.on('connect', resolve));
    const estimator = new ClockEstimator();
    for (let round = 0; round < 8; round++) {
      const sent = Date.now();
      const answer = await client.emitWithAck('clock');
      estimator.add({ sent, remote: answer.now, received: Date.now() });
    }
    const estimate = estimator.estimate();
    // The fake clock stands still at 03:00: the offset is that instant less the real one now.
    const expected = Date.parse('2026-11-28T03:00:00.000Z') - Date.now();
    expect(Math.abs((estimate?.offsetMs ?? 0) - expected)).toBeLessThanOrEqual(
      (estimate?.roundTripMs ?? 0) / 2 + 50,
    );
  });

  it('answers a burst, then no faster than its rate', async () => {
    const client = clients.open();
    await new Promise<void>((resolve) => client.on('connect', resolve));
    const answers = await Promise.all(
      Array.from({ length: CLOCK_RATE.burst + 4 }, () =>
        client
          .timeout(500)
          .emitWithAck('clock')
          .then(
            () => true,
            () => false,
          ),
      ),
    );
    expect(answers.filter(Boolean).length).toBe(CLOCK_RATE.burst);
  });
});

describe('sync groups', () => {
  it('creates a wall, places screens in its cells and tells each screen its cell in its settings', async () => {
    const mark = await lastEventId(service.db);
    const group = await ok('POST', '/sync-groups', { name: ' Lobby wall ', wall: WALL }, 201);
    expect(group).toEqual({
      id: expect.stringMatching(/^syn_/),
      name: 'Lobby wall',
      wall: WALL,
      epoch: '2026-11-28T03:00:00.000Z',
      created_at: '2026-11-28T03:00:00.000Z',
      updated_at: '2026-11-28T03:00:00.000Z',
    });
    expect(await ok('GET', '/sync-groups')).toEqual([group]);
    const members = await ok('PUT', `/sync-groups/${group.id}/screens/hall`, { column: 1, row: 0 });
    expect(members).toEqual([{ device_tag: 'hall', column: 1, row: 0 }]);
    const settings = await ok('GET', '/devices/hall/settings');
    expect(settings.sync).toEqual({
      group_id: group.id,
      epoch_ms: Date.parse('2026-11-28T03:00:00.000Z'),
      wall: { columns: 2, rows: 2, column: 1, row: 0, gap_x: 0.01, gap_y: 0.01 },
    });
    expect((await ok('GET', '/devices/lobby/settings')).sync).toBeNull();
    const told = await eventsAfter(service.db, mark, 'device.changed');
    expect(told.map((event) => event.payload.device_tag)).toEqual(['hall']);

    // Its cell is taken: another screen is refused it, and loses nothing.
    const taken = await service.call('PUT', `/sync-groups/${group.id}/screens/bar`, { column: 1, row: 0 });
    expect(taken.statusCode, taken.body).toBe(409);
    expect((await ok('GET', `/sync-groups/${group.id}/screens`)).length).toBe(1);

    // A smaller wall would leave the screen outside: refused, the wall kept.
    const smaller = await service.call('PATCH', `/sync-groups/${group.id}`, {
      wall: { ...WALL, columns: 1 },
    });
    expect(smaller.statusCode, smaller.body).toBe(400);
    expect((await ok('GET', `/sync-groups/${group.id}`)).wall).toEqual(WALL);
  });

  it('refuses a cell outside the wall, a missing cell on a wall, a cell off a wall, with the field', async () => {
    const wall = await ok(
      'POST',
      '/sync-groups',
      { name: 'Menu row', wall: { ...WALL, columns: 3, rows: 1 } },
      201,
    );
    const outside = await service.call('PUT', `/sync-groups/${wall.id}/screens/bar`, { column: 3, row: 0 });
    expect(outside.statusCode).toBe(400);
    expect(outside.json().error.details).toEqual([{ path: 'body.column', message: 'is outside the wall' }]);
    const missing = await service.call('PUT', `/sync-groups/${wall.id}/screens/bar`, {});
    expect(missing.statusCode).toBe(400);
    const plain = await ok('POST', '/sync-groups', { name: 'Tills' }, 201);
    const offWall = await service.call('PUT', `/sync-groups/${plain.id}/screens/bar`, { column: 0, row: 0 });
    expect(offWall.statusCode).toBe(400);
    const badWall = await service.call('POST', '/sync-groups', {
      name: 'Bad',
      wall: { ...WALL, columns: 0 },
    });
    expect(badWall.statusCode).toBe(400);
    expect(badWall.json().error.details[0].path).toBe('body.wall.columns');
    const unknown = await service.call('PUT', `/sync-groups/${plain.id}/screens/nobody`, {});
    expect(unknown.statusCode).toBe(404);
    // Nothing of it was kept.
    expect(await ok('GET', `/sync-groups/${wall.id}/screens`)).toEqual([]);
    expect(await ok('GET', `/sync-groups/${plain.id}/screens`)).toEqual([]);
  });

  it('moves a screen between groups, restarts a timeline, and deletes a group, telling its screens', async () => {
    const first = await ok('POST', '/sync-groups', { name: 'First' }, 201);
    const second = await ok('POST', '/sync-groups', { name: 'Second' }, 201);
    await ok('PUT', `/sync-groups/${first.id}/screens/bar`, {});
    await ok('PUT', `/sync-groups/${second.id}/screens/bar`, {});
    expect(await ok('GET', `/sync-groups/${first.id}/screens`)).toEqual([]);
    expect((await ok('GET', '/devices/bar/settings')).sync).toEqual({
      group_id: second.id,
      epoch_ms: Date.parse(second.epoch),
      wall: null,
    });
    await clock.advance(60_000);
    const restarted = await ok('PATCH', `/sync-groups/${second.id}`, { restart: true });
    expect(restarted.epoch).toBe('2026-11-28T03:01:00.000Z');
    await ok('DELETE', `/sync-groups/${second.id}/screens/bar`, undefined, 204);
    expect((await ok('GET', '/devices/bar/settings')).sync).toBeNull();
    await ok('PUT', `/sync-groups/${second.id}/screens/bar`, {});
    const mark = await lastEventId(service.db);
    await ok('DELETE', `/sync-groups/${second.id}`, undefined, 204);
    expect((await eventsAfter(service.db, mark, 'device.changed')).map((e) => e.payload.device_tag)).toEqual([
      'bar',
    ]);
    expect((await ok('GET', '/devices/bar/settings')).sync).toBeNull();
    expect((await service.call('GET', `/sync-groups/${second.id}`)).statusCode).toBe(404);
  });

  it('keeps to its account', async () => {
    const other = await service.addAccount('Other sync account');
    expect((await other.call('GET', '/sync-groups')).json()).toEqual([]);
    const mine = await ok('POST', '/sync-groups', { name: 'Mine only' }, 201);
    expect((await other.call('GET', `/sync-groups/${mine.id}`)).statusCode).toBe(404);
    expect((await other.call('PUT', `/sync-groups/${mine.id}/screens/lobby`, {})).statusCode).toBe(404);
  });
});
