import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCommand } from './cli-options';
import { openStore } from './db/open';
import { hashSecret, TokenAuthenticator } from './http/auth';
import { DeviceRepository } from './repositories/devices';
import type { StoredToken, TokenRepository } from './repositories/tokens';
import { runServiceCommand } from './service-process';
import { startTestService, type TestService } from './test-support';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

describe('tokens', () => {
  it('creates a token whose secret is shown once and works at once', async () => {
    const created = await service.call('POST', '/account/tokens', { scope: 'readonly', name: 'wall' });
    expect(created.statusCode).toBe(201);
    const body = created.json();
    expect(body).toMatchObject({ scope: 'readonly', name: 'wall', last_used_at: null });
    expect(body.token).toMatch(/^wb_/);
    const listed = await service.call('GET', '/account/tokens', undefined, body.token);
    expect(listed.statusCode).toBe(200);
    expect(JSON.stringify(listed.json())).not.toContain(body.token);
    expect(JSON.stringify(listed.json())).not.toContain('secret_hash');
  });

  it('filters by a repeated scope parameter', async () => {
    await service.tokenOf('affiliated');
    const scopes = async (query: string) =>
      ((await service.call('GET', `/account/tokens${query}`)).json() as { scope: string }[]).map(
        (t) => t.scope,
      );
    expect(new Set(await scopes(''))).toEqual(new Set(['full', 'readonly', 'affiliated']));
    expect(new Set(await scopes('?scope=full&scope=readonly'))).toEqual(new Set(['full', 'readonly']));
    expect(await scopes('?scope=affiliated')).toEqual(['affiliated']);
    const bad = await service.call('GET', '/account/tokens?scope=root');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details[0].path).toMatch(/^querystring\.scope/);
  });

  it('deletes a token, after which it is refused', async () => {
    const secret = await service.tokenOf('full');
    const list = (await service.call('GET', '/account/tokens')).json() as { id: string; name: string }[];
    expect((await service.call('GET', '/account/tokens', undefined, secret)).statusCode).toBe(200);
    const id = list.at(-1)!.id;
    expect((await service.call('DELETE', `/account/tokens/${id}`)).statusCode).toBe(204);
    expect((await service.call('DELETE', `/account/tokens/${id}`)).statusCode).toBe(404);
    expect((await service.call('GET', '/account/tokens', undefined, secret)).statusCode).toBe(401);
  });

  it('accepts the token as Bearer, as Token and as HTTP Basic user name', async () => {
    const secret = await service.tokenOf('readonly');
    for (const authorization of [
      `Bearer ${secret}`,
      `Token ${secret}`,
      `Basic ${Buffer.from(`${secret}:`).toString('base64')}`,
      `Basic ${Buffer.from(`${secret}:anything`).toString('base64')}`,
    ]) {
      const response = await service.app.inject({
        method: 'GET',
        url: '/account/tokens',
        headers: { authorization },
      });
      expect(response.statusCode, authorization).toBe(200);
    }
  });

  it('answers 401 without a token or with a wrong one, with the error body', async () => {
    for (const token of [null, 'wb_not-a-real-token']) {
      const response = await service.call('GET', '/account/tokens', undefined, token);
      expect(response.statusCode).toBe(401);
      expect(response.headers['www-authenticate']).toContain('Bearer');
      expect(response.json()).toEqual({
        error: { code: 'unauthorized', message: expect.stringContaining('token'), details: [] },
      });
    }
  });

  it('keeps token management from readonly writes and from affiliated tokens', async () => {
    const readonly = await service.tokenOf('readonly');
    const affiliated = await service.tokenOf('affiliated');
    expect((await service.call('POST', '/account/tokens', { scope: 'full' }, readonly)).statusCode).toBe(403);
    expect((await service.call('GET', '/account/tokens', undefined, affiliated)).statusCode).toBe(403);
    expect((await service.call('POST', '/account/tokens', { scope: 'full' }, affiliated)).statusCode).toBe(
      403,
    );
  });

  it('binds an affiliated token to a device with device_tag; tokens without one show null', async () => {
    await service.call('POST', '/devices', { tag: 'hall' });
    const created = await service.call('POST', '/account/tokens', {
      scope: 'affiliated',
      device_tag: 'hall',
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ scope: 'affiliated', device_tag: 'hall' });
    const listed = (await service.call('GET', '/account/tokens')).json() as {
      id: string;
      device_tag: unknown;
    }[];
    expect(listed.find((token) => token.id === created.json().id)?.device_tag).toBe('hall');
    expect(listed.filter((token) => token.id !== created.json().id).every((t) => t.device_tag === null)).toBe(
      true,
    );
  });

  it('refuses device_tag with another scope, or naming no device, with 400 on body.device_tag', async () => {
    await service.call('POST', '/devices', { tag: 'porch' });
    for (const scope of ['full', 'readonly']) {
      const refused = await service.call('POST', '/account/tokens', { scope, device_tag: 'porch' });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error.details).toEqual([
        { path: 'body.device_tag', message: 'only a token of scope "affiliated" can be bound to a device' },
      ]);
    }
    const unknown = await service.call('POST', '/account/tokens', {
      scope: 'affiliated',
      device_tag: 'nowhere',
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error).toMatchObject({
      message: 'device nowhere does not exist',
      details: [{ path: 'body.device_tag', message: 'must name an existing device' }],
    });
  });

  it("deletes a device's own tokens with it, refused at once though they were in use", async () => {
    await service.call('POST', '/devices', { tag: 'attic' });
    const secret = (
      await service.call('POST', '/account/tokens', { scope: 'affiliated', device_tag: 'attic' })
    ).json().token;
    const unbound = await service.tokenOf('affiliated');
    expect((await service.call('GET', '/devices/attic', undefined, secret)).statusCode).toBe(200);
    expect((await service.call('DELETE', '/devices/attic')).statusCode).toBe(204);
    expect((await service.call('GET', '/devices', undefined, secret)).statusCode).toBe(401);
    expect((await service.call('GET', '/devices', undefined, unbound)).statusCode).toBe(200);
    const listed = (await service.call('GET', '/account/tokens')).json() as { device_tag: unknown }[];
    expect(listed.filter((token) => token.device_tag === 'attic')).toEqual([]);
  });

  it('refuses bad creation bodies with details naming the field', async () => {
    const response = await service.call('POST', '/account/tokens', { scope: 'superuser' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({
      code: 'invalid_request',
      details: [{ path: 'body.scope' }],
    });
  });
});

describe('token create --device', () => {
  it('binds a token of scope affiliated to an existing device, and refuses anything else', async () => {
    expect(() => parseCommand(['token', 'create', '--scope', 'full', '--device', 'lobby'])).toThrow(
      '--device binds a token of scope affiliated only',
    );
    const dataDir = await mkdtemp(join(tmpdir(), 'wallboard-tokens-'));
    try {
      const store = await openStore({ dataDir });
      await new DeviceRepository(store).create({
        tag: 'lobby',
        name: '',
        description: '',
        playlist_id: null,
      });
      await store.close();
      const args = ['token', 'create', '--scope', 'affiliated', '--data', dataDir, '--device'];
      const unknown = await runServiceCommand([...args, 'nowhere']);
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain('device nowhere does not exist');
      const created = await runServiceCommand([...args, 'lobby']);
      expect(created.code).toBe(0);
      const db = await openStore({ dataDir });
      const rows = await db.kysely.selectFrom('tokens').select(['scope', 'device_tag']).execute();
      await db.close();
      expect(rows).toEqual([{ scope: 'affiliated', device_tag: 'lobby' }]);
      expect(created.stdout).toMatch(/^wb_\S+\n$/);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('errors common to every route', () => {
  it('answers 400 to malformed JSON', async () => {
    const response = await service.app.inject({
      method: 'POST',
      url: '/account/tokens',
      headers: { authorization: 'Bearer test-admin-secret-0123456789', 'content-type': 'application/json' },
      payload: '{"scope": ',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('invalid_json');
  });

  it('answers 415 to a body that is not JSON', async () => {
    const response = await service.app.inject({
      method: 'POST',
      url: '/account/tokens',
      headers: { authorization: 'Bearer test-admin-secret-0123456789', 'content-type': 'text/plain' },
      payload: 'scope=full',
    });
    expect(response.statusCode).toBe(415);
    expect(response.json().error.code).toBe('unsupported_media_type');
  });

  it('answers 413 to a body over the limit', async () => {
    const response = await service.call('POST', '/account/tokens', {
      scope: 'full',
      name: 'x'.repeat(1024 * 1024),
    });
    expect(response.statusCode).toBe(413);
    expect(response.json().error.code).toBe('payload_too_large');
  });

  it('answers 404 with the error body to an unknown route', async () => {
    const response = await service.call('GET', '/nothing-here');
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe('not_found');
  });

  it('serves health without a token, and the OpenAPI description', async () => {
    expect((await service.call('GET', '/health', undefined, null)).json()).toMatchObject({
      status: 'ok',
      database: service.db.kind,
      leading: true,
      checks: { store: 'ok' },
    });
    const openapi = (await service.call('GET', '/openapi.json', undefined, null)).json();
    expect(openapi.openapi).toMatch(/^3\./);
    expect(Object.keys(openapi.paths)).toEqual(
      expect.arrayContaining(['/account/tokens', '/account/tokens/{id}']),
    );
    expect((await service.call('GET', '/docs', undefined, null)).statusCode).toBeLessThan(400);
  });
});

describe('the token cache', () => {
  /** Tokens `a`, `b` and `c` (their secrets are their names), and the lookups asked of the store. */
  function fixture(limits: ConstructorParameters<typeof TokenAuthenticator>[2] = {}) {
    const stored = new Map(
      ['a', 'b', 'c'].map((name): [string, StoredToken] => [
        hashSecret(name),
        {
          id: `tok_${name}`,
          scope: 'readonly',
          name,
          secret_hash: hashSecret(name),
          created_at: new Date(0).toISOString(),
          last_used_at: null,
          device_tag: null,
          account_id: 'default',
        },
      ]),
    );
    const lookups: string[] = [];
    let pending: Promise<void> = Promise.resolve();
    const repository = {
      async findByHash(hash: string) {
        lookups.push(hash);
        await pending;
        return stored.get(hash) ?? null;
      },
      async touch() {},
    } as unknown as TokenRepository;
    // lru-cache takes a start at 0 for none.
    let now = 1_000_000;
    const auth = new TokenAuthenticator(
      repository,
      () => new Date(0),
      limits,
      () => now,
    );
    return {
      auth,
      lookups,
      advance: (ms: number) => (now += ms),
      hold: (until: Promise<void>) => (pending = until),
    };
  }

  it('holds at most its size, least recently used out first', async () => {
    const { auth, lookups } = fixture({ cacheSize: 2 });
    for (const secret of ['a', 'b', 'a', 'c']) expect(await auth.authenticate(secret)).not.toBeNull();
    expect(lookups).toHaveLength(3);
    await auth.authenticate('a');
    expect(lookups).toHaveLength(3);
    await auth.authenticate('b');
    expect(lookups).toHaveLength(4);
  });

  it('asks the store again once an entry expires', async () => {
    const { auth, lookups, advance } = fixture({ cacheTtlMs: 1000 });
    await auth.authenticate('a');
    advance(999);
    await auth.authenticate('a');
    expect(lookups).toHaveLength(1);
    advance(2);
    await auth.authenticate('a');
    expect(lookups).toHaveLength(2);
  });

  it('refuses a deleted token even when its lookup began before the deletion', async () => {
    const { auth, hold } = fixture();
    let release!: () => void;
    hold(new Promise((resolve) => (release = resolve)));
    const heard: string[] = [];
    auth.onRevoked((id) => heard.push(id));
    const racing = auth.authenticate('a');
    auth.forget('tok_a');
    release();
    expect(await racing).toBeNull();
    expect(await auth.authenticate('a')).toBeNull();
    expect(heard).toEqual(['tok_a']);
  });

  it('counts unknown secrets per address, and refuses the address without asking the store', async () => {
    const { auth, lookups, advance } = fixture({ failures: { burst: 3, perSecond: 1 } });
    for (let i = 0; i < 3; i++) expect(await auth.authenticate(`guess-${i}`, '198.51.100.1')).toBeNull();
    await expect(auth.authenticate('guess-3', '198.51.100.1')).rejects.toMatchObject({
      retryAfterSeconds: 1,
    });
    await expect(auth.authenticate('b', '198.51.100.1')).rejects.toThrow(/unknown tokens/);
    expect(lookups).toHaveLength(3);
    expect(await auth.authenticate('b', '198.51.100.2')).not.toBeNull();
    // A token already known passes from the refused address; and after a second, a new guess may come.
    expect(await auth.authenticate('b', '198.51.100.1')).not.toBeNull();
    advance(1000);
    expect(await auth.authenticate('c', '198.51.100.1')).not.toBeNull();
  });
});
