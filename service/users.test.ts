import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, SESSION_IDLE_MS, SESSION_MAX_MS } from './actions/users';
import { SESSION_PRUNE_INTERVAL_MS } from './jobs/sessions';
import { runServiceCommand, spawnService } from './service-process';
import { startTestService, type TestService } from './test-support';
import { FakeClock } from './testing/fake-clock';
import { runUserCommand } from './user-commands';

const clock = new FakeClock('2026-11-21T07:00:00.000Z');
let service: TestService;
const PASSWORD = 'correct horse battery';

beforeAll(async () => {
  service = await startTestService({ clock });
  await createUser(service.db, { login: 'Ada@example.com', password: PASSWORD, role: 'admin' });
  await createUser(service.db, { login: 'viewer', password: PASSWORD, role: 'viewer' });
});
afterAll(() => service.close());

let address = 0;
/** Each call comes from its own address, so that the per-address limit stays out of the way. */
function request(
  method: InjectOptions['method'],
  url: string,
  options: { body?: unknown; cookie?: string; headers?: Record<string, string>; from?: string } = {},
): Promise<LightMyRequestResponse> {
  return service.app.inject({
    method,
    url,
    remoteAddress: options.from ?? `10.0.${Math.floor(++address / 250)}.${address % 250}`,
    headers: { ...(options.cookie ? { cookie: options.cookie } : {}), ...options.headers },
    ...(options.body === undefined ? {} : { payload: options.body as InjectOptions['payload'] }),
  });
}

async function signIn(login: string, password = PASSWORD): Promise<string> {
  const response = await request('POST', '/session', { body: { login, password } });
  expect(response.statusCode).toBe(200);
  const cookie = response.cookies.find((c) => c.name === 'wb_session');
  return `wb_session=${cookie?.value}`;
}

const CSRF = { 'x-wallboard-csrf': '1' };
const newToken = { scope: 'readonly', name: 'from the console' };

describe('signing in', () => {
  it('answers the user and sets an httpOnly, SameSite=Strict cookie; logins are case-insensitive', async () => {
    const response = await request('POST', '/session', {
      body: { login: 'ada@EXAMPLE.com', password: PASSWORD },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      id: expect.any(String),
      login: 'Ada@example.com',
      role: 'admin',
      groups: [],
      sso: false,
    });
    expect(response.body).not.toContain('scrypt');
    const header = String(response.headers['set-cookie']);
    expect(header).toMatch(/^wb_session=wb_[\w-]+; Max-Age=604800; Path=\/; HttpOnly; SameSite=Strict$/);
    const cookie = header.split(';')[0] ?? '';
    const me = await request('GET', '/session', { cookie });
    expect(me.json()).toMatchObject({ login: 'Ada@example.com', role: 'admin' });
  });

  it('gives one answer for a wrong password and an unknown login', async () => {
    const wrong = await request('POST', '/session', {
      body: { login: 'viewer', password: 'not the password' },
    });
    const unknown = await request('POST', '/session', {
      body: { login: 'nobody', password: 'not the password' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toEqual(wrong.json());
    expect(wrong.headers['set-cookie']).toBeUndefined();
    expect((await request('GET', '/session')).statusCode).toBe(401);
  });

  it('limits failed sign-ins per client address, and per login from one address', async () => {
    const from = '192.0.2.1';
    for (let i = 0; i < 10; i++) {
      const response = await request('POST', '/session', {
        from,
        body: { login: `x${i}`, password: 'wrong password' },
      });
      expect(response.statusCode).toBe(401);
    }
    const limited = await request('POST', '/session', {
      from,
      body: { login: 'viewer', password: PASSWORD },
    });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json().error.code).toBe('rate_limited');

    // From everywhere, a login is never refused (sign-in-limits.test.ts): the owner must get in.
    for (let i = 0; i < 5; i++) {
      const response = await request('POST', '/session', {
        from: '192.0.2.2',
        body: { login: 'target', password: 'wrong password' },
      });
      expect(response.statusCode).toBe(401);
    }
    const perLogin = await request('POST', '/session', {
      from: '192.0.2.2',
      body: { login: 'TARGET', password: 'wrong password' },
    });
    expect(perLogin.statusCode).toBe(429);
  });

  it('signs out: 204, the cookie cleared, and the session gone', async () => {
    const cookie = await signIn('viewer');
    const out = await request('DELETE', '/session', { cookie, headers: CSRF });
    expect(out.statusCode).toBe(204);
    expect(String(out.headers['set-cookie'])).toMatch(
      /^wb_session=; Max-Age=0; Path=\/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Strict$/,
    );
    expect((await request('GET', '/session', { cookie })).statusCode).toBe(401);
    expect((await request('GET', '/channels', { cookie })).statusCode).toBe(401);
  });
});

describe('what a session may do', () => {
  it('lets a viewer read but not write, as a readonly token', async () => {
    const cookie = await signIn('viewer');
    expect((await request('GET', '/channels', { cookie })).statusCode).toBe(200);
    const write = await request('POST', '/account/tokens', { cookie, headers: CSRF, body: newToken });
    expect(write.statusCode).toBe(403);
    expect(write.json().error.code).toBe('forbidden');
  });

  it('keeps scripts, where data-source keys were kept, from viewers as from readonly tokens', async () => {
    const cookie = await signIn('viewer');
    expect((await request('GET', '/scripts', { cookie })).statusCode).toBe(403);
    const readonly = await service.tokenOf('readonly');
    const asToken = await service.call('GET', '/scripts', undefined, readonly);
    expect(asToken.statusCode).toBe(403);
    const write = await request('POST', '/scripts', {
      cookie,
      headers: CSRF,
      body: { name: 'x', code: 'return {}', interval: '1m' },
    });
    expect(write.statusCode).toBe(403);
    expect(write.json().error.message).toBe('a viewer may not POST /scripts');
  });

  it('lets an admin write, as a full token, with the CSRF header from its own origin', async () => {
    const cookie = await signIn('ada@example.com');
    const headers = {
      ...CSRF,
      host: 'wall.example',
      origin: 'http://wall.example',
      'sec-fetch-site': 'same-origin',
    };
    const write = await request('POST', '/account/tokens', { cookie, headers, body: newToken });
    expect(write.statusCode).toBe(201);
  });

  it('refuses a write without the CSRF header, or from another origin', async () => {
    const cookie = await signIn('ada@example.com');
    const bare = await request('POST', '/account/tokens', { cookie, body: newToken });
    expect(bare.statusCode).toBe(403);
    expect(bare.json().error).toMatchObject({
      code: 'csrf',
      message: expect.stringContaining('x-wallboard-csrf'),
    });
    const foreign = await request('POST', '/account/tokens', {
      cookie,
      headers: { ...CSRF, host: 'wall.example', origin: 'https://evil.example' },
      body: newToken,
    });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().error.code).toBe('csrf');
    const crossSite = await request('POST', '/account/tokens', {
      cookie,
      headers: { ...CSRF, 'sec-fetch-site': 'cross-site' },
      body: newToken,
    });
    expect(crossSite.statusCode).toBe(403);
    // Reads need no header.
    expect((await request('GET', '/account/tokens', { cookie })).statusCode).toBe(200);
  });

  it('leaves token requests as they were: no CSRF header needed, and the token wins over a cookie', async () => {
    const viewerCookie = await signIn('viewer');
    const response = await service.app.inject({
      method: 'POST',
      url: '/account/tokens',
      headers: {
        authorization: `Bearer ${await service.tokenOf('full')}`,
        origin: 'https://evil.example',
        cookie: viewerCookie,
      },
      payload: newToken,
    });
    expect(response.statusCode).toBe(201);
  });
});

describe('expiry', () => {
  it('ends a session idle for 12 hours, and any after 7 days, and prunes it', async () => {
    const idle = await signIn('viewer');
    await clock.jump(SESSION_IDLE_MS - 60_000);
    expect((await request('GET', '/session', { cookie: idle })).statusCode).toBe(200);
    await clock.jump(SESSION_IDLE_MS);
    const expired = await request('GET', '/channels', { cookie: idle });
    expect(expired.statusCode).toBe(401);
    expect(expired.json().error.message).toContain('sign in again');

    const busy = await signIn('viewer');
    for (let spent = SESSION_IDLE_MS / 2; spent < SESSION_MAX_MS; spent += SESSION_IDLE_MS / 2) {
      await clock.jump(SESSION_IDLE_MS / 2);
      expect((await request('GET', '/session', { cookie: busy })).statusCode).toBe(200);
    }
    await clock.jump(SESSION_IDLE_MS / 2);
    expect((await request('GET', '/session', { cookie: busy })).statusCode).toBe(401);

    await clock.advance(SESSION_PRUNE_INTERVAL_MS);
    // Every session so far is over, and the job has deleted them all.
    expect(await service.db.kysely.selectFrom('sessions').select('id').execute()).toEqual([]);
    expect((await request('GET', '/session', { cookie: await signIn('viewer') })).statusCode).toBe(200);
  });
});

describe('the user command', () => {
  it('reads the password from stdin, and a new one signs the user out everywhere', async () => {
    const create = {
      kind: 'user',
      store: { dataDir: '' },
      action: 'create',
      login: 'grace',
      role: 'viewer',
    } as const;
    const out = await runUserCommand(
      { ...create, passwordStdin: true },
      service.db,
      Readable.from(['first password\n']),
    );
    expect(out).toBe('created viewer grace\n');
    const cookie = await signIn('grace', 'first password');
    const short = runUserCommand(
      { ...create, login: 'hopper', passwordStdin: true },
      service.db,
      Readable.from(['short']),
    );
    await expect(short).rejects.toThrow('a password has 10 to 1024 characters');
    const change = { kind: 'user', store: { dataDir: '' }, action: 'password', login: 'Grace' } as const;
    await runUserCommand({ ...change, passwordStdin: true }, service.db, Readable.from(['second password']));
    expect((await request('GET', '/session', { cookie })).statusCode).toBe(401);
    const again = await signIn('grace', 'second password');
    const remove = { kind: 'user', store: { dataDir: '' }, action: 'delete', login: 'GRACE' } as const;
    expect(await runUserCommand(remove, service.db, Readable.from([]))).toBe('deleted GRACE\n');
    expect((await request('GET', '/session', { cookie: again })).statusCode).toBe(401);
    // Its sessions went with it (the foreign key cascades on both stores).
    const orphans = await service.db.kysely
      .selectFrom('sessions')
      .leftJoin('users', 'users.id', 'sessions.user_id')
      .select('sessions.id')
      .where('users.id', 'is', null)
      .execute();
    expect(orphans).toEqual([]);
  });

  it('creates an admin with a generated password, who signs in to the real service', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'wallboard-users-'));
    try {
      const help = await runServiceCommand(['--help']);
      expect(help.stdout).toContain('user create --role <role> --login <login>');
      const created = await runServiceCommand([
        'user',
        'create',
        '--role',
        'admin',
        '--login',
        'root',
        '--data',
        dataDir,
      ]);
      expect(created.code).toBe(0);
      const password = /password \(shown once\): (\S+)/.exec(created.stdout)?.[1] ?? '';
      expect(password.length).toBeGreaterThanOrEqual(20);
      const taken = await runServiceCommand([
        'user',
        'create',
        '--role',
        'viewer',
        '--login',
        'ROOT',
        '--data',
        dataDir,
      ]);
      expect(taken.code).toBe(1);
      expect(taken.stderr).toContain('user ROOT exists');
      const badRole = await runServiceCommand([
        'user',
        'create',
        '--role',
        'root',
        '--login',
        'x',
        '--data',
        dataDir,
      ]);
      expect(badRole.code).toBe(2);
      expect(badRole.stderr).toContain('--role must be admin, editor, publisher or viewer');
      const list = await runServiceCommand(['user', 'list', '--data', dataDir]);
      expect(list.stdout).toMatch(/^root\tadmin\t/);

      const running = await spawnService(['--port', '0', '--data', dataDir]);
      try {
        const signedIn = await fetch(`${running.url}/session`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ login: 'root', password }),
        });
        expect(signedIn.status).toBe(200);
        const cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
        const write = await fetch(`${running.url}/account/tokens`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie, ...CSRF },
          body: JSON.stringify(newToken),
        });
        expect(write.status).toBe(201);
        // The running service holds the embedded store's folder: the command says so and changes nothing.
        const busy = await runServiceCommand(['user', 'delete', 'root', '--data', dataDir]);
        expect(busy.code).toBe(1);
        expect(busy.stderr).toContain('is in use by process');
      } finally {
        await running.stop('SIGTERM');
      }
      const deleted = await runServiceCommand(['user', 'delete', 'Root', '--data', dataDir]);
      expect(deleted.stdout).toBe('deleted Root\n');
      expect((await runServiceCommand(['user', 'list', '--data', dataDir])).stdout).toBe('');
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
