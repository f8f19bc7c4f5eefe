import { randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Account } from '../src/shared/account';
import type { PairingCreated } from '../src/shared/pairing';
import { runAccountCommand } from './account-commands';
import { acrossAccounts } from './accounts/scope';
import { parseCommand } from './cli-options';
import { ADMIN_SECRET, startTestService, type AccountCall, type TestService } from './test-support';
import { multipart } from './testing/multipart';
import { postRelease, webManifest } from './testing/release-uploads';
import { solidPng } from './testing/png';

// Quotas per account: past one a create is refused (403 quota_exceeded), nothing is written, and
// the other accounts go on as before.
const MB = 1024 * 1024;
const PASSWORD = 'correct horse battery staple';

let service: TestService;

beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

/** Runs `npm run service -- <argv>` on the test store, as the command line does. */
async function command(...argv: string[]): Promise<string> {
  const parsed = parseCommand(argv);
  if (parsed.kind !== 'account') throw new Error(`not an account command: ${argv.join(' ')}`);
  return runAccountCommand(parsed, service.db);
}

/** A new account (with a full token) whose quotas `account update` sets. */
async function accountWith(name: string, ...quotas: string[]): Promise<{ id: string; call: AccountCall }> {
  const account = await service.addAccount(name);
  await command('account', 'update', account.id, ...quotas);
  return account;
}

/** How many rows of `table` the account holds, read from the store itself. */
async function rowsOf(
  table: 'devices' | 'scripts' | 'users' | 'media' | 'tokens',
  accountId: string,
): Promise<number> {
  const row = await acrossAccounts(() =>
    service.db.kysely
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('account_id', '=', accountId)
      .executeTakeFirstOrThrow(),
  );
  return Number(row.count);
}

async function mediaBytesOf(accountId: string): Promise<number> {
  const rows = await acrossAccounts(() =>
    service.db.kysely.selectFrom('media').select('bytes').where('account_id', '=', accountId).execute(),
  );
  return rows.reduce((sum, row) => sum + Number(row.bytes), 0);
}

/** A PNG of about `bytes` bytes, each a different content (trailing bytes after its end). */
function pngOf(bytes: number): Buffer {
  const png = solidPng(2, 2);
  return Buffer.concat([png, randomBytes(Math.max(0, bytes - png.length))]);
}

function upload(token: string, content: Buffer): Promise<LightMyRequestResponse> {
  const body = multipart([{ name: 'file', filename: 'a.png', type: 'image/png', content }]);
  return service.app.inject({
    method: 'POST',
    url: '/media',
    headers: { ...body.headers, authorization: `Bearer ${token}` },
    payload: body.payload,
  });
}

function expectQuotaRefusal(response: LightMyRequestResponse, quota: string, message: RegExp): void {
  expect(response.statusCode, response.body).toBe(403);
  const { error } = response.json<{
    error: { code: string; message: string; details: { path: string }[] };
  }>();
  expect(error.code).toBe('quota_exceeded');
  expect(error.message).toMatch(message);
  expect(error.details[0]?.path).toBe(`quotas.${quota}`);
}

const quotasOf = async (call: AccountCall) => (await call('GET', '/account')).json<Account>().quotas;

describe('the devices quota', () => {
  it('refuses the device past it, by POST /devices or a pairing, and writes nothing', async () => {
    const tight = await accountWith('Devices', '--devices', '2');
    for (const tag of ['a', 'b'])
      expect((await tight.call('POST', '/devices', { tag })).statusCode).toBe(201);
    expectQuotaRefusal(
      await tight.call('POST', '/devices', { tag: 'c' }),
      'devices',
      /devices quota is 2; 2 used/,
    );
    const pairing = (
      await service.app.inject({ method: 'POST', url: '/pairings', remoteAddress: '198.51.100.9' })
    ).json<PairingCreated>();
    expectQuotaRefusal(
      await tight.call('POST', '/pairings/claim', { code: pairing.code }),
      'devices',
      /2 used/,
    );
    expect(await rowsOf('devices', tight.id)).toBe(2);
    expect(await rowsOf('tokens', tight.id)).toBe(1);
    expect((await quotasOf(tight.call)).devices).toEqual({ used: 2, limit: 2 });
    // Another account is not held by it, and the code is still there for it.
    expect((await service.call('POST', '/devices', { tag: 'c' })).statusCode).toBe(201);
    expect((await service.call('POST', '/pairings/claim', { code: pairing.code })).statusCode).toBe(201);
  });

  it('lets only as many of simultaneous creates through as it has room for', async () => {
    const tight = await accountWith('Devices at once', '--devices', '3');
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, n) => tight.call('POST', '/devices', { tag: `d${n}` })),
    );
    expect(answers.filter((answer) => answer.statusCode === 201)).toHaveLength(3);
    expect(answers.filter((answer) => answer.statusCode === 403)).toHaveLength(5);
    expect(await rowsOf('devices', tight.id)).toBe(3);
  });
});

describe('the scripts quota', () => {
  it('refuses the script past it and writes nothing', async () => {
    const tight = await accountWith('Scripts', '--scripts', '1');
    const script = { name: 'x', code: 'return 1', interval: '1h', enabled: false };
    expect((await tight.call('POST', '/scripts', script)).statusCode).toBe(201);
    expectQuotaRefusal(await tight.call('POST', '/scripts', script), 'scripts', /scripts quota is 1; 1 used/);
    expect(await rowsOf('scripts', tight.id)).toBe(1);
    expect((await quotasOf(tight.call)).scripts).toEqual({ used: 1, limit: 1 });
    expect((await service.call('POST', '/scripts', script)).statusCode).toBe(201);
  });
});

describe('the users quota', () => {
  it('refuses the user past it and writes nothing', async () => {
    const tight = await accountWith('Users', '--users', '1');
    const user = (login: string) => ({ login, password: PASSWORD, role: 'viewer' });
    expect((await tight.call('POST', '/users', user('quota-one'))).statusCode).toBe(201);
    expectQuotaRefusal(
      await tight.call('POST', '/users', user('quota-two')),
      'users',
      /users quota is 1; 1 used/,
    );
    expect(await rowsOf('users', tight.id)).toBe(1);
    expect((await quotasOf(tight.call)).users).toEqual({ used: 1, limit: 1 });
    expect((await service.call('POST', '/users', user('quota-two'))).statusCode).toBe(201);
  });
});

describe('the media quotas', () => {
  it('refuses the file past the files quota, and keeps nothing of it', async () => {
    const tight = await service.addAccount('Media files');
    await command('account', 'update', tight.id, '--media-files', '2');
    for (let n = 0; n < 2; n++) expect((await upload(tight.token, pngOf(1000))).statusCode).toBe(201);
    expectQuotaRefusal(
      await upload(tight.token, pngOf(1000)),
      'media_files',
      /media quota is 2 files; 2 used/,
    );
    expect(await rowsOf('media', tight.id)).toBe(2);
    expect((await quotasOf(tight.call)).media_files).toEqual({ used: 2, limit: 2 });
    expect((await upload(ADMIN_SECRET, pngOf(1000))).statusCode).toBe(201);
  });

  it('refuses the bytes past the bytes quota, and keeps nothing of them', async () => {
    const tight = await service.addAccount('Media bytes');
    await command('account', 'update', tight.id, '--media-mb', '1');
    expect((await upload(tight.token, pngOf(600 * 1024))).statusCode).toBe(201);
    const used = await mediaBytesOf(tight.id);
    expectQuotaRefusal(
      await upload(tight.token, pngOf(600 * 1024)),
      'media_bytes',
      /media quota is 1 MB; 0\.59 MB used/,
    );
    expect(await mediaBytesOf(tight.id)).toBe(used);
    expect(await rowsOf('media', tight.id)).toBe(1);
    // What is left is still there to use.
    expect((await upload(tight.token, pngOf(300 * 1024))).statusCode).toBe(201);
    const quotas = await quotasOf(tight.call);
    expect(quotas.media_bytes).toEqual({ used: await mediaBytesOf(tight.id), limit: MB });
    expect(quotas.media_bytes.used).toBeLessThanOrEqual(MB);
    expect((await upload(ADMIN_SECRET, pngOf(600 * 1024))).statusCode).toBe(201);
  });

  it('lets one of two simultaneous uploads through when there is room for one', async () => {
    const tight = await service.addAccount('Media at once');
    await command('account', 'update', tight.id, '--media-mb', '1');
    const answers = await Promise.all([0, 1, 2].map(() => upload(tight.token, pngOf(400 * 1024))));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 201, 403]);
    expect(await mediaBytesOf(tight.id)).toBeLessThanOrEqual(MB);
    expect(await rowsOf('media', tight.id)).toBe(2);
  });
});

describe('player releases and the media quota', () => {
  /** A web release of `version` whose one asset is `bytes` random bytes, uploaded with `token`. */
  function uploadRelease(token: string, version: string, bytes: number): Promise<LightMyRequestResponse> {
    const files = [
      { name: 'index.html', content: Buffer.from(`<!doctype html><title>${version}</title>`) },
      { name: 'assets/big.bin', content: randomBytes(bytes) },
    ];
    return postRelease(service.app, token, { kind: 'web' }, [
      ...files,
      { name: 'release.json', content: Buffer.from(webManifest(version, files)) },
    ]);
  }

  /** The release bytes the account holds, read from the store's rows of its release files. */
  async function releaseBytesOf(accountId: string): Promise<number> {
    const rows = await acrossAccounts(() =>
      service.db.kysely
        .selectFrom('release_files')
        .select('size')
        .where('account_id', '=', accountId)
        .execute(),
    );
    return rows.reduce((sum, row) => sum + Number(row.size), 0);
  }

  it('counts a release as media bytes, and refuses the release or the medium past the quota', async () => {
    const tight = await service.addAccount('Releases');
    await command('account', 'update', tight.id, '--media-mb', '1');
    expect((await uploadRelease(tight.token, '1.0.0', 600 * 1024)).statusCode).toBe(201);
    const held = await releaseBytesOf(tight.id);
    expect(held).toBeGreaterThan(600 * 1024);
    expect((await quotasOf(tight.call)).media_bytes).toEqual({ used: held, limit: MB });
    // The release's bytes leave no room for a medium of 600 kB, nor for a second release.
    expectQuotaRefusal(await upload(tight.token, pngOf(600 * 1024)), 'media_bytes', /0\.59 MB used/);
    expectQuotaRefusal(await uploadRelease(tight.token, '1.0.1', 600 * 1024), 'media_bytes', /0\.59 MB used/);
    expect(await releaseBytesOf(tight.id)).toBe(held);
    expect(await mediaBytesOf(tight.id)).toBe(0);
    // A release far past the room (5 MB) is refused as well, with nothing of it kept.
    expectQuotaRefusal(await uploadRelease(tight.token, '1.0.2', 5 * MB), 'media_bytes', /quota is 1 MB/);
    expect(await releaseBytesOf(tight.id)).toBe(held);
    // Another account is not held by it.
    expect((await uploadRelease(ADMIN_SECRET, '1.0.2', 600 * 1024)).statusCode).toBe(201);
  });

  it('lets one of two simultaneous releases through when there is room for one', async () => {
    const tight = await service.addAccount('Releases at once');
    await command('account', 'update', tight.id, '--media-mb', '1');
    const answers = await Promise.all(
      ['2.0.0', '2.0.1', '2.0.2'].map((version) => uploadRelease(tight.token, version, 400 * 1024)),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 201, 403]);
    expect(await releaseBytesOf(tight.id)).toBeLessThanOrEqual(MB);
  });
});

describe('the account', () => {
  it('tells each quota, unlimited unless set, with what it uses', async () => {
    const quotas = await quotasOf(service.call);
    expect(Object.keys(quotas).sort()).toEqual(['devices', 'media_bytes', 'media_files', 'scripts', 'users']);
    for (const quota of Object.values(quotas)) expect(quota.limit).toBeNull();
    expect(quotas.devices.used).toBe(await rowsOf('devices', 'default'));
  });
});

describe('account create and update on the command line', () => {
  it('sets quotas, lists them, changes and lifts them', async () => {
    const id = (
      await command(
        'account',
        'create',
        '--name',
        'Hosted',
        '--media-mb',
        '500',
        '--devices',
        '10',
        '--users',
        '3',
      )
    ).trim();
    expect(id).toMatch(/^acc_\w+$/);
    const listed = await command('account', 'list');
    expect(listed).toContain(
      `${id}\tHosted\tmedia-mb=500 media-files=unlimited scripts=unlimited devices=10 users=3\n`,
    );
    expect(listed).toMatch(
      /^default\tDefault\tmedia-mb=unlimited media-files=unlimited scripts=unlimited devices=unlimited users=unlimited$/m,
    );
    expect(
      await command(
        'account',
        'update',
        id,
        '--devices',
        'unlimited',
        '--scripts',
        '0',
        '--name',
        'Hosted 2',
      ),
    ).toBe(`${id}\tHosted 2\tmedia-mb=500 media-files=unlimited scripts=0 devices=unlimited users=3\n`);
  });

  it('refuses bad values, naming the option, and changes nothing', async () => {
    const before = await command('account', 'list');
    const id = before.split('\n')[0]?.split('\t')[0] ?? '';
    await expect(command('account', 'update', id, '--devices=-1')).rejects.toThrow(
      /--devices must be a whole number from 0 to 1000000000, or "unlimited", not "-1"/,
    );
    await expect(command('account', 'update', id, '--media-mb', '1.5')).rejects.toThrow(/--media-mb must be/);
    await expect(command('account', 'create', '--name', 'X', '--users', 'many')).rejects.toThrow(
      /--users must be/,
    );
    await expect(command('account', 'update', id)).rejects.toThrow(/needs --name or a quota/);
    await expect(command('account', 'update', 'acc_none', '--users', '1')).rejects.toThrow(
      /there is no account acc_none/,
    );
    expect(await command('account', 'list')).toBe(before);
  });
});
