import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserCommand } from './cli-commands';
import { parseCommand } from './cli-options';
import { createSignInCode, SIGN_IN_CODE_TTL_MS } from './actions/sign-in-codes';
import { createUser, LAST_ADMIN_MESSAGE } from './actions/users';
import { hashSecret } from './http/auth';
import { startTestService, type TestService } from './test-support';
import { FakeClock } from './testing/fake-clock';
import { runUserCommand } from './user-commands';

const clock = new FakeClock('2026-11-21T07:00:00.000Z');
let service: TestService;
const PASSWORD = 'correct horse battery';
const CSRF = { 'x-wallboard-csrf': '1' };

beforeAll(async () => {
  service = await startTestService({ clock });
  await createUser(service.db, { login: 'ada', password: PASSWORD, role: 'admin' });
  await createUser(service.db, { login: 'val', password: PASSWORD, role: 'viewer' });
});
afterAll(() => service.close());

let address = 0;
function request(
  method: InjectOptions['method'],
  url: string,
  options: { body?: unknown; cookie?: string; token?: string; from?: string } = {},
): Promise<LightMyRequestResponse> {
  return service.app.inject({
    method,
    url,
    remoteAddress: options.from ?? `10.1.${Math.floor(++address / 250)}.${address % 250}`,
    headers: {
      ...(options.cookie ? { cookie: options.cookie, ...CSRF } : {}),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    },
    ...(options.body === undefined ? {} : { payload: options.body as InjectOptions['payload'] }),
  });
}

async function signIn(body: object, from?: string): Promise<string> {
  const response = await request('POST', '/session', { body, from });
  expect(response.statusCode, response.body).toBe(200);
  return `wb_session=${response.cookies.find((c) => c.name === 'wb_session')?.value}`;
}

async function idOf(login: string): Promise<string> {
  const users = (await service.call('GET', '/users')).json() as { id: string; login: string }[];
  const user = users.find((u) => u.login === login);
  if (!user) throw new Error(`no user ${login}`);
  return user.id;
}

describe('user management over HTTP', () => {
  it('lets a signed-in admin list, create, change and delete users', async () => {
    const admin = await signIn({ login: 'ada', password: PASSWORD });
    const created = await request('POST', '/users', {
      cookie: admin,
      body: { login: 'Grace@example.com', password: PASSWORD, role: 'viewer' },
    });
    expect(created.statusCode).toBe(201);
    const grace = created.json();
    expect(grace).toEqual({
      id: expect.any(String),
      login: 'Grace@example.com',
      role: 'viewer',
      groups: [],
      sso: false,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(created.body).not.toContain('scrypt');
    const listed = await request('GET', '/users', { cookie: admin });
    expect(listed.json().map((u: { login: string }) => u.login)).toEqual(['ada', 'Grace@example.com', 'val']);

    const promoted = await request('PATCH', `/users/${grace.id}`, { cookie: admin, body: { role: 'admin' } });
    expect(promoted.json()).toMatchObject({ role: 'admin' });
    expect((await request('DELETE', `/users/${grace.id}`, { cookie: admin })).statusCode).toBe(204);
    expect((await request('DELETE', `/users/${grace.id}`, { cookie: admin })).statusCode).toBe(404);
  });

  it('answers bad input with a clear error, and a taken login with 409', async () => {
    const taken = await service.call('POST', '/users', { login: 'ADA', password: PASSWORD, role: 'admin' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error.message).toBe('user ADA exists');
    const short = await service.call('POST', '/users', { login: 'bob', password: 'short', role: 'admin' });
    expect(short.statusCode).toBe(400);
    expect(short.json().error.details).toEqual([
      { path: 'password', message: 'must have 10 to 1024 characters' },
    ]);
    const spaced = await service.call('POST', '/users', { login: 'a b', password: PASSWORD, role: 'admin' });
    expect(spaced.json().error.details[0]).toMatchObject({ path: 'login' });
    const role = await service.call('POST', '/users', { login: 'bob', password: PASSWORD, role: 'root' });
    expect(role.statusCode).toBe(400);
    const empty = await service.call('PATCH', `/users/${await idOf('val')}`, {});
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toContain('give role, password, groups or any of them');
    expect((await service.call('PATCH', '/users/usr_none', { role: 'viewer' })).statusCode).toBe(404);
    // The groups a role is kept to exist, and an admin has none: nothing is stored otherwise.
    const group = (await service.call('POST', '/groups', { name: 'Lobby' })).json<{ id: string }>().id;
    const unknown = { login: 'kim', password: PASSWORD, role: 'editor', groups: [group, 'grp_none'] };
    const refused = await service.call('POST', '/users', unknown);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.details).toEqual([
      { path: 'groups.1', message: 'must be a group of this account' },
    ]);
    const admin = await service.call('POST', '/users', { ...unknown, role: 'admin', groups: [group] });
    expect(admin.json().error.details).toEqual([{ path: 'groups', message: 'must be empty for an admin' }]);
    expect((await service.call('GET', '/users')).body).not.toContain('"kim"');
    const kept = await service.call('POST', '/users', { ...unknown, groups: [group] });
    expect(kept.json()).toMatchObject({ role: 'editor', groups: [group] });
    const promoted = await service.call('PATCH', `/users/${kept.json().id}`, { role: 'admin' });
    expect(promoted.json()).toMatchObject({ role: 'admin', groups: [] });
    expect((await service.call('DELETE', `/users/${kept.json().id}`)).statusCode).toBe(204);
  });

  it('lets viewers see the users, and refuses them every change with 403', async () => {
    const viewer = await signIn({ login: 'val', password: PASSWORD });
    const readonly = await service.tokenOf('readonly');
    const listed = await request('GET', '/users', { cookie: viewer });
    expect(listed.statusCode).toBe(200);
    expect(JSON.stringify(listed.json())).not.toMatch(/password|hash/);
    for (const [method, url, body] of [
      ['POST', '/users', { login: 'x', password: PASSWORD, role: 'admin' }],
      ['PATCH', `/users/${await idOf('ada')}`, { role: 'viewer' }],
      ['DELETE', `/users/${await idOf('ada')}`, undefined],
    ] as const) {
      const asViewer = await request(method, url, { cookie: viewer, body });
      expect(asViewer.statusCode, `${method} ${url}`).toBe(403);
      expect(asViewer.json().error.message).toBe(
        `a viewer may not ${method} ${url.replace(/usr_\w+/, ':id')}`,
      );
      const asToken = await request(method, url, { token: readonly, body });
      expect(asToken.statusCode).toBe(403);
      expect(asToken.json().error.message).toContain('a token of scope "readonly" may not');
    }
    // Ada is still there and still an admin.
    expect((await service.call('GET', '/users')).json()).toContainEqual(
      expect.objectContaining({ login: 'ada', role: 'admin' }),
    );
  });

  it('lists the users to people and full tokens only: readonly, affiliated and device-bound tokens get 403', async () => {
    expect((await service.call('POST', '/devices', { tag: 'lobby' })).statusCode).toBe(201);
    const bound = await service.call('POST', '/account/tokens', { scope: 'affiliated', device_tag: 'lobby' });
    const machines = [
      await service.tokenOf('readonly'),
      await service.tokenOf('affiliated'),
      bound.json().token as string,
    ];
    const answers = await Promise.all(machines.map((token) => request('GET', '/users', { token })));
    expect(answers.map((answer) => answer.statusCode)).toEqual([403, 403, 403]);
    expect(answers.map((answer) => answer.body).join()).not.toContain('ada');
    expect((await request('GET', '/users', { token: await service.tokenOf('full') })).statusCode).toBe(200);
  });

  it('keeps the last admin: neither demoted nor deleted (409)', async () => {
    const ada = await idOf('ada');
    const demoted = await service.call('PATCH', `/users/${ada}`, { role: 'viewer' });
    expect(demoted.statusCode).toBe(409);
    expect(demoted.json().error).toMatchObject({ code: 'conflict', message: LAST_ADMIN_MESSAGE });
    expect((await service.call('DELETE', `/users/${ada}`)).statusCode).toBe(409);
    // With a second admin, the first may go.
    await createUser(service.db, { login: 'second', password: PASSWORD, role: 'admin' });
    expect(
      (await service.call('PATCH', `/users/${await idOf('second')}`, { role: 'viewer' })).statusCode,
    ).toBe(200);
    expect(
      (await service.call('PATCH', `/users/${await idOf('second')}`, { role: 'admin' })).statusCode,
    ).toBe(200);
    expect((await service.call('DELETE', `/users/${await idOf('second')}`)).statusCode).toBe(204);
    expect((await service.call('DELETE', `/users/${ada}`)).statusCode).toBe(409);
  });

  it("ends a user's sessions at once when its password changes or it is deleted", async () => {
    await createUser(service.db, { login: 'leaving', password: PASSWORD, role: 'viewer' });
    const id = await idOf('leaving');
    const before = await signIn({ login: 'leaving', password: PASSWORD });
    expect((await request('GET', '/session', { cookie: before })).statusCode).toBe(200);
    const changed = await service.call('PATCH', `/users/${id}`, { password: 'a brand new password' });
    expect(changed.statusCode).toBe(200);
    expect((await request('GET', '/session', { cookie: before })).statusCode).toBe(401);
    const after = await signIn({ login: 'leaving', password: 'a brand new password' });
    expect((await service.call('DELETE', `/users/${id}`)).statusCode).toBe(204);
    expect((await request('GET', '/channels', { cookie: after })).statusCode).toBe(401);
  });
});

describe('sign-in links', () => {
  it('signs in once with a code, within 15 minutes', async () => {
    const code = await createSignInCode(service.db, 'ada', clock.now());
    const cookie = await signIn({ code });
    expect((await request('GET', '/session', { cookie })).json()).toMatchObject({
      login: 'ada',
      role: 'admin',
    });
    const again = await request('POST', '/session', { body: { code } });
    expect(again.statusCode).toBe(401);
    expect(again.json().error.message).toMatch(/unknown, used or expired/);

    const late = await createSignInCode(service.db, 'ada', clock.now());
    // Kept as a hash only: the store never holds a code that would sign anyone in.
    const stored = await service.db.kysely.selectFrom('sign_in_codes').select('code_hash').execute();
    expect(stored.map((row) => row.code_hash)).toEqual([hashSecret(late)]);
    await clock.advance(SIGN_IN_CODE_TTL_MS);
    expect((await request('POST', '/session', { body: { code: late } })).statusCode).toBe(401);
  });

  it('counts wrong codes against the address, as wrong passwords are', async () => {
    const from = '10.9.9.9';
    for (let i = 0; i < 10; i++) {
      expect((await request('POST', '/session', { body: { code: `wbc_wrong${i}` }, from })).statusCode).toBe(
        401,
      );
    }
    const limited = await request('POST', '/session', { body: { code: 'wbc_wrong' }, from });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
  });

  it('refuses a body with both a code and a password, or neither', async () => {
    for (const body of [{ code: 'x', login: 'ada', password: PASSWORD }, {}]) {
      expect((await request('POST', '/session', { body })).statusCode).toBe(400);
    }
  });

  it('prints a link with the code in the fragment from `user link`', async () => {
    const command = parseCommand(['user', 'link', 'ada', '--port', '9000']) as UserCommand;
    const printed = await runUserCommand(command, service.db, process.stdin, clock.now());
    const match = /^http:\/\/127\.0\.0\.1:9000\/console\/sign-in#code=(wbc_[\w-]{43})\n$/.exec(printed);
    expect(match).not.toBeNull();
    await signIn({ code: match?.[1] });
    const unknown = parseCommand(['user', 'link', 'nobody']) as UserCommand;
    await expect(runUserCommand(unknown, service.db, process.stdin)).rejects.toThrow('user nobody not found');
  });
});
