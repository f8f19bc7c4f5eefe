import type { LightMyRequestResponse } from 'fastify';
import { io as connect } from 'socket.io-client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SsoConfig } from '../src/shared/sso';
import { createSignInCode } from './actions/sign-in-codes';
import { verifyPassword } from './domain/passwords';
import { SSO_START_RATE } from './routes/sso';
import { SSO_FLOW_MS } from './sso/sign-in';
import { startTestService, type TestService } from './test-support';
import { FakeClock } from './testing/fake-clock';
import { startOidcProvider, type TestProvider } from './testing/oidc-provider';
import { listen, type Client } from './testing/realtime-clients';

// Single sign-on end to end (docs/single-sign-on.md): the service signs people in through a real
// OpenID provider on loopback (testing/oidc-provider.ts), whose login form is posted over HTTP.
// The service's clock is fake so that a flow can outlive its ten minutes; tokens use real time.

const clock = new FakeClock(new Date());
let service: TestService;
let provider: TestProvider;
const groups: Record<string, string> = {};
/** light-my-request's requests reach the service as `localhost:80`, which a URL writes without the port. */
const REDIRECT_URI = 'http://localhost/session/sso/callback';

const cookieOf = (response: LightMyRequestResponse, name: string) =>
  response.cookies.find((cookie) => cookie.name === name)?.value;

function settings(extra: Record<string, unknown> = {}) {
  return {
    issuer: provider.issuer,
    client_id: provider.clientId,
    client_secret: provider.clientSecret,
    scopes: ['groups'],
    role_claim: 'roles',
    role_map: { 'wb-admins': 'admin', 'wb-editors': 'editor', 'wb-publishers': 'publisher' },
    group_claim: 'groups',
    group_map: { lobby: groups.lobby, kitchen: groups.kitchen },
    default_role: null,
    sso_only: false,
    ...extra,
  };
}

/** Leaves for the provider, signs in there as `sub`: the provider's return, and the flow's cookie. */
async function atProvider(sub: string): Promise<{ back: URL; flow: string }> {
  const start = await service.call('GET', '/session/sso?account=default', undefined, null);
  expect(start.statusCode).toBe(302);
  const flow = cookieOf(start, 'wb_sso');
  expect(flow).toBeTruthy();
  return { back: await provider.signIn(start.headers.location as string, sub), flow: flow as string };
}

/** The service's answer to the provider's return, with the flow's cookie unless told otherwise. */
function callback(back: URL, flow: string | null) {
  return service.app.inject({
    method: 'GET',
    url: back.pathname + back.search,
    headers: flow === null ? {} : { cookie: `wb_sso=${flow}` },
  });
}

/** A whole sign-in as `sub`: where the browser lands, and its session cookie if any. */
async function signInAs(sub: string): Promise<{ location: string; session?: string }> {
  const { back, flow } = await atProvider(sub);
  expect(back.origin + back.pathname).toBe(REDIRECT_URI);
  const done = await callback(back, flow);
  expect(done.statusCode).toBe(302);
  return { location: done.headers.location as string, session: cookieOf(done, 'wb_session') };
}

const whoIs = async (session: string) =>
  (
    await service.app.inject({ method: 'GET', url: '/session', headers: { cookie: `wb_session=${session}` } })
  ).json() as { login: string; role: string; groups: string[]; sso: boolean; id: string };

beforeAll(async () => {
  provider = await startOidcProvider([REDIRECT_URI]);
  service = await startTestService({ clock });
  for (const name of ['lobby', 'kitchen']) {
    groups[name] = ((await service.call('POST', '/groups', { name })).json() as { id: string }).id;
  }
});
afterAll(async () => {
  await service?.close();
  await provider?.close();
});
beforeEach(async () => {
  const saved = await service.call('PUT', '/account/sso', settings());
  expect(saved.statusCode, saved.body).toBe(200);
});

describe('the settings of single sign-on', () => {
  it('keep the client secret write-only, and a save without it keeps it', async () => {
    const answer = (await service.call('GET', '/account/sso')).json() as SsoConfig;
    expect(answer).toMatchObject({
      issuer: provider.issuer,
      has_client_secret: true,
      redirect_uri: REDIRECT_URI,
    });
    expect(JSON.stringify(answer)).not.toContain(provider.clientSecret);
    const { client_secret: _secret, ...withoutSecret } = settings();
    const kept = await service.call('PUT', '/account/sso', withoutSecret);
    expect(kept.json()).toMatchObject({ has_client_secret: true });
    expect(kept.body).not.toContain(provider.clientSecret);
  });

  it('refuse, naming the field, what would not work', async () => {
    const refused = async (body: Record<string, unknown>, path: string) => {
      const response = await service.call('PUT', '/account/sso', body);
      expect(response.statusCode, response.body).toBe(400);
      const paths = (response.json() as { error: { details: { path: string }[] } }).error.details.map(
        (detail) => detail.path,
      );
      expect(paths).toContain(`body.${path}`);
    };
    await refused(settings({ group_map: { lobby: 'grp_nowhere' } }), 'group_map.lobby');
    await refused(settings({ issuer: 'http://idp.example.com' }), 'issuer');
    await refused(settings({ issuer: 'http://127.0.0.1:1' }), 'issuer');
    await refused(settings({ role_claim: null }), 'role_claim');
    await refused(settings({ role_claim: null, role_map: {} }), 'default_role');
    await refused(settings({ role_map: { x: 'owner' } }), 'role_map.x');
    await refused(settings({ sso_only: 'yes' }), 'sso_only');
    // Nothing was lost: the stored settings are the last good ones.
    expect((await service.call('GET', '/account/sso')).json()).toMatchObject({ issuer: provider.issuer });
  });

  it('are an admin’s alone, and what the sign-in page learns is only whether there are any', async () => {
    const readonly = await service.tokenOf('readonly');
    expect((await service.call('GET', '/account/sso', undefined, readonly)).statusCode).toBe(403);
    expect((await service.call('PUT', '/account/sso', settings(), readonly)).statusCode).toBe(403);
    const options = (account: string) =>
      service.call('GET', `/session/sso/options?account=${account}`, undefined, null);
    expect((await options('default')).json()).toEqual({ sso: true });
    expect((await options('acc_nowhere')).json()).toEqual({ sso: false });
    expect((await service.call('DELETE', '/account/sso')).statusCode).toBe(204);
    expect((await options('default')).json()).toEqual({ sso: false });
    expect((await service.call('DELETE', '/account/sso')).statusCode).toBe(404);
    const start = await service.call('GET', '/session/sso', undefined, null);
    expect(start.headers.location).toBe('/console/sign-in?sso_error=not_configured&account=default');
  });

  it('reach no loopback or private provider where the service forbids admins those', async () => {
    const closed = await startTestService({ config: { privateDataSources: false } });
    try {
      const refused = await closed.call('PUT', '/account/sso', {
        ...settings(),
        group_claim: null,
        group_map: {},
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({
        error: { details: [{ path: 'body.issuer', message: expect.stringContaining('loopback') }] },
      });
    } finally {
      await closed.close();
    }
  });

  it('let one address begin only so many sign-ins at once', async () => {
    const begin = () =>
      service.app.inject({
        method: 'GET',
        url: '/session/sso?account=acc_none',
        remoteAddress: '203.0.113.9',
      });
    for (let n = 0; n < SSO_START_RATE.burst; n += 1) expect((await begin()).statusCode).toBe(302);
    const refused = await begin();
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ error: { code: 'rate_limited' } });
  });
});

describe('the settings of another account', () => {
  it('are its own: neither read nor changed nor removed from here, and its sign-in is its own', async () => {
    const other = await service.addAccount('Other');
    expect((await other.call('GET', '/account/sso')).statusCode).toBe(404);
    expect((await other.call('DELETE', '/account/sso')).statusCode).toBe(404);
    // A's groups are not B's: naming one is refused as a group B does not have.
    const named = await other.call('PUT', '/account/sso', settings());
    expect(named.statusCode).toBe(400);
    const own = await other.call(
      'PUT',
      '/account/sso',
      settings({ group_claim: null, group_map: {}, sso_only: true }),
    );
    expect(own.statusCode, own.body).toBe(200);
    expect((await service.call('GET', '/account/sso')).json()).toMatchObject({
      sso_only: false,
      group_claim: 'groups',
    });
    provider.people.set('gus-sub', { preferred_username: 'gus', roles: ['wb-editors'] });
    const start = await service.call('GET', `/session/sso?account=${other.id}`, undefined, null);
    const back = await provider.signIn(start.headers.location as string, 'gus-sub');
    const done = await callback(back, cookieOf(start, 'wb_sso') as string);
    const gus = await whoIs(cookieOf(done, 'wb_session') as string);
    expect(gus).toMatchObject({ login: 'gus', role: 'editor', groups: [] });
    const users = (await other.call('GET', '/users')).json() as { login: string }[];
    expect(users.map((user) => user.login)).toEqual(['gus']);
    const ours = (await service.call('GET', '/users')).json() as { login: string }[];
    expect(ours.map((user) => user.login)).not.toContain('gus');
  });
});

describe('a sign-in through the provider', () => {
  it('makes the person a user with the role and groups their claims map to, then follows the claims', async () => {
    provider.people.set('ada-sub', {
      preferred_username: 'ada',
      groups: ['lobby', 'other'],
      roles: ['wb-editors'],
    });
    const first = await signInAs('ada-sub');
    expect(first.location).toBe('/console/');
    const ada = await whoIs(first.session as string);
    expect(ada).toMatchObject({ login: 'ada', role: 'editor', groups: [groups.lobby], sso: true });
    const listed = (await service.call('GET', '/users')).json() as { login: string; sso: boolean }[];
    expect(listed.find((user) => user.login === 'ada')).toMatchObject({ sso: true });

    provider.people.set('ada-sub', {
      preferred_username: 'ada',
      groups: ['kitchen', 'lobby'],
      roles: ['wb-publishers', 'wb-editors'],
    });
    const second = await whoIs((await signInAs('ada-sub')).session as string);
    expect(second).toMatchObject({
      id: ada.id,
      role: 'editor',
      groups: [groups.kitchen, groups.lobby].sort(),
    });
    provider.people.set('ada-sub', { preferred_username: 'ada', groups: ['kitchen'], roles: ['wb-admins'] });
    expect(await whoIs((await signInAs('ada-sub')).session as string)).toMatchObject({
      role: 'admin',
      groups: [],
    });

    // Her sign-ins are in the audit trail, as single sign-on.
    const trail = await service.db.kysely
      .selectFrom('audit_log')
      .select(['actor_name', 'action', 'after'])
      .where('resource', '=', 'session')
      .where('actor_name', '=', 'ada')
      .execute();
    expect(trail.map((entry) => [entry.action, JSON.parse(entry.after ?? '{}')])).toEqual(
      Array(3).fill(['sign-in', { method: 'sso' }]),
    );

    // She has no password: none opens her user.
    expect(await verifyPassword('', '')).toBe(false);
    const password = await service.call(
      'POST',
      '/session',
      { login: 'ada', password: 'any password at all' },
      null,
    );
    expect(password.statusCode).toBe(401);
    // Nor may an admin give her one: she signs in through the provider.
    const given = await service.call('PATCH', `/users/${ada.id}`, { password: 'a long enough password' });
    expect(given.statusCode, given.body).toBe(400);
    expect(given.json().error.details).toEqual([
      { path: 'password', message: 'a user of single sign-on has no password' },
    ]);
  });

  it('refuses a person no rule maps, unless there is a default role', async () => {
    provider.people.set('bea-sub', { email: 'bea@example.com', groups: ['lobby'], roles: ['visitors'] });
    expect(await signInAs('bea-sub')).toEqual({ location: '/console/sign-in?sso_error=unmapped' });
    provider.people.set('cy-sub', { email: 'cy@example.com', roles: ['wb-editors'] });
    expect((await signInAs('cy-sub')).location).toBe('/console/sign-in?sso_error=unmapped');
    const refusals = await service.db.kysely
      .selectFrom('audit_log')
      .select(['actor_name', 'after'])
      .where('action', '=', 'sign-in-failed')
      .execute();
    const ofSso = refusals
      .map((entry) => [entry.actor_name, JSON.parse(entry.after ?? '{}') as { method?: string }] as const)
      .filter(([, after]) => after.method === 'sso');
    expect(ofSso).toEqual([
      ['bea@example.com', { method: 'sso', reason: 'unmapped' }],
      ['cy@example.com', { method: 'sso', reason: 'unmapped' }],
    ]);
    const logins = ((await service.call('GET', '/users')).json() as { login: string }[]).map(
      (user) => user.login,
    );
    expect(logins).not.toContain('bea@example.com');

    await service.call('PUT', '/account/sso', settings({ default_role: 'viewer' }));
    const bea = await whoIs((await signInAs('bea-sub')).session as string);
    expect(bea).toMatchObject({ login: 'bea@example.com', role: 'viewer', groups: [groups.lobby] });
  });

  it('refuses a login a password user already has', async () => {
    await service.call('POST', '/users', { login: 'dee', password: 'a good long password', role: 'viewer' });
    provider.people.set('dee-sub', { preferred_username: 'dee', groups: ['lobby'], roles: ['wb-editors'] });
    expect((await signInAs('dee-sub')).location).toBe('/console/sign-in?sso_error=login_taken');
  });

  it('refuses a return whose state is wrong, replayed, late, without its cookie, or denied', async () => {
    provider.people.set('eve-sub', { preferred_username: 'eve', groups: ['lobby'], roles: ['wb-editors'] });
    const expired = '/console/sign-in?sso_error=expired';

    const wrong = await atProvider('eve-sub');
    const forged = new URL(wrong.back);
    forged.searchParams.set('state', 'forged');
    expect((await callback(forged, wrong.flow)).headers.location).toBe(expired);
    // The flow was used up by the wrong try: the right state no longer opens it either.
    expect((await callback(wrong.back, wrong.flow)).headers.location).toBe(expired);

    const replayed = await atProvider('eve-sub');
    const once = await callback(replayed.back, replayed.flow);
    expect(once.headers.location).toBe('/console/');
    expect((await callback(replayed.back, replayed.flow)).headers.location).toBe(expired);

    const cookieless = await atProvider('eve-sub');
    expect((await callback(cookieless.back, null)).headers.location).toBe(expired);
    const foreign = await atProvider('eve-sub');
    expect((await callback(foreign.back, cookieless.flow)).headers.location).toBe(expired);

    const late = await atProvider('eve-sub');
    await clock.advance(SSO_FLOW_MS);
    expect((await callback(late.back, late.flow)).headers.location).toBe(expired);

    const denied = await atProvider('eve-sub');
    const error = new URL(REDIRECT_URI);
    error.search = new URLSearchParams({
      error: 'access_denied',
      state: denied.back.searchParams.get('state') as string,
    }).toString();
    expect((await callback(error, denied.flow)).headers.location).toBe('/console/sign-in?sso_error=denied');
  });

  it("ends at sign-out like any session: the console's socket is cut", async () => {
    provider.people.set('kim-sub', { preferred_username: 'kim', groups: ['lobby'], roles: ['wb-editors'] });
    const cookie = `wb_session=${(await signInAs('kim-sub')).session}`;
    const socket: Client = connect(await listen(service), {
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
      extraHeaders: { cookie },
    });
    try {
      expect(await socket.emitWithAck('watch')).toEqual({ ok: true });
      const gone = new Promise<string>((resolve) => socket.on('disconnect', resolve));
      const out = await service.app.inject({
        method: 'DELETE',
        url: '/session',
        headers: { cookie, 'x-wallboard-csrf': '1' },
      });
      expect(out.statusCode).toBe(204);
      expect(await gone).toBe('io server disconnect');
    } finally {
      socket.disconnect();
    }
  });

  it('is the only way in with sso_only, but for the command line’s sign-in links', async () => {
    await service.call('POST', '/users', { login: 'fay', password: 'a good long password', role: 'viewer' });
    await service.call('PUT', '/account/sso', settings({ sso_only: true }));
    const byPassword = () =>
      service.call('POST', '/session', { login: 'fay', password: 'a good long password' }, null);
    const refused = await byPassword();
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: { code: 'sso_only' } });
    const wrong = await service.call(
      'POST',
      '/session',
      { login: 'fay', password: 'a wrong long password' },
      null,
    );
    expect(wrong.statusCode).toBe(401);

    const code = await createSignInCode(service.db, 'fay', clock.now());
    expect((await service.call('POST', '/session', { code }, null)).statusCode).toBe(200);

    await service.call('PUT', '/account/sso', settings({ sso_only: false }));
    expect((await byPassword()).statusCode).toBe(200);
  });
});
