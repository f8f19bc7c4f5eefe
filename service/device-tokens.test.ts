import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TokenScope } from '../src/shared/token';
import { startTestService, type TestService } from './test-support';
import { clientsOf, hello, listen, nextEvent, seed } from './testing/realtime-clients';
import { sampleHeartbeat } from '../src/shared/testing/device-fixtures';

/**
 * Tokens bound to a device (docs/api.md, device-bound tokens), as a matrix like scopes.test.ts:
 * every route of the OpenAPI description, about the lobby's device, playlist, board, flow and
 * channel, against the lobby's own token, the kitchen's, an unbound affiliated token and a full
 * one; then the red team's findings one by one, and the socket's hello.
 *
 * The seed (testing/realtime-clients.ts): lobby plays p1 (board b1, widget w1 of flow f1 `cpu`,
 * channel c1 `one`); kitchen plays p2 (board b2, flow f2 `mem`, channel c2 `two`).
 */

type Who = 'own' | 'other' | 'unbound' | 'full';

let service: TestService;
let url: string;
const tokens = {} as Record<Who, string>;
const sockets = clientsOf(() => url);

async function boundTo(tag: string): Promise<string> {
  const response = await service.call('POST', '/account/tokens', { scope: 'affiliated', device_tag: tag });
  expect(response.statusCode).toBe(201);
  return response.json().token;
}

beforeAll(async () => {
  service = await startTestService();
  await seed(service, [
    "insert into devices (id, tag, playlist_id) values ('d2', 'kitchen', 'p2')",
    "insert into notifications (id, channel_id, title, message, duration) values ('n1', 'c1', 'One', 'm', 10), ('n2', 'c2', 'Two', 'm', 10)",
  ]);
  tokens.own = await boundTo('lobby');
  tokens.other = await boundTo('kitchen');
  tokens.unbound = await service.tokenOf('affiliated');
  tokens.full = await service.tokenOf('full');
  url = await listen(service);
});
afterEach(() => sockets.closeAll());
afterAll(() => service.close());

const heartbeat = sampleHeartbeat('board:b1');

/** Valid bodies, so that a refusal is the token's and not the body's. */
const BODIES: Record<string, (who: Who) => unknown> = {
  'POST /devices': (who) => ({ tag: `made-by-${who}` }),
  'PATCH /devices/{tag}': (who) => ({ description: `patched by ${who}` }),
  'POST /devices/{tag}/heartbeat': () => heartbeat,
  'POST /devices/{tag}/offline': () => ({}),
  'POST /channels/{channel_id}/notifications': (who) => ({ title: who, message: 'm' }),
  'POST /flows/{tag}/notifications': (who) => ({ title: who, message: 'm' }),
  'PUT /flows/{tag}/metrics': () => ({ value: 1 }),
  'PATCH /flows/{tag}/metrics': () => ({ value: 2 }),
  'PUT /flows/{tag}/data': () => ({ value: 3 }),
  'PATCH /flows/{tag}/data': () => ({ value: 4 }),
  'POST /metrics': () => ({ data: { cpu: { value: 5 } } }),
  'PATCH /metrics': () => ({ data: { cpu: { value: 6 } } }),
  'POST /data': () => ({ data: { cpu: { value: 7 } } }),
  'PATCH /data': () => ({ cpu: { value: 8 } }),
  'POST /v1/data': () => ({ data: { cpu: { value: 9 } } }),
  'PATCH /v1/data': () => ({ cpu: { value: 10 } }),
  'POST /channels/{channel_id}/metrics': () => ({ data: { cpu: { value: 11 } } }),
  'PATCH /channels/{channel_id}/metrics': () => ({ data: { cpu: { value: 12 } } }),
  'POST /channels/{channel_id}/data': () => ({ cpu: { value: 13 } }),
  'POST /channels/{channel_id}/flows/{flow_tag}/data': () => ({ value: 14 }),
  'POST /flows/{tag}/error': () => ({ errored: false }),
};

interface Operation {
  method: string;
  template: string;
  scopes: TokenScope[];
}

async function operations(): Promise<Operation[]> {
  const openapi = (await service.call('GET', '/openapi.json', undefined, null)).json() as {
    paths: Record<string, Record<string, { description?: string }>>;
  };
  return Object.entries(openapi.paths).flatMap(([template, methods]) =>
    Object.entries(methods).flatMap(([method, operation]) => {
      if (operation.description?.includes('Needs no token.')) return [];
      const scopes = /\(scopes: ([a-z, ]*)\)/.exec(operation.description ?? '')?.[1] ?? '';
      return [{ method: method.toUpperCase(), template, scopes: scopes.split(', ') as TokenScope[] }];
    }),
  );
}

/** The path about the lobby's things; parameters naming nothing of the seed name nothing at all. */
function lobbyPath(template: string): string {
  return template
    .replace(/^\/devices\/\{tag\}/, '/devices/lobby')
    .replace(/^\/flows\/\{tag\}/, '/flows/cpu')
    .replace(/^\/flows\/\{id\}/, '/flows/f1')
    .replace(/^\/boards\/\{id\}/, '/boards/b1')
    .replace('{widget_id}', 'w1')
    .replace(/^\/widgets\/\{id\}/, '/widgets/w1')
    .replace('{flow_tag}', 'cpu')
    .replace(/^\/channels\/\{(id|channel_id)\}/, '/channels/c1')
    .replace(/^\/playlists\/\{id\}/, '/playlists/p1')
    .replace(/^\/notifications\/\{id\}/, '/notifications/n1')
    .replace(/\{[^}]+\}/g, 'nothing-here');
}

const call = (who: Who, method: string, path: string, body?: unknown) =>
  service.call(method as never, path, body, tokens[who]);

describe('every route × {bound to this device, bound to another, unbound affiliated, full}', () => {
  it('answers another device’s token 404 about anything of this one, and lets the others through', async () => {
    const all = await operations();
    expect(all.length).toBeGreaterThan(40);
    for (const { method, template, scopes } of all) {
      const key = `${method} ${template}`;
      const path = lobbyPath(template);
      const bodyOf = BODIES[key] ?? (() => (method === 'GET' || method === 'DELETE' ? undefined : {}));
      // Map tiles are the same for every screen: named by coordinates, not by a resource.
      const aboutOne = template.includes('{') && !template.startsWith('/map/tiles/');
      // In this order: the other device first, so that what it must not change is still as seeded.
      for (const who of ['other', 'own', 'unbound', 'full'] as const) {
        // Deletions by a full token are each resource's own tests; here they would empty the seed.
        if (who === 'full' && method === 'DELETE') continue;
        const response = await call(who, method, path, bodyOf(who));
        const where = `${who}: ${key} answered ${response.statusCode} ${response.body.slice(0, 200)}`;
        const scope: TokenScope = who === 'full' ? 'full' : 'affiliated';
        if (!scopes.includes(scope)) {
          expect(response.statusCode, where).toBe(403);
        } else if (key === 'POST /devices' && (who === 'own' || who === 'other')) {
          expect(response.statusCode, where).toBe(403);
          expect(response.json().error.message, where).toMatch(/bound to device .* may not create devices/);
        } else if (who === 'other' && aboutOne) {
          // A body this test does not know may be refused first; never is it let through.
          expect(BODIES[key] || method === 'GET' ? [404] : [400, 404, 415], where).toContain(
            response.statusCode,
          );
          if (response.statusCode === 404) expect(response.json().error.code, where).toBe('not_found');
        } else {
          expect([401, 403, 500], where).not.toContain(response.statusCode);
          // What the seed has is found by its device's own token as by unbound ones.
          if (
            method === 'GET' &&
            !path.includes('nothing-here') &&
            // A screen's status, commands and screenshot, and the account's sign-on, are 404 until there are any.
            !/\/(status|commands|screenshot|account\/sso)/.test(path)
          ) {
            expect(response.statusCode, where).toBe(200);
          }
        }
      }
    }
  });
});

describe('lists answer a device-bound token what its device plays, only', () => {
  it.each([
    ['/devices', 'tag', ['lobby']],
    ['/playlists', 'id', ['p1']],
    ['/boards', 'id', ['b1']],
    ['/widgets', 'id', ['w1']],
    ['/flows', 'id', ['f1']],
    ['/channels', 'id', ['c1']],
    ['/notifications', 'channel_id', ['c1']],
  ])('%s', async (path, field, lobby) => {
    const seen = async (who: Who) => [
      ...new Set(
        ((await call(who, 'GET', path)).json() as Record<string, string>[]).map((item) => item[field]),
      ),
    ];
    expect(await seen('own')).toEqual(lobby);
    expect(await seen('other')).not.toEqual(expect.arrayContaining(lobby));
    expect(await seen('unbound')).toEqual(expect.arrayContaining(lobby));
    expect((await seen('unbound')).length).toBeGreaterThan(lobby.length);
  });

  it('follows the store: a new playlist shows its boards at once, and hides the old ones', async () => {
    await service.call('POST', '/devices', { tag: 'porch', playlist_id: 'p1' });
    const porch = await boundTo('porch');
    expect((await service.call('GET', '/boards/b1', undefined, porch)).statusCode).toBe(200);
    await service.call('PATCH', '/devices/porch', { playlist_id: 'p2' });
    expect((await service.call('GET', '/boards/b1', undefined, porch)).statusCode).toBe(404);
    expect((await service.call('GET', '/boards/b2', undefined, porch)).statusCode).toBe(200);
    expect((await service.call('GET', '/flows/mem/metrics', undefined, porch)).statusCode).toBe(200);
  });
});

describe('the red team’s findings', () => {
  const lobby = async () => (await service.call('GET', '/devices/lobby')).json();

  it("another screen's token cannot rename or re-point this one (404), nor send its heartbeats or mark it offline", async () => {
    const before = await lobby();
    for (const [method, path, body] of [
      ['PATCH', '/devices/lobby', { name: 'pwned', playlist_id: 'p2' }],
      ['POST', '/devices/lobby/heartbeat', heartbeat],
      ['POST', '/devices/lobby/offline', {}],
    ] as const) {
      const response = await call('other', method, path, body);
      expect(response.statusCode, `${method} ${path}`).toBe(404);
      expect(response.json().error.message).toBe('device lobby not found');
    }
    expect(await lobby()).toEqual(before);
    // Once online by its own heartbeat, the other's offline leaves it online.
    expect((await call('own', 'POST', '/devices/lobby/heartbeat', heartbeat)).statusCode).toBe(200);
    expect((await call('other', 'POST', '/devices/lobby/offline', {})).statusCode).toBe(404);
    expect((await lobby()).online).toBe(true);
  });

  it('a device-bound token creates no device (403); an unbound affiliated one still does', async () => {
    const refused = await call('own', 'POST', '/devices', { tag: 'rogue' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toMatchObject({ code: 'forbidden', details: [] });
    expect((await service.call('GET', '/devices/rogue')).statusCode).toBe(404);
    expect((await call('unbound', 'POST', '/devices', { tag: 'registered' })).statusCode).toBe(201);
  });

  it('its own token names and describes its device, but the playlist is the operator’s (403)', async () => {
    expect((await call('own', 'PATCH', '/devices/lobby', { name: 'Lobby' })).json().name).toBe('Lobby');
    const refused = await call('own', 'PATCH', '/devices/lobby', { playlist_id: 'p2' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toMatch(/may not choose its playlist/);
    expect((await lobby()).playlist_id).toBe('p1');
  });

  it('metrics and notifications go to what the device shows only', async () => {
    const batch = await call('own', 'POST', '/metrics', { data: { cpu: { value: 10 }, mem: { value: 10 } } });
    expect(batch.json()).toMatchObject({ updated: ['cpu'], skipped: ['mem'], errors: [] });
    expect((await service.call('GET', '/flows/mem/metrics')).json().value).not.toBe(10);
    const note = { title: 'hi', message: 'there' };
    expect((await call('own', 'POST', '/channels/one/notifications', note)).statusCode).toBe(201);
    expect((await call('own', 'POST', '/channels/c2/notifications', note)).statusCode).toBe(404);
    expect((await call('own', 'POST', '/channels/two/notifications', note)).statusCode).toBe(404);
    expect((await call('own', 'POST', '/flows/cpu/notifications', note)).statusCode).toBe(201);
    expect((await call('own', 'POST', '/flows/mem/notifications', note)).statusCode).toBe(404);
    expect((await call('unbound', 'POST', '/channels/two/notifications', note)).statusCode).toBe(201);
  });
});

describe('realtime', () => {
  it('a device-bound token says hello as its own device only; an unbound one as any', async () => {
    const own = sockets.open(tokens.own);
    const refused = await hello(own, null, 'kitchen');
    expect(refused.error).toBe('this token is bound to device lobby; it may say hello as that device only');
    expect((await hello(own, null, 'lobby')).error).toBeUndefined();
    // The kitchen's change is not heard: the next event is the lobby's, published after it.
    const heard = nextEvent(own);
    await service.call('PATCH', '/devices/kitchen', { name: 'Kitchen' });
    await service.call('PATCH', '/devices/lobby', { description: 'after' });
    expect(await heard).toMatchObject({ type: 'device.changed', device_tag: 'lobby' });

    const unbound = sockets.open(tokens.unbound);
    expect((await hello(unbound, null, 'kitchen')).error).toBeUndefined();
  });

  it('a bound token’s socket is cut when its device is deleted', async () => {
    await service.call('POST', '/devices', { tag: 'shed' });
    const socket = sockets.open(await boundTo('shed'));
    expect((await hello(socket, null, 'shed')).error).toBeUndefined();
    const cut = new Promise((resolve) => socket.once('disconnect', resolve));
    expect((await service.call('DELETE', '/devices/shed')).statusCode).toBe(204);
    expect(await cut).toBe('io server disconnect');
    const left = await sql<{ n: number }>`select count(*) as n from tokens where device_tag = 'shed'`.execute(
      service.db.kysely,
    );
    expect(Number(left.rows[0]?.n)).toBe(0);
  });
});
