import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../src/shared/audit';
import { sampleHeartbeat } from '../../src/shared/testing/device-fixtures';
import { createUser } from '../actions/users';
import { parseCommand } from '../cli-options';
import { pruneStore } from '../jobs/retention';
import { startTestService, type TestService } from '../test-support';
import { FakeClock } from '../testing/fake-clock';
import { withActor } from './actor';
import { recordAudit } from './record';

// The audit trail through the real service, on the store the run uses (SQLite, or PostgreSQL
// under `npm run test:postgres`).
let service: TestService;
const PASSWORD = 'correct horse battery';
const CSRF = { 'x-wallboard-csrf': '1' };

beforeAll(async () => {
  service = await startTestService();
  await createUser(service.db, { login: 'ada', password: PASSWORD, role: 'admin' });
});
afterAll(() => service.close());

function request(
  method: InjectOptions['method'],
  url: string,
  options: { body?: unknown; cookie?: string; token?: string | null; from?: string } = {},
): Promise<LightMyRequestResponse> {
  const token = options.token === undefined ? 'test-admin-secret-0123456789' : options.token;
  return service.app.inject({
    method,
    url,
    remoteAddress: options.from ?? '192.0.2.10',
    headers: {
      ...(options.cookie ? { cookie: options.cookie, ...CSRF } : {}),
      ...(token && !options.cookie ? { authorization: `Bearer ${token}` } : {}),
    },
    ...(options.body === undefined ? {} : { payload: options.body as InjectOptions['payload'] }),
  });
}

async function entries(query = ''): Promise<AuditEntry[]> {
  const response = await service.call('GET', `/audit${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

const countAll = async () =>
  Number(
    (
      await service.db.kysely
        .selectFrom('audit_log')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

async function signIn(login: string, password: string): Promise<LightMyRequestResponse> {
  return request('POST', '/session', { body: { login, password }, token: null, from: '198.51.100.7' });
}

describe('the audit trail', () => {
  it('records a change through the API: who, from where, what, before and after', async () => {
    const made = await request('POST', '/boards', { body: { name: 'Lobby' } });
    expect(made.statusCode, made.body).toBe(201);
    const { id } = made.json();
    expect((await request('PATCH', `/boards/${id}`, { body: { name: 'Front lobby' } })).statusCode).toBe(200);
    expect((await request('DELETE', `/boards/${id}`)).statusCode).toBe(204);

    const found = await entries(`?resource=boards&resource_id=${id}`);
    expect(found.map((entry) => entry.action)).toEqual(['delete', 'update', 'create']);
    const [deleted, updated, created] = found;
    expect(updated?.actor).toMatchObject({ kind: 'token', name: 'test admin', address: '192.0.2.10' });
    expect(created?.before).toBeNull();
    expect(created?.after).toMatchObject({ id, name: 'Lobby' });
    expect(created?.after).not.toHaveProperty('account_id');
    expect(updated?.before).toMatchObject({ name: 'Lobby' });
    expect(updated?.after).toMatchObject({ name: 'Front lobby' });
    // JSON columns are JSON in the entry, not text, on both stores.
    expect(typeof updated?.after?.settings).toBe('object');
    expect(deleted?.after).toBeNull();
    expect(deleted?.before).toMatchObject({ name: 'Front lobby' });
  });

  it('records nothing of a write rolled back', async () => {
    const made = await request('POST', '/boards', { body: { name: 'Kept' } });
    const { id } = made.json();
    const before = await countAll();
    const actor = { kind: 'user' as const, id: 'u1', name: 'tester', address: null };
    // The rename writes its entry, then the second board's id is taken: the transaction fails.
    await expect(
      withActor(actor, () =>
        service.db.transaction(async (tx) => {
          await tx.kysely.updateTable('boards').set({ name: 'Renamed' }).where('id', '=', id).execute();
          await tx.kysely.insertInto('boards').values({ id, name: 'Twin', settings: '{}' }).execute();
        }),
      ),
    ).rejects.toThrow();
    expect(await countAll()).toBe(before);
    // The same rename committed is recorded, as that actor: the trigger did fire above.
    await withActor(actor, () =>
      service.db.transaction((tx) =>
        tx.kysely.updateTable('boards').set({ name: 'Renamed' }).where('id', '=', id).execute(),
      ),
    );
    const [entry] = await entries(`?resource_id=${id}&action=update`);
    expect(entry?.actor).toEqual({ kind: 'user', id: 'u1', name: 'tester', address: null });
  });

  it('records each write of a group commit as its own actor', async () => {
    const made = await request('POST', '/boards', { body: { name: 'Shared' } });
    const { id } = made.json();
    const rename = (who: string) =>
      withActor({ kind: 'user', id: who, name: who, address: null }, () =>
        service.db.transaction((tx) =>
          tx.kysely
            .updateTable('boards')
            .set({ name: `by ${who}` })
            .where('id', '=', id)
            .execute(),
        ),
      );
    await Promise.all([rename('first'), rename('second'), rename('third')]);
    const found = await entries(`?resource_id=${id}&action=update`);
    expect(found.map((entry) => [entry.actor.name, entry.after?.name]).sort()).toEqual([
      ['first', 'by first'],
      ['second', 'by second'],
      ['third', 'by third'],
    ]);
  });

  it('masks secrets, and says when one changed', async () => {
    const made = await request('POST', '/users', {
      body: { login: 'bea', password: PASSWORD, role: 'viewer' },
    });
    expect(made.statusCode, made.body).toBe(201);
    const { id } = made.json();
    const patched = await request('PATCH', `/users/${id}`, {
      body: { role: 'admin', password: `${PASSWORD}!` },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    const [updated, created] = await entries(`?resource=users&resource_id=${id}`);
    expect(created?.after).toMatchObject({ login: 'bea', role: 'viewer', password_hash: '***' });
    expect(updated?.before).toMatchObject({ role: 'viewer', password_hash: '***' });
    expect(updated?.after).toMatchObject({ role: 'admin', password_hash: '*** (changed)' });

    const source = await request('POST', '/data-sources', {
      body: {
        name: 'Rooms',
        kind: 'json',
        url: 'https://rooms.example/free.json',
        auth: 'bearer',
        secret: 's3cret-key',
      },
    });
    expect(source.statusCode, source.body).toBe(201);
    const [sourceEntry] = await entries(`?resource=data_sources&resource_id=${source.json().id}`);
    expect(sourceEntry?.after).toMatchObject({ name: 'Rooms', secret: '***' });
    const script = await request('POST', '/scripts', {
      body: { name: 'Rooms feed', code: 'return 1', interval: '1h', enabled: false },
    });
    expect(script.statusCode, script.body).toBe(201);
    const secretPath = `/scripts/${script.json().id}/secrets/API_KEY`;
    for (const value of ['first-key-value', 'second-key-value']) {
      expect((await request('PUT', secretPath, { body: { value } })).statusCode).toBeLessThan(300);
    }
    const [secretUpdated, secretCreated] = await entries('?resource=script_secrets');
    expect(secretCreated?.after).toMatchObject({ name: 'API_KEY', value: '***' });
    expect(secretUpdated?.after).toMatchObject({ value: '*** (changed)' });
    const all = JSON.stringify(await entries('?limit=10000'));
    expect(all).not.toContain('key-value');
    expect(all).not.toContain('s3cret-key');
    expect(all).not.toContain('scrypt$');
  });

  it('records token creation and deletion, with the hash masked', async () => {
    const made = await request('POST', '/account/tokens', { body: { scope: 'readonly', name: 'kiosk' } });
    expect(made.statusCode, made.body).toBe(201);
    const { id, token } = made.json();
    expect((await request('DELETE', `/account/tokens/${id}`)).statusCode).toBe(204);
    const [deleted, created] = await entries(`?resource=tokens&resource_id=${id}`);
    expect(created).toMatchObject({
      action: 'create',
      after: { name: 'kiosk', scope: 'readonly', secret_hash: '***' },
    });
    expect(deleted).toMatchObject({ action: 'delete', before: { name: 'kiosk' }, after: null });
    expect(JSON.stringify([created, deleted])).not.toContain(token);
  });

  it('records an emergency override raised and cleared', async () => {
    const raised = await request('POST', '/overrides', {
      body: { title: 'Evacuate', message: 'Leave by the stairs', target: { all: true } },
    });
    expect(raised.statusCode, raised.body).toBe(201);
    const { id } = raised.json();
    expect((await request('DELETE', `/overrides/${id}`)).statusCode).toBeLessThan(300);
    const found = await entries(`?resource=overrides&resource_id=${id}`);
    expect(found.map((entry) => entry.action)).toEqual(['update', 'create']);
    expect(found[1]?.after).toMatchObject({ title: 'Evacuate', cleared_at: null });
    expect(found[0]?.after?.cleared_at).not.toBeNull();
  });

  it('records nothing of the data screens and clients feed', async () => {
    expect((await request('POST', '/flows', { body: { tag: 'fed', variant: 'text' } })).statusCode).toBe(201);
    const device = await request('POST', '/devices', { body: { tag: 'lobby-screen' } });
    expect(device.statusCode, device.body).toBe(201);
    const before = await countAll();
    for (let i = 0; i < 3; i += 1) {
      expect((await request('PUT', '/flows/fed/metrics', { body: { text: `${i}` } })).statusCode).toBe(200);
      expect(
        (await request('POST', '/metrics', { body: { data: { fed: { text: `b${i}` } } } })).statusCode,
      ).toBe(200);
      const beat = await request('POST', '/devices/lobby-screen/heartbeat', {
        body: sampleHeartbeat('board'),
      });
      expect(beat.statusCode, beat.body).toBe(200);
    }
    expect(await countAll()).toBe(before);
  });

  it('records notifications written together, each as who sent it', async () => {
    const other = await service.tokenOf('full');
    const sent = await Promise.all(
      [null, other, null, other].map((token, n) =>
        request('POST', '/notifications', {
          body: { title: `n${n}`, message: 'm', target: { all: true } },
          ...(token ? { token } : {}),
        }),
      ),
    );
    expect(sent.map((response) => response.statusCode)).toEqual([201, 201, 201, 201]);
    const found = await entries('?resource=notifications&action=create');
    const byTitle = new Map(found.map((entry) => [entry.after?.title, entry.actor.name]));
    expect([0, 1, 2, 3].map((n) => byTitle.get(`n${n}`))).toEqual([
      'test admin',
      'full test token',
      'test admin',
      'full test token',
    ]);
  });

  it('records sign-ins, failed sign-ins and sign-outs', async () => {
    expect((await signIn('ada', 'wrong password')).statusCode).toBe(401);
    expect((await signIn('nobody-here', 'wrong password')).statusCode).toBe(401);
    const signedIn = await signIn('ada', PASSWORD);
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    const cookie = String(signedIn.headers['set-cookie']).split(';')[0] as string;
    expect((await request('DELETE', '/session', { cookie, from: '198.51.100.7' })).statusCode).toBe(204);

    const found = await entries('?resource=session');
    expect(found.slice(0, 4).map((entry) => [entry.action, entry.actor.name])).toEqual([
      ['sign-out', 'ada'],
      ['sign-in', 'ada'],
      ['sign-in-failed', 'nobody-here'],
      ['sign-in-failed', 'ada'],
    ]);
    expect(found[1]).toMatchObject({
      actor: { kind: 'user', address: '198.51.100.7' },
      after: { method: 'password' },
    });
    expect(found[3]?.actor.id).toBe(found[1]?.actor.id);
  });

  it('records changes made in a session as the person signed in', async () => {
    const signedIn = await signIn('ada', PASSWORD);
    const cookie = String(signedIn.headers['set-cookie']).split(';')[0] as string;
    const made = await request('POST', '/playlists', { body: { name: 'Mornings' }, cookie });
    expect(made.statusCode, made.body).toBe(201);
    const [entry] = await entries(`?resource=playlists&resource_id=${made.json().id}`);
    expect(entry?.actor).toMatchObject({ kind: 'user', name: 'ada', address: '192.0.2.10' });
    // Found by the login, in any case, and by the user's id.
    expect((await entries('?actor=ADA&resource=playlists')).map((each) => each.id)).toContain(entry?.id);
    expect((await entries(`?actor=${entry?.actor.id}&resource=playlists`)).map((each) => each.id)).toContain(
      entry?.id,
    );
  });

  it('filters by time and pages back by id', async () => {
    const all = await entries('?limit=10000');
    expect(all.length).toBeGreaterThan(5);
    const ids = all.map((entry) => entry.id);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    const first = await entries('?limit=3');
    const next = await entries(`?limit=3&before=${first.at(-1)?.id}`);
    expect([...first, ...next].map((entry) => entry.id)).toEqual(ids.slice(0, 6));
    expect(await entries('?until=2000-01-01T00:00:00Z')).toEqual([]);
    expect((await entries('?since=2000-01-01T00:00:00Z&limit=10000')).length).toBe(all.length);
    const refused = await service.call('GET', '/audit?since=2026-01-02T00:00:00Z&until=2026-01-01T00:00:00Z');
    expect(refused.statusCode).toBe(400);
  });

  it('exports CSV, Excel-safe', async () => {
    await recordAudit(service.db, {
      actor: { kind: 'user', id: 'x', name: '=HYPERLINK("http://evil.example")', address: null },
      resource: 'session',
      resourceId: null,
      action: 'sign-in-failed',
      at: new Date(),
    });
    for (const url of ['/audit.csv?resource=session', '/audit?resource=session&format=csv']) {
      const response = await service.call('GET', url);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toContain('text/csv');
      const lines = response.body.replace(/^\uFEFF/, '').split('\r\n');
      expect(lines[0]).toBe(
        'id,at,actor_kind,actor_id,actor_name,address,resource,resource_id,action,before,after',
      );
      expect(response.body).toContain(`"'=HYPERLINK(""http://evil.example"")"`);
    }
    const json = await service.call('GET', '/audit?resource=session&format=json');
    expect(json.headers['content-disposition']).toMatch(
      /^attachment; filename="audit-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    expect(json.json<AuditEntry[]>().every((entry) => entry.resource === 'session')).toBe(true);
    expect(
      (await service.call('GET', '/audit?resource=session')).headers['content-disposition'],
    ).toBeUndefined();
  });

  it('is read by admins and full tokens only', async () => {
    const readonly = await service.tokenOf('readonly');
    expect((await request('GET', '/audit', { token: readonly })).statusCode).toBe(403);
    await createUser(service.db, { login: 'vic', password: PASSWORD, role: 'viewer' });
    const cookie = String((await signIn('vic', PASSWORD)).headers['set-cookie']).split(';')[0] as string;
    expect((await request('GET', '/audit', { cookie })).statusCode).toBe(403);
  });

  it('keeps the days --audit-retention-days says, a year by default', () => {
    const set = parseCommand(['--audit-retention-days', '90']);
    expect(set.kind === 'serve' && set.config.auditRetentionDays).toBe(90);
    const defaults = parseCommand([]);
    expect(defaults.kind === 'serve' && defaults.config.auditRetentionDays).toBe(365);
    expect(() => parseCommand(['--audit-retention-days', '0'])).toThrow(/audit-retention-days/);
  });

  it('prunes entries older than the days kept', async () => {
    const { config } = service.app.wallboard;
    const total = await countAll();
    expect(config.auditRetentionDays).toBe(365);
    await pruneStore(service.app.wallboard);
    expect(await countAll()).toBe(total);
    const later = new FakeClock(new Date(Date.now() + 366 * 86_400_000));
    await pruneStore({ ...service.app.wallboard, clock: later });
    expect(await countAll()).toBe(0);
  });
});
