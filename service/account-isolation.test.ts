import type { InjectOptions } from 'fastify';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toContentSave, type BoardContent } from '../src/shared/board-content';
import { sampleHeartbeat } from '../src/shared/testing/device-fixtures';
import { ADMIN_SECRET, startTestService, type AccountCall, type TestService } from './test-support';
import { FakeClock } from './testing/fake-clock';
import { multipart } from './testing/multipart';
import { solidPng } from './testing/png';

// The account-isolation matrix: every route of the API, called by account B with account A's ids
// and tags, answers 404 and changes nothing of A's; B's listings hold none of A's ids; and a body
// naming A's resources is refused. Each route is listed from the OpenAPI document, so a route
// added without a case here fails the test. (Realtime: accounts-realtime.test.ts.)
let service: TestService;
let b: { id: string; token: string; call: AccountCall };
/** A's resources, by the name of the path parameter they fill. */
const ours: Record<string, string> = {};

/** Routes that are no account's: what they answer is the same for everyone. */
const NO_ACCOUNT: Record<string, string> = {
  'GET /health': 'the node, not an account',
  'POST /session': 'signing in, before any account (the login and password find it)',
  'GET /session': "the caller's own session",
  'DELETE /session': "the caller's own session",
  'POST /pairings': 'a screen asking for a code, before any account',
  'GET /pairings/{pairing_id}': "a screen reading its own pairing by the pairing's secret",
  'GET /web-options': "the service's options",
  'GET /account': "the caller's own account (accounts.test.ts)",
  'GET /account/sso': "the caller's own account's single sign-on (sso.test.ts)",
  'PUT /account/sso': "the caller's own account's single sign-on (sso.test.ts)",
  'DELETE /account/sso': "the caller's own account's single sign-on (sso.test.ts)",
  'GET /session/sso': 'signing in, before any session: `account` names the account (sso.test.ts)',
  'GET /session/sso/options': 'what the sign-in page offers, told to anyone (sso.test.ts)',
  'GET /session/sso/callback': "the provider's return, found by the browser's cookie (sso.test.ts)",
  'GET /scripts/usage': "the caller's own account's script time and caps (scripts/caps.test.ts)",
  'GET /map/tiles/{z}/{x}/{y}': 'map tiles, the same for everyone',
  'GET /board-templates': 'the ready boards, the same for everyone',
  'POST /boards/from-template/{template}':
    "a ready board, the same for everyone; what it makes is the caller's (board-templates.test.ts)",
};

/** The listings: B's hold none of A's ids. */
const LISTS = [
  '/users',
  '/account/tokens',
  '/flows',
  '/channels',
  '/notifications',
  '/boards',
  '/widgets',
  '/devices',
  '/playlists',
  '/groups',
  '/sync-groups',
  '/media',
  '/scripts',
  '/alert-destinations',
  '/alert-rules',
  '/alerts',
  '/overrides',
  '/overrides/history',
  '/cap-feeds',
  '/data-sources',
  '/data-bindings',
  '/plays',
  '/plays/totals',
  '/audit',
  '/audit.csv',
  '/releases',
  '/rollouts',
];

/**
 * The creations and writes without a parameter: what they make is the caller's account's (the
 * store writes it), and one naming another account's resource in its body is refused (the last
 * test). Claiming a pairing takes a screen's code, which no account owns yet.
 */
const CREATES = [
  'POST /users',
  'POST /account/tokens',
  'POST /flows',
  'POST /channels',
  'POST /metrics',
  'PATCH /metrics',
  'POST /data',
  'PATCH /data',
  'POST /v1/data',
  'PATCH /v1/data',
  'POST /boards',
  'POST /boards/import',
  'POST /widgets',
  'POST /devices',
  'POST /pairings/claim',
  'POST /playlists',
  'POST /groups',
  'POST /sync-groups',
  'POST /media',
  'POST /releases',
  'POST /rollouts',
  'POST /scripts',
  'POST /alert-destinations',
  'POST /alert-rules',
  'POST /overrides',
  'POST /cap-feeds',
  'POST /data-sources',
  'POST /data-bindings',
  'POST /notifications',
];

/** A valid body for each write, so that what answers is the lookup, not the validation. */
const BODIES: Record<string, unknown> = {
  'PATCH /users/{id}': { role: 'viewer' },
  'PATCH /flows/{id}': { errored: false },
  'PATCH /channels/{id}': { name: 'Taken' },
  'POST /channels/{channel_id}/notifications': { title: 'Taken', message: 'm' },
  'POST /flows/{tag}/notifications': { title: 'Taken', message: 'm' },
  'PUT /flows/{tag}/metrics': { value: 66 },
  'PATCH /flows/{tag}/metrics': { value: 66 },
  'PUT /flows/{tag}/data': { value: 66 },
  'PATCH /flows/{tag}/data': { value: 66 },
  'POST /channels/{channel_id}/metrics': { data: { cpu: { value: 66 } } },
  'PATCH /channels/{channel_id}/metrics': { data: { cpu: { value: 66 } } },
  'POST /channels/{channel_id}/data': { cpu: { value: 66 } },
  'POST /channels/{channel_id}/flows/{flow_tag}/data': { value: 66 },
  'POST /flows/{tag}/error': { errored: true },
  'PATCH /boards/{id}': { name: 'Taken' },
  'POST /boards/{id}/duplicate': {},
  'POST /boards/{id}/widgets': { flow_id: 'fl_any', column: 0, row: 0, width: 4, height: 4 },
  'PATCH /boards/{id}/widgets/{widget_id}': { column: 1 },
  'PATCH /widgets/{id}': { column: 1 },
  'PATCH /devices/{tag}': { name: 'Taken' },
  'POST /devices/{tag}/heartbeat': sampleHeartbeat('board'),
  'POST /devices/{tag}/offline': {},
  'POST /devices/{tag}/commands': { type: 'identify' },
  'POST /devices/{tag}/commands/{id}/result': { status: 'done' },
  'POST /devices/{tag}/plays': [
    {
      id: '0f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a',
      type: 'web',
      board_id: null,
      url: 'https://a.example/',
      channel_id: null,
      started_at: '2026-11-24T08:00:00.000Z',
      ended_at: '2026-11-24T08:00:30.000Z',
    },
  ],
  'PATCH /playlists/{id}': { name: 'Taken' },
  'PATCH /media/{id}': { name: 'Taken' },
  'PATCH /groups/{id}': { name: 'Taken' },
  'PATCH /sync-groups/{id}': { name: 'Taken' },
  'PUT /sync-groups/{id}/screens/{tag}': {},
  'PATCH /scripts/{id}': { name: 'Taken' },
  'POST /scripts/{id}/run': {},
  'PUT /scripts/{id}/secrets/{name}': { value: 'a-value-of-account-b' },
  'PATCH /data-sources/{id}': { name: 'Taken' },
  'POST /data-sources/{id}/test': { query: 'rows' },
  'PATCH /data-bindings/{id}': { query: 'rows' },
  'PATCH /rollouts/{id}': { percentage: 50 },
  'POST /devices/{tag}/update-reports': { kind: 'web', version: '1.0.0', outcome: 'installed' },
};

/** Which of A's resources an `{id}` names, by the path before it. */
const ID_OF: [RegExp, string][] = [
  [/^\/users\//, 'user'],
  [/^\/account\/tokens\//, 'token'],
  [/^\/flows\//, 'flow'],
  [/^\/channels\//, 'channel'],
  [/^\/notifications\//, 'notification'],
  [/^\/boards\//, 'board'],
  [/^\/widgets\//, 'widget'],
  [/^\/playlists\//, 'playlist'],
  [/^\/groups\//, 'group'],
  [/^\/sync-groups\//, 'syncGroup'],
  [/^\/media\//, 'media'],
  [/^\/scripts\//, 'script'],
  [/^\/alert-destinations\//, 'alertDestination'],
  [/^\/alert-rules\//, 'alertRule'],
  [/^\/overrides\//, 'override'],
  [/^\/cap-feeds\//, 'capFeed'],
  [/^\/data-sources\//, 'dataSource'],
  [/^\/data-bindings\//, 'dataBinding'],
  [/^\/devices\/\{tag\}\/commands\//, 'command'],
  [/^\/releases\//, 'release'],
  [/^\/rollouts\//, 'rollout'],
];

/** The name of A's script's secret: a `{name}` of the secrets' routes. */
const A_SECRET = 'A_KEY';

function concrete(path: string): string {
  return path
    .replace('{tag}', path.startsWith('/flows') ? ours.flowTag! : ours.deviceTag!)
    .replace('{channel_id}', ours.channel!)
    .replace('{flow_tag}', ours.flowTag!)
    .replace('{widget_id}', ours.widget!)
    .replace('{name}', A_SECRET)
    .replace('{kind}', 'web')
    .replace('{release_id}', ours.release!)
    .replace('{*}', 'index.html')
    .replace('{id}', () => ours[ID_OF.find(([pattern]) => pattern.test(path))?.[1] ?? 'none'] ?? 'none');
}

async function made(url: string, body: unknown): Promise<{ id: string }> {
  const response = await service.call('POST', url, body);
  expect([201, 202], `${url}: ${response.body}`).toContain(response.statusCode);
  return response.json();
}

/** Every GET of A's resources, as A sees them: compared before and after B's attempts. */
async function aView(paths: readonly string[]): Promise<string[]> {
  return Promise.all(paths.map(async (path) => (await service.call('GET', path)).body));
}

beforeAll(async () => {
  // A fixed clock: what A reads before and after B's attempts is the same to the byte.
  service = await startTestService({ clock: new FakeClock('2026-11-24T08:00:00.000Z') });
  b = await service.addAccount('B');
  const channels = (await service.call('GET', '/channels')).json<{ id: string }[]>();
  const parent = channels[0]?.id ?? '';
  ours.channel = (await made('/channels', { name: 'A news', tag: 'a-news', parent_channel_id: parent })).id;
  ours.flowTag = 'a-flow';
  ours.flow = (await made('/flows', { tag: 'a-flow', variant: 'value', channel_id: ours.channel })).id;
  ours.board = (await made('/boards', { name: 'A board', channel_ids: [ours.channel] })).id;
  ours.widget = (
    await made(`/boards/${ours.board}/widgets`, {
      flow_id: ours.flow,
      column: 0,
      row: 0,
      width: 4,
      height: 4,
    })
  ).id;
  const items = [{ type: 'board', board_id: ours.board, duration: 10 }];
  ours.playlist = (await made('/playlists', { name: 'A loop', items })).id;
  ours.group = (await made('/groups', { name: 'A floor' })).id;
  ours.deviceTag = 'a-screen';
  await made('/devices', { tag: 'a-screen', playlist_id: ours.playlist, group_id: ours.group });
  ours.syncGroup = (await made('/sync-groups', { name: 'A wall' })).id;
  const joined = await service.call('PUT', `/sync-groups/${ours.syncGroup}/screens/a-screen`, {});
  expect(joined.statusCode, joined.body).toBe(200);
  await service.call('POST', '/devices/a-screen/heartbeat', sampleHeartbeat('board'));
  ours.command = (await made('/devices/a-screen/commands', { type: 'identify' })).id;
  // A play in the default range of GET /plays (the last day): B's /plays and totals hold none of it.
  ours.play = '5b0c6a9e-2f4d-4e8a-9c1b-7d3e2f1a0b9c';
  const aPlay = { id: ours.play, type: 'board', board_id: ours.board, url: null, channel_id: null };
  const played = await service.call('POST', '/devices/a-screen/plays', [
    { ...aPlay, started_at: '2026-11-24T07:00:00.000Z', ended_at: '2026-11-24T07:00:10.000Z' },
  ]);
  expect(played.json()).toEqual({ received: 1, stored: 1 });
  ours.notification = (
    await made(`/channels/${ours.channel}/notifications`, { title: 'A', message: 'm' })
  ).id;
  ours.script = (
    await made('/scripts', { name: 'A script', code: 'return 1', interval: '1h', enabled: false })
  ).id;
  const secret = await service.call('PUT', `/scripts/${ours.script}/secrets/${A_SECRET}`, {
    value: 'a-value',
  });
  expect(secret.statusCode, secret.body).toBe(201);
  ours.user = (
    await made('/users', { login: 'ada@a.example', role: 'admin', password: 'correct horse battery' })
  ).id;
  ours.token = (await made('/account/tokens', { scope: 'readonly', name: 'A token' })).id;
  ours.alertDestination = (
    await made('/alert-destinations', {
      kind: 'webhook',
      url: 'https://hooks.a.example/alerts',
      secret: 'a-secret-of-account-a',
    })
  ).id;
  ours.override = (
    await made('/overrides', { title: 'A drill', message: 'Only a drill.', target: { group_id: ours.group } })
  ).id;
  // The clock stands still: the feed is never polled here.
  ours.capFeed = (
    await made('/cap-feeds', { url: 'https://alerts.a.example/cap.xml', target: { group_id: ours.group } })
  ).id;
  // The clock stands still: the source is never refreshed here.
  ours.dataSource = (
    await made('/data-sources', { name: 'A rooms', kind: 'json', url: 'https://rooms.a.example/free.json' })
  ).id;
  ours.dataBinding = (
    await made('/data-bindings', { source_id: ours.dataSource, flow: 'a-flow', mapping: { value: 'free' } })
  ).id;
  ours.alertRule = (
    await made('/alert-rules', {
      event: 'device.offline',
      after_seconds: 60,
      target: { group_id: ours.group },
      destination_ids: [ours.alertDestination],
    })
  ).id;
  const body = multipart([{ name: 'file', filename: 'a.png', type: 'image/png', content: solidPng(2, 2) }]);
  const media = await service.app.inject({
    method: 'POST',
    url: '/media',
    headers: { ...body.headers, authorization: `Bearer ${ADMIN_SECRET}` },
    payload: body.payload,
  });
  ours.media = media.json<{ id: string }>().id;
  // A's player release, pinned on A's screen and rolled out to all of A's screens.
  const page = Buffer.from('<!doctype html><title>A</title>');
  const manifest = JSON.stringify({
    version: '1.0.0',
    files: [
      { name: 'index.html', size: page.length, sha512: createHash('sha512').update(page).digest('base64') },
    ],
  });
  const release = multipart([
    { name: 'kind', content: 'web' },
    { name: 'file', filename: 'index.html', content: page },
    { name: 'file', filename: 'release.json', content: manifest },
  ]);
  const released = await service.app.inject({
    method: 'POST',
    url: '/releases',
    headers: { ...release.headers, authorization: `Bearer ${ADMIN_SECRET}` },
    payload: release.payload,
  });
  ours.release = released.json<{ id: string }>().id;
  await service.call('PUT', '/devices/a-screen/release-pins/web', { release_id: ours.release });
  ours.rollout = (await made('/rollouts', { release_id: ours.release, percentage: 100 })).id;
  BODIES['PUT /devices/{tag}/release-pins/{kind}'] = { release_id: ours.release };
  // A's board's content as A would save it again: a valid body for B's attempt to replace it.
  const content = (await service.call('GET', `/boards/${ours.board}/content`)).json<BoardContent>();
  BODIES['PUT /boards/{id}/content'] = toContentSave(content);
});
afterAll(() => service.close());

describe('account isolation, every route', () => {
  it("answers 404 to account B for each of A's resources, on every route, and changes nothing of A's", async () => {
    const doc = service.app.swagger() as { paths: Record<string, Record<string, unknown>> };
    const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => ({ method: method.toUpperCase(), path })),
    );
    expect(operations.length).toBeGreaterThan(80);
    const withParams = operations.filter(({ path }) => path.includes('{'));
    const getsOfA = withParams.filter(({ method, path }) => method === 'GET' && !NO_ACCOUNT[`GET ${path}`]);
    const before = await aView(getsOfA.map(({ path }) => concrete(path)));
    const answered: string[] = [];
    for (const { method, path } of withParams) {
      const key = `${method} ${path}`;
      if (NO_ACCOUNT[key]) continue;
      const response =
        key === 'PUT /devices/{tag}/screenshot'
          ? await service.app.inject({
              method: 'PUT',
              url: concrete(path),
              headers: { authorization: `Bearer ${b.token}`, 'content-type': 'image/png' },
              payload: solidPng(4, 4),
            })
          : await b.call(method as InjectOptions['method'], concrete(path), BODIES[key]);
      answered.push(`${key} ${response.statusCode}`);
      expect(response.statusCode, `${key} as B: ${response.body}`).toBe(404);
    }
    expect(answered.length).toBeGreaterThan(50);
    const after = await aView(getsOfA.map(({ path }) => concrete(path)));
    getsOfA.forEach(({ path }, n) => expect(after[n], `GET ${path} as A`).toEqual(before[n]));
    // The routes without a parameter: each is a listing, a creation or no account's (below).
    for (const { method, path } of operations.filter(({ path }) => !path.includes('{'))) {
      const key = `${method} ${path}`;
      const cased = LISTS.includes(path) || CREATES.includes(key) || NO_ACCOUNT[key] !== undefined;
      expect(cased, `${key} has no case`).toBe(true);
    }
  });

  it("lists none of A's resources to B", async () => {
    for (const list of LISTS) {
      const response = await b.call('GET', list);
      expect(response.statusCode, list).toBe(200);
      for (const [name, id] of Object.entries(ours)) {
        expect(response.body, `${list} names A's ${name}`).not.toContain(`"${id}"`);
      }
    }
  });

  it("refuses B's writes that name A's resources in their bodies, linking nothing", async () => {
    // B's own flow and source, so that what refuses the bindings below is A's part in them.
    await b.call('POST', '/flows', { tag: 'b-own-flow', variant: 'value' });
    const bSource = (
      await b.call('POST', '/data-sources', { name: 'B', kind: 'json', url: 'https://b.example/n.json' })
    ).json<{ id: string }>().id;
    const refused: [string, string, unknown][] = [
      ['POST', '/data-bindings', { source_id: bSource, flow: ours.flowTag, mapping: { value: 'n' } }],
      ['POST', '/playlists', { name: 'B', items: [{ type: 'board', board_id: ours.board, duration: 10 }] }],
      ['POST', '/boards', { name: 'B', channel_ids: [ours.channel] }],
      ['POST', '/flows', { tag: 'b-flow', variant: 'value', channel_id: ours.channel }],
      ['POST', '/devices', { tag: 'b-screen', playlist_id: ours.playlist }],
      ['POST', '/devices', { tag: 'b-screen-2', group_id: ours.group }],
      ['POST', '/groups', { name: 'B floor', playlist_id: ours.playlist }],
      ['POST', '/account/tokens', { scope: 'affiliated', name: 'B', device_tag: ours.deviceTag }],
      ['POST', '/scripts', { name: 'B', code: 'return 1', interval: '1h', flow_id: ours.flow }],
      ['POST', '/overrides', { title: 'B', message: 'B', target: { group_id: ours.group } }],
      ['POST', '/overrides', { title: 'B', message: 'B', target: { device_tag: ours.deviceTag } }],
      ['POST', '/cap-feeds', { url: 'https://alerts.b.example/cap.xml', target: { group_id: ours.group } }],
      ['POST', '/data-bindings', { source_id: ours.dataSource, flow: 'b-own-flow', mapping: { value: 'n' } }],
      ['POST', '/notifications', { title: 'B', message: 'B', target: { group_id: ours.group } }],
      ['POST', '/notifications', { title: 'B', message: 'B', target: { channel_id: ours.channel } }],
    ];
    for (const [method, url, body] of refused) {
      const response = await b.call(method as 'POST', url, body);
      expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, `${method} ${url}`).toBeLessThan(500);
    }
    const board = (await b.call('POST', '/boards', { name: 'B board' })).json<{ id: string }>();
    const widget = await b.call('POST', `/boards/${board.id}/widgets`, {
      flow_id: ours.flow,
      column: 0,
      row: 0,
      width: 4,
      height: 4,
    });
    expect(widget.statusCode).toBeGreaterThanOrEqual(400);
    const place = { column: 0, row: 0, width: 4, height: 4 };
    const onOurs = await b.call('POST', '/widgets', { board_id: ours.board, flow_id: ours.flow, ...place });
    expect(onOurs.statusCode, onOurs.body).toBe(404);
    const flat = await b.call('POST', '/widgets', { board_id: board.id, flow_id: ours.flow, ...place });
    expect(flat.statusCode, flat.body).toBe(400);
    const batch = await b.call('POST', '/metrics', { data: { [ours.flowTag!]: { value: 5 } } });
    expect(batch.body).not.toContain(`"updated":["${ours.flowTag}"]`);
    expect((await service.call('GET', `/flows/${ours.flowTag}/metrics`)).json()).not.toMatchObject({
      value: 5,
    });
  });
});
