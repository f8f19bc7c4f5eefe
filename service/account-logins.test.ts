import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { withAccount } from './accounts/scope';
import { createUser } from './actions/users';
import type { UserCommand } from './cli-commands';
import { parseCommand } from './cli-options';
import { migrate } from './db/migrate';
import { MIGRATIONS } from './db/migrations';
import { openStoreAtVersion, startTestService, type AccountCall, type TestService } from './test-support';
import { runUserCommand } from './user-commands';

// Logins are unique within an account (docs/api/users.md): another account's admin can neither
// learn that a login exists elsewhere nor be kept from using it, and each person signs in to the
// account whose password they give.
let service: TestService;
let a: { id: string; call: AccountCall };
let b: { id: string; call: AccountCall };
const A_PASSWORD = 'the password of acme';
const B_PASSWORD = 'the password of bolt';

beforeAll(async () => {
  service = await startTestService();
  a = await service.addAccount('Acme');
  b = await service.addAccount('Bolt');
  const made = await a.call('POST', '/users', {
    login: 'ceo@acme.example',
    password: A_PASSWORD,
    role: 'admin',
  });
  expect(made.statusCode).toBe(201);
});
afterAll(() => service.close());

function signIn(body: object, from = '192.0.2.1'): Promise<LightMyRequestResponse> {
  return service.app.inject({ method: 'POST', url: '/session', remoteAddress: from, payload: body });
}

/** The parts of an answer that could tell one login from another: its status, and its body's keys. */
function shape(response: LightMyRequestResponse) {
  return { status: response.statusCode, keys: Object.keys(response.json()).sort() };
}

describe("another account's logins", () => {
  it('are not disclosed: a login used elsewhere is created as a never-used one is', async () => {
    const elsewhere = await b.call('POST', '/users', {
      login: 'CEO@acme.example',
      password: B_PASSWORD,
      role: 'viewer',
    });
    const never = await b.call('POST', '/users', {
      login: 'nobody@acme.example',
      password: B_PASSWORD,
      role: 'viewer',
    });
    expect(shape(elsewhere)).toEqual(shape(never));
    expect(elsewhere.statusCode).toBe(201);
    // Each account lists its own user of that login, and only its own.
    const listed = async (call: AccountCall) =>
      ((await call('GET', '/users')).json() as { login: string }[]).map((user) => user.login);
    expect(await listed(a.call)).toEqual(['ceo@acme.example']);
    expect(await listed(b.call)).toEqual(['CEO@acme.example', 'nobody@acme.example']);
    // Within one account a login is still taken, in any case.
    const again = await b.call('POST', '/users', {
      login: 'ceo@ACME.example',
      password: B_PASSWORD,
      role: 'admin',
    });
    expect(again.statusCode).toBe(409);
  });

  it('sign each person in to the account of the password they give', async () => {
    const asA = await signIn({ login: 'ceo@acme.example', password: A_PASSWORD });
    const asB = await signIn({ login: 'ceo@acme.example', password: B_PASSWORD });
    expect([asA.statusCode, asB.statusCode]).toEqual([200, 200]);
    const accountOf = async (response: LightMyRequestResponse) => {
      const cookie = response.cookies.find((c) => c.name === 'wb_session')?.value;
      const account = await service.app.inject({
        method: 'GET',
        url: '/account',
        headers: { cookie: `wb_session=${cookie}` },
      });
      return (account.json() as { id: string }).id;
    };
    expect([await accountOf(asA), await accountOf(asB)]).toEqual([a.id, b.id]);
    expect((await signIn({ login: 'ceo@acme.example', password: 'neither of them' })).statusCode).toBe(401);
  });

  it('ask which account when one password opens several, and sign in to the one named', async () => {
    const same = 'one password for both';
    for (const call of [a.call, b.call]) {
      expect(
        (await call('POST', '/users', { login: 'agency', password: same, role: 'admin' })).statusCode,
      ).toBe(201);
    }
    const ambiguous = await signIn({ login: 'agency', password: same }, '192.0.2.2');
    expect(ambiguous.statusCode).toBe(409);
    expect(ambiguous.json().error.details).toEqual([
      { path: 'account', message: expect.stringContaining(a.id) },
    ]);
    const chosen = await signIn({ login: 'agency', password: same, account: b.id }, '192.0.2.2');
    expect(chosen.statusCode).toBe(200);
    // Naming an account the password does not open is a wrong password like any other.
    const wrong = await signIn(
      { login: 'ceo@acme.example', password: B_PASSWORD, account: a.id },
      '192.0.2.3',
    );
    expect(wrong.statusCode).toBe(401);
  });
});

describe('the command line', () => {
  it('asks for --account when a login is in several accounts, and acts in the one given', async () => {
    const link = parseCommand(['user', 'link', 'agency']) as UserCommand;
    await expect(runUserCommand(link, service.db, process.stdin)).rejects.toThrow(
      `user agency is in several accounts (${a.id}, ${b.id}): give --account <id>`,
    );
    const inB = parseCommand(['user', 'link', 'agency', '--account', b.id]) as UserCommand;
    expect(inB).toMatchObject({ action: 'link', accountId: b.id });
    // server.ts runs a command with --account in that account.
    const printed = await withAccount(b.id, () => runUserCommand(inB, service.db, process.stdin));
    const code = /#code=(wbc_[\w-]+)/.exec(printed)?.[1];
    const signedIn = await signIn({ code });
    expect(signedIn.statusCode).toBe(200);
    const deleted = parseCommand(['user', 'delete', 'agency', '--account', a.id]) as UserCommand;
    await withAccount(a.id, () => runUserCommand(deleted, service.db, process.stdin));
    // The other account's user of that login stays.
    expect(((await b.call('GET', '/users')).json() as { login: string }[]).map((u) => u.login)).toContain(
      'agency',
    );
    expect(((await a.call('GET', '/users')).json() as { login: string }[]).map((u) => u.login)).not.toContain(
      'agency',
    );
  });
});

describe('the migration account-logins', () => {
  it('keeps the users and their sessions, and makes logins unique per account', async () => {
    const version = MIGRATIONS.find((migration) => migration.name === 'account-logins')?.version ?? 0;
    const store = await openStoreAtVersion(version - 1);
    try {
      const db = store.db;
      // As the service of that version made a user: today's columns come from later migrations.
      await db.kysely
        .insertInto('users')
        .values({ id: 'usr_ada', login: 'Ada', login_key: 'ada', password_hash: 'x', role: 'admin' })
        .execute();
      await sql`insert into accounts (id, name) values ('acc_other', 'Other')`.execute(db.kysely);
      const [user] = await db.kysely.selectFrom('users').select('id').execute();
      await db.kysely
        .insertInto('sessions')
        .values({
          id: 'ses_1',
          user_id: user?.id ?? '',
          secret_hash: 'h',
          created_at: '2026-11-21T07:00:00.000Z',
          expires_at: '2026-11-28T07:00:00.000Z',
          last_seen_at: '2026-11-21T07:00:00.000Z',
        })
        .execute();
      await migrate(db, MIGRATIONS);
      expect(await db.kysely.selectFrom('sessions').select('id').execute()).toEqual([{ id: 'ses_1' }]);
      await withAccount('acc_other', () =>
        createUser(db, { login: 'ada', password: B_PASSWORD, role: 'admin' }),
      );
      await expect(createUser(db, { login: 'ADA', password: B_PASSWORD, role: 'admin' })).rejects.toThrow(
        'user ADA exists',
      );
      const logins = await db.kysely
        .selectFrom('users')
        .select(['login', 'account_id'])
        .orderBy('account_id')
        .execute();
      expect(logins).toEqual([
        { login: 'ada', account_id: 'acc_other' },
        { login: 'Ada', account_id: 'default' },
      ]);
    } finally {
      await store.drop();
    }
  });
});
