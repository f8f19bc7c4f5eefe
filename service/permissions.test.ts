import type { InjectOptions } from 'fastify';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toContentSave, type BoardContent } from '../src/shared/board-content';
import { sampleHeartbeat } from '../src/shared/testing/device-fixtures';
import { USER_ROLES, type UserRole } from '../src/shared/user';
import { createUser } from './actions/users';
import { ROUTE_AREAS } from './http/route-areas';
import { ADMIN_SECRET, startTestService, type TestService } from './test-support';
import { FakeClock } from './testing/fake-clock';
import { multipart } from './testing/multipart';
import { solidPng } from './testing/png';

// The permissions matrix: every route of the OpenAPI description, called by each role (admin,
// editor, publisher, viewer) over the whole account, and by each role kept to one screen group
// with the resources of its group (in scope) and of another group (out of scope). A route added
// without its area (http/route-areas.ts) or without a resource for its parameters fails here, as
// the account-isolation matrix does for accounts.

/** The policy, as docs/api/users.md states it: what each role may write, besides reading. */
const WRITES_OF: Record<UserRole, readonly string[]> = {
  admin: ['content', 'publishing', 'admin'],
  editor: ['content'],
  publisher: ['publishing'],
  viewer: [],
};
/**
 * Reads a role may not make: scripts and data sources (keys were kept there) but to editors, the
 * audit trail and the account's sign-on but to admins.
 */
const ADMINS_ONLY = /^GET \/(audit|account\/sso)/;
const EDITORS_TOO = /^GET \/(scripts|data-sources|data-bindings)/;
const READS_REFUSED: Record<UserRole, readonly RegExp[]> = {
  admin: [],
  editor: [ADMINS_ONLY],
  publisher: [ADMINS_ONLY, EDITORS_TOO],
  viewer: [ADMINS_ONLY, EDITORS_TOO],
};

/** Routes no person signed in calls the way the matrix does: signing in, and screens' pairing. */
const PUBLIC =
  /^(GET \/health|(POST|GET|DELETE) \/session|GET \/session\/|POST \/pairings$|GET \/pairings\/)/;

interface World {
  group: string;
  tag: string;
  playlist: string;
  board: string;
  widget: string;
  flow: string;
  flowTag: string;
  channel: string;
  media: string;
  script: string;
  dataSource: string;
  dataBinding: string;
  command: string;
  override: string;
  notification: string;
  syncGroup: string;
}

/** What each path parameter names, by the path before it: a world's resource, or one of no group. */
function concrete(path: string, world: World, shared: Record<string, string>): string {
  const idOf: [RegExp, string][] = [
    [/^\/users\//, shared.user!],
    [/^\/account\/tokens\//, shared.token!],
    [/^\/flows\//, world.flow],
    [/^\/channels\//, world.channel],
    [/^\/notifications\//, world.notification],
    [/^\/boards\//, world.board],
    [/^\/widgets\//, world.widget],
    [/^\/playlists\//, world.playlist],
    [/^\/groups\//, world.group],
    [/^\/media\//, world.media],
    [/^\/scripts\//, world.script],
    [/^\/alert-destinations\//, shared.alertDestination!],
    [/^\/alert-rules\//, shared.alertRule!],
    [/^\/overrides\//, world.override],
    [/^\/cap-feeds\//, shared.capFeed!],
    [/^\/sync-groups\//, world.syncGroup],
    [/^\/data-sources\//, world.dataSource],
    [/^\/data-bindings\//, world.dataBinding],
    [/^\/devices\/\{tag\}\/commands\//, world.command],
    [/^\/audit\//, 'nothing'],
    [/^\/releases\//, shared.release!],
    [/^\/rollouts\//, shared.rollout!],
  ];
  return path
    .replace('{tag}', path.startsWith('/flows') ? world.flowTag : world.tag)
    .replace('{channel_id}', world.channel)
    .replace('{flow_tag}', world.flowTag)
    .replace('{widget_id}', world.widget)
    .replace('{template}', 'operations-status')
    .replace('{name}', 'API_KEY')
    .replace('{kind}', 'web')
    .replace('{release_id}', shared.release!)
    .replace('{*}', 'index.html')
    .replace('{id}', () => {
      const found = idOf.find(([pattern]) => pattern.test(path));
      if (!found) throw new Error(`${path}: the matrix has no resource for its {id}: add one`);
      return found[1];
    });
}

/**
 * Paths whose resource is a screen, a group, or an override aimed at them: another group's is not
 * found (404) by anyone kept to one.
 */
const SCREEN_PATH = /^\/(devices|groups|overrides)\/\{|^\/sync-groups\/\{id\}\/screens\/\{/;
/** A script of content another group's screens show: its code is not read (404) by anyone kept. */
const SCRIPT_PATH = /^\/scripts\/\{/;
/**
 * Paths whose resource is content a screen plays: another group's is read, not changed (403). Its
 * copy is the caller's, and a data source's test query changes nothing.
 */
const CONTENT_PATH =
  /^\/(boards|widgets|flows|channels|notifications|playlists|media|scripts|data-bindings|data-sources|sync-groups)\/\{(?!.*\/(test|duplicate)$)/;

let service: TestService;
const inside = {} as World;
const outside = {} as World;
const shared: Record<string, string> = {};
const BODIES: Record<string, (world: World) => unknown> = {
  'PATCH /users/{id}': () => ({ role: 'viewer' }),
  'PATCH /flows/{id}': () => ({ errored: false }),
  'PATCH /channels/{id}': () => ({ name: 'Renamed' }),
  'POST /channels/{channel_id}/notifications': () => ({ title: 'T', message: 'm' }),
  'POST /flows/{tag}/notifications': () => ({ title: 'T', message: 'm' }),
  'PUT /flows/{tag}/metrics': () => ({ value: 66 }),
  'PATCH /flows/{tag}/metrics': () => ({ value: 66 }),
  'PUT /flows/{tag}/data': () => ({ value: 66 }),
  'PATCH /flows/{tag}/data': () => ({ value: 66 }),
  'POST /channels/{channel_id}/metrics': () => ({ data: { cpu: { value: 66 } } }),
  'PATCH /channels/{channel_id}/metrics': () => ({ data: { cpu: { value: 66 } } }),
  'POST /channels/{channel_id}/data': () => ({ cpu: { value: 66 } }),
  'POST /channels/{channel_id}/flows/{flow_tag}/data': () => ({ value: 66 }),
  'POST /flows/{tag}/error': () => ({ errored: true }),
  'PATCH /boards/{id}': () => ({ name: 'Renamed' }),
  'POST /boards/{id}/duplicate': () => ({}),
  'POST /boards/{id}/widgets': (w) => ({ flow_id: w.flow, column: 8, row: 8, width: 2, height: 2 }),
  'PATCH /boards/{id}/widgets/{widget_id}': () => ({ column: 1 }),
  'PATCH /widgets/{id}': () => ({ column: 1 }),
  'POST /widgets': (w) => ({ board_id: w.board, flow_id: w.flow, column: 8, row: 8, width: 2, height: 2 }),
  'PATCH /devices/{tag}': () => ({ name: 'Renamed' }),
  'POST /devices/{tag}/commands': () => ({ type: 'identify' }),
  'PATCH /playlists/{id}': () => ({ name: 'Renamed' }),
  'PATCH /media/{id}': () => ({ name: 'Renamed' }),
  'PATCH /groups/{id}': () => ({ name: 'Renamed' }),
  'PATCH /scripts/{id}': () => ({ name: 'Renamed' }),
  'POST /scripts/{id}/run': () => ({}),
  'PUT /scripts/{id}/secrets/{name}': () => ({ value: 'a-value-of-the-matrix' }),
  'PATCH /data-sources/{id}': () => ({ name: 'Renamed' }),
  'POST /data-sources/{id}/test': () => ({ query: 'rows' }),
  'PATCH /data-bindings/{id}': () => ({ query: 'rows' }),
  'POST /notifications': (w) => ({ title: 'T', message: 'm', target: { group_id: w.group } }),
  'POST /overrides': (w) => ({ title: 'T', message: 'm', target: { group_id: w.group } }),
  'POST /data-bindings': (w) => ({ source_id: w.dataSource, flow: w.flowTag, mapping: { value: 'n' } }),
};

async function made(url: string, body: unknown): Promise<{ id: string }> {
  const response = await service.call('POST', url, body);
  expect([201, 202], `${url}: ${response.body}`).toContain(response.statusCode);
  return response.json();
}

/** A group with one screen playing a board of one flow, a medium, a script and a data source. */
async function world(name: string, into: World): Promise<void> {
  into.group = (await made('/groups', { name })).id;
  into.flowTag = `${name}-flow`;
  const parent = (await service.call('GET', '/channels')).json<{ id: string }[]>()[0]?.id;
  into.channel = (
    await made('/channels', { name: `${name} news`, tag: `${name}-news`, parent_channel_id: parent })
  ).id;
  into.flow = (await made('/flows', { tag: into.flowTag, variant: 'value', channel_id: into.channel })).id;
  into.board = (await made('/boards', { name: `${name} board`, channel_ids: [into.channel] })).id;
  const place = { flow_id: into.flow, column: 0, row: 0, width: 4, height: 4 };
  into.widget = (await made(`/boards/${into.board}/widgets`, place)).id;
  const upload = multipart([{ name: 'file', filename: 'a.png', type: 'image/png', content: solidPng(2, 3) }]);
  const media = await service.app.inject({
    method: 'POST',
    url: '/media',
    headers: { ...upload.headers, authorization: `Bearer ${ADMIN_SECRET}` },
    payload: upload.payload,
  });
  into.media = media.json<{ id: string }>().id;
  const items = [
    { type: 'board', board_id: into.board, duration: 10 },
    { type: 'image', url: `/media/${into.media}/content`, duration: 10 },
  ];
  into.playlist = (await made('/playlists', { name: `${name} loop`, items })).id;
  into.tag = `${name}-screen`;
  await made('/devices', { tag: into.tag, playlist_id: into.playlist, group_id: into.group });
  await service.call('POST', `/devices/${into.tag}/heartbeat`, sampleHeartbeat('board'));
  await service.app.inject({
    method: 'PUT',
    url: `/devices/${into.tag}/screenshot`,
    headers: { authorization: `Bearer ${ADMIN_SECRET}`, 'content-type': 'image/png' },
    payload: solidPng(4, 4),
  });
  into.command = (await made(`/devices/${into.tag}/commands`, { type: 'identify' })).id;
  into.syncGroup = (await made('/sync-groups', { name: `${name} wall` })).id;
  await service.call('PUT', `/sync-groups/${into.syncGroup}/screens/${into.tag}`, {});
  into.script = (
    await made('/scripts', { name, code: 'return 1', interval: '1h', enabled: false, flow_id: into.flow })
  ).id;
  into.dataSource = (
    await made('/data-sources', { name, kind: 'json', url: `https://${name}.example/n.json` })
  ).id;
  into.notification = (
    await made(`/channels/${into.channel}/notifications`, { title: name, message: 'm' })
  ).id;
  into.override = (
    await made('/overrides', { title: name, message: 'A drill.', target: { group_id: into.group } })
  ).id;
}

const PASSWORD = 'correct horse battery';
/** Each caller's headers: `<role>` over the whole account, `<role>@group` kept to the inside group. */
const callers: Record<string, Record<string, string>> = {};

async function signIn(login: string, role: UserRole, groups: string[]): Promise<Record<string, string>> {
  await createUser(service.db, { login, password: PASSWORD, role, groups });
  const signedIn = await service.app.inject({
    method: 'POST',
    url: '/session',
    payload: { login, password: PASSWORD },
  });
  expect(signedIn.statusCode, signedIn.body).toBe(200);
  const cookie = signedIn.cookies.find((c) => c.name === 'wb_session')?.value ?? '';
  return { cookie: `wb_session=${cookie}`, 'x-wallboard-csrf': '1' };
}

interface Operation {
  method: string;
  path: string;
  key: string;
  area: string;
}

async function operations(): Promise<Operation[]> {
  const doc = service.app.swagger() as { paths: Record<string, Record<string, unknown>> };
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.keys(methods).map((lower) => {
      const method = lower.toUpperCase();
      const fastify = `${method} ${path.replace(/\{([^}]+)\}/g, ':$1')}`;
      return {
        method,
        path,
        key: `${method} ${path}`,
        area: method === 'GET' ? 'read' : (ROUTE_AREAS[fastify] ?? ''),
      };
    }),
  );
}

async function ask(who: string, op: Operation, world: World) {
  const url = concrete(op.path, world, shared);
  const headers = callers[who] as Record<string, string>;
  if (op.key === 'PUT /media/{id}/content') {
    const upload = multipart([
      { name: 'file', filename: 'b.png', type: 'image/png', content: solidPng(3, 3) },
    ]);
    return service.app.inject({
      method: 'PUT',
      url,
      headers: { ...headers, ...upload.headers },
      payload: upload.payload,
    });
  }
  if (op.key === 'PUT /devices/{tag}/screenshot') {
    return service.app.inject({
      method: 'PUT',
      url,
      headers: { ...headers, 'content-type': 'image/png' },
      payload: solidPng(4, 4),
    });
  }
  const body = op.method === 'GET' || op.method === 'DELETE' ? undefined : (BODIES[op.key]?.(world) ?? {});
  return service.app.inject({
    method: op.method as InjectOptions['method'],
    url,
    headers,
    ...(body === undefined ? {} : { payload: body as InjectOptions['payload'] }),
  });
}

/** A web player release, pinned on both worlds' screens and rolled out to every screen. */
async function playerRelease(): Promise<void> {
  const page = Buffer.from('<!doctype html><title>Player</title>');
  const sha512 = createHash('sha512').update(page).digest('base64');
  const manifest = JSON.stringify({
    version: '1.0.0',
    files: [{ name: 'index.html', size: page.length, sha512 }],
  });
  const upload = multipart([
    { name: 'kind', content: 'web' },
    { name: 'file', filename: 'index.html', content: page },
    { name: 'file', filename: 'release.json', content: manifest },
  ]);
  const release = await service.app.inject({
    method: 'POST',
    url: '/releases',
    headers: { ...upload.headers, authorization: `Bearer ${ADMIN_SECRET}` },
    payload: upload.payload,
  });
  expect(release.statusCode, release.body).toBe(201);
  shared.release = release.json<{ id: string }>().id;
  for (const tag of [inside.tag, outside.tag]) {
    const pinned = await service.call('PUT', `/devices/${tag}/release-pins/web`, {
      release_id: shared.release,
    });
    expect(pinned.statusCode, pinned.body).toBe(200);
  }
  shared.rollout = (await made('/rollouts', { release_id: shared.release, percentage: 100 })).id;
}

beforeAll(async () => {
  service = await startTestService({ clock: new FakeClock('2026-11-24T08:00:00.000Z') });
  await world('inside', inside);
  await world('outside', outside);
  for (const into of [inside, outside]) {
    into.dataBinding = (
      await made('/data-bindings', {
        source_id: into.dataSource,
        flow: into.flowTag,
        mapping: { value: 'n' },
      })
    ).id;
  }
  const content = (await service.call('GET', `/boards/${inside.board}/content`)).json<BoardContent>();
  BODIES['PUT /boards/{id}/content'] = () => toContentSave(content);
  shared.user = (await made('/users', { login: 'someone', role: 'viewer', password: PASSWORD })).id;
  shared.token = (await made('/account/tokens', { scope: 'readonly', name: 'kiosk' })).id;
  shared.alertDestination = (
    await made('/alert-destinations', {
      kind: 'webhook',
      url: 'https://hooks.example/a',
      secret: 'a-secret-of-the-matrix',
    })
  ).id;
  shared.alertRule = (
    await made('/alert-rules', {
      event: 'device.offline',
      after_seconds: 60,
      target: { group_id: inside.group },
      destination_ids: [shared.alertDestination],
    })
  ).id;
  shared.capFeed = (
    await made('/cap-feeds', { url: 'https://alerts.example/cap.xml', target: { group_id: inside.group } })
  ).id;
  await playerRelease();
  for (const role of USER_ROLES) {
    callers[role] = await signIn(`whole-${role}`, role, []);
    if (role !== 'admin') callers[`${role}@group`] = await signIn(`kept-${role}`, role, [inside.group]);
  }
});
afterAll(() => service.close());

/** Whether `role` may call `op` at all, by the policy above. */
function permitted(role: UserRole, op: Operation): boolean {
  if (op.method === 'GET') return !READS_REFUSED[role].some((refused) => refused.test(op.key));
  return WRITES_OF[role].includes(op.area);
}

describe('the permissions matrix, every route x every role x in and out of scope', () => {
  it('gives every route that changes something its area', async () => {
    const missing = (await operations()).filter((op) => !PUBLIC.test(op.key) && op.area === '');
    expect(
      missing.map((op) => op.key),
      'add them to ROUTE_AREAS (http/route-areas.ts)',
    ).toEqual([]);
  });

  it.each(USER_ROLES)('lets %s over the whole account through exactly its part of the API', async (role) => {
    for (const op of await operations()) {
      if (PUBLIC.test(op.key) || op.method === 'DELETE') continue;
      const response = await ask(role, op, outside);
      const where = `${role}: ${op.key} answered ${response.statusCode}: ${response.body.slice(0, 200)}`;
      if (permitted(role, op)) expect([401, 403], where).not.toContain(response.statusCode);
      else expect(response.statusCode, where).toBe(403);
    }
  });

  it.each(['editor', 'publisher', 'viewer'] as const)(
    'keeps %s to its group: another group’s screens are not found, its content is read, not changed',
    async (role) => {
      const who = `${role}@group`;
      const before = await service.call('GET', `/boards/${outside.board}`);
      for (const op of await operations()) {
        if (PUBLIC.test(op.key) || !op.path.includes('{')) continue;
        const response = await ask(who, op, outside);
        const where = `${who}: ${op.key} of the other group answered ${response.statusCode}: ${response.body.slice(0, 200)}`;
        if (!permitted(role, op)) expect(response.statusCode, where).toBe(403);
        else if (SCREEN_PATH.test(op.path) || (SCRIPT_PATH.test(op.path) && op.method === 'GET')) {
          expect(response.statusCode, where).toBe(404);
        } else if (CONTENT_PATH.test(op.path) && op.method !== 'GET')
          expect(response.statusCode, where).toBe(403);
        else expect([401, 403, 404], where).not.toContain(response.statusCode);
      }
      expect((await service.call('GET', `/boards/${outside.board}`)).body).toBe(before.body);
      for (const op of await operations()) {
        if (PUBLIC.test(op.key) || !op.path.includes('{') || op.method === 'DELETE') continue;
        const response = await ask(who, op, inside);
        const where = `${who}: ${op.key} of its group answered ${response.statusCode}: ${response.body.slice(0, 200)}`;
        if (!permitted(role, op)) expect(response.statusCode, where).toBe(403);
        else expect([401, 403, 404], where).not.toContain(response.statusCode);
      }
    },
  );

  it('lists to a person kept to a group its group’s screens only, and refuses writes beyond it', async () => {
    const who = callers['publisher@group'] as Record<string, string>;
    const get = async (url: string) => service.app.inject({ method: 'GET', url, headers: who });
    const screens = (await get('/devices')).json<{ tag: string }[]>().map((screen) => screen.tag);
    expect(screens).toEqual([inside.tag]);
    expect((await get('/groups')).json<{ id: string }[]>().map((group) => group.id)).toEqual([inside.group]);
    expect((await get('/boards')).body).toContain(outside.board);
    const write = async (method: 'POST' | 'PATCH', url: string, payload: object) =>
      service.app.inject({ method, url, headers: who, payload });
    const moved = await write('PATCH', `/devices/${inside.tag}`, { group_id: outside.group });
    expect(moved.statusCode, moved.body).toBe(400);
    const everyone = await write('POST', '/overrides', { title: 'T', message: 'm', target: { all: true } });
    expect(everyone.statusCode, everyone.body).toBe(403);
    const theirs = await write('POST', '/overrides', {
      title: 'T',
      message: 'm',
      target: { device_tag: outside.tag },
    });
    expect([400, 404]).toContain(theirs.statusCode);
    const own = await write('PATCH', `/devices/${inside.tag}`, { name: 'Lobby left' });
    expect(own.statusCode, own.body).toBe(200);
  });
});
