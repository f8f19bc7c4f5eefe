import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Override, OverrideShown } from '../src/shared/override';
import { eventsAfter, lastEventId, startTestService, type TestService } from './test-support';
import { FakeClock } from './testing/fake-clock';
import { okCalls } from './testing/ok-calls';

/** Emergency overrides through the API: who they reach, when they end, and their audit list. */

const clock = new FakeClock('2026-11-27T09:00:00.000Z');
let service: TestService;
let lobby: string;
let floor: string;

const ok = okCalls(() => service);

const shownOn = async (tag: string) =>
  (await ok<{ override: OverrideShown | null }>('GET', `/devices/${tag}/settings`)).override;

/** The screens told to fetch their state again since `mark`, by tag. */
const told = async (mark: number) =>
  (await eventsAfter(service.db, mark, 'device.changed')).map((event) => event.payload.device_tag).sort();

const fire = { title: 'Fire alarm', message: 'Leave the building by the nearest exit.' };

beforeAll(async () => {
  service = await startTestService({ clock });
  lobby = (await ok<{ id: string }>('POST', '/groups', { name: 'Lobby' }, 201)).id;
  floor = (await ok<{ id: string }>('POST', '/groups', { name: 'Floor' }, 201)).id;
  for (const tag of ['lobby-1', 'lobby-2']) await ok('POST', '/devices', { tag, group_id: lobby }, 201);
  await ok('POST', '/devices', { tag: 'floor-1', group_id: floor }, 201);
  await ok('POST', '/devices', { tag: 'alone' }, 201);
});
afterAll(() => service.close());

describe('emergency overrides', () => {
  it('reach a group: its screens are told, find it in their settings, and the others do not', async () => {
    const mark = await lastEventId(service.db);
    const raised = await ok<Override>('POST', '/overrides', { ...fire, target: { group_id: lobby } }, 201);
    expect(raised).toMatchObject({
      ...fire,
      target: { group_id: lobby },
      image_url: null,
      background_color: null,
      expires_at: null,
      created_by: 'token "test admin"',
      cleared_at: null,
      active: true,
    });
    expect(await told(mark)).toEqual(['lobby-1', 'lobby-2']);
    expect(await shownOn('lobby-1')).toMatchObject({ id: raised.id, ...fire });
    expect(await shownOn('floor-1')).toBeNull();
    expect(await shownOn('alone')).toBeNull();

    const cleared = await lastEventId(service.db);
    const response = await service.call('DELETE', `/overrides/${raised.id}`);
    expect(response.statusCode).toBe(204);
    expect(await told(cleared)).toEqual(['lobby-1', 'lobby-2']);
    expect(await shownOn('lobby-2')).toBeNull();
    expect(await ok<Override[]>('GET', '/overrides')).toEqual([]);
  });

  it('reach every screen, or one by tag; the newest that reaches a screen is the one it shows', async () => {
    const mark = await lastEventId(service.db);
    const all = await ok<Override>('POST', '/overrides', { ...fire, target: { all: true } }, 201);
    expect(await told(mark)).toEqual(['alone', 'floor-1', 'lobby-1', 'lobby-2']);
    const one = await ok<Override>(
      'POST',
      '/overrides',
      {
        title: 'Flood',
        message: 'Go upstairs.',
        background_color: '#003399',
        target: { device_tag: 'alone' },
      },
      201,
    );
    expect((await shownOn('alone'))?.id).toBe(one.id);
    expect((await shownOn('floor-1'))?.id).toBe(all.id);
    expect((await ok<Override[]>('GET', '/overrides')).map((override) => override.id)).toEqual([
      one.id,
      all.id,
    ]);

    await ok('DELETE', `/overrides/${one.id}`, undefined, 204);
    expect((await shownOn('alone'))?.id).toBe(all.id);
    await ok('DELETE', `/overrides/${all.id}`, undefined, 204);
    expect(await shownOn('alone')).toBeNull();
  });

  it('end by themselves at their expiry, without a write, and stay in the history', async () => {
    const expires = new Date(clock.now().getTime() + 60_000).toISOString();
    const raised = await ok<Override>(
      'POST',
      '/overrides',
      { ...fire, target: { device_tag: 'floor-1' }, expires_at: expires },
      201,
    );
    await clock.advance(59_999);
    expect((await shownOn('floor-1'))?.expires_at).toBe(expires);
    await clock.advance(1);
    expect(await shownOn('floor-1')).toBeNull();
    expect(await ok<Override[]>('GET', '/overrides')).toEqual([]);
    const history = await ok<Override[]>('GET', '/overrides/history');
    expect(history.find((override) => override.id === raised.id)).toMatchObject({
      active: false,
      cleared_at: null,
    });
  });

  it('keep the audit: who cleared one, when; clearing again changes nothing; an unknown one is 404', async () => {
    const raised = await ok<Override>('POST', '/overrides', { ...fire, target: { all: true } }, 201);
    await clock.advance(5_000);
    const operator = await service.tokenOf('full');
    expect((await service.call('DELETE', `/overrides/${raised.id}`, undefined, operator)).statusCode).toBe(
      204,
    );
    await clock.advance(5_000);
    const mark = await lastEventId(service.db);
    expect((await service.call('DELETE', `/overrides/${raised.id}`)).statusCode).toBe(204);
    expect(await told(mark)).toEqual([]);
    expect(await ok<Override>('GET', `/overrides/${raised.id}`)).toMatchObject({
      cleared_by: 'token "full test token"',
      cleared_at: new Date(Date.parse(raised.created_at) + 5_000).toISOString(),
      active: false,
    });
    const missing = await service.call('DELETE', '/overrides/ovr_none');
    expect(missing.statusCode).toBe(404);
  });

  it('refuse a bad target, a past expiry or a missing message, naming the field, and store nothing', async () => {
    const before = (await ok<Override[]>('GET', '/overrides/history')).length;
    const mark = await lastEventId(service.db);
    const cases: [unknown, string][] = [
      [{ ...fire, target: {} }, 'body.target'],
      [{ ...fire, target: { all: true, group_id: lobby } }, 'body.target'],
      [{ ...fire, target: { group_id: 'grp_none' } }, 'body.target.group_id'],
      [{ ...fire, target: { device_tag: 'nobody' } }, 'body.target.device_tag'],
      [{ ...fire, target: { all: true }, expires_at: '2026-11-27T08:00:00Z' }, 'body.expires_at'],
      [{ title: 'Fire', target: { all: true } }, 'body.message'],
      [{ ...fire, target: { all: true }, background_color: 'url(x)' }, 'body.background_color'],
      [{ ...fire, target: { all: true }, image_url: 'file:///etc/passwd' }, 'body.image_url'],
    ];
    for (const [body, path] of cases) {
      const response = await service.call('POST', '/overrides', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(response.json()), JSON.stringify(body)).toContain(path);
    }
    expect(await ok<Override[]>('GET', '/overrides/history')).toHaveLength(before);
    expect(await told(mark)).toEqual([]);
  });

  it('are raised and cleared by a full token or an admin only; a screen sees those that reach it', async () => {
    const readonly = await service.tokenOf('readonly');
    const refused = await service.call('POST', '/overrides', { ...fire, target: { all: true } }, readonly);
    expect(refused.statusCode).toBe(403);
    const raised = await ok<Override>('POST', '/overrides', { ...fire, target: { group_id: floor } }, 201);
    expect((await service.call('DELETE', `/overrides/${raised.id}`, undefined, readonly)).statusCode).toBe(
      403,
    );

    const screenToken = async (tag: string) =>
      (
        await ok<{ token: string }>(
          'POST',
          '/account/tokens',
          { scope: 'affiliated', name: `${tag} screen`, device_tag: tag },
          201,
        )
      ).token;
    const onFloor = await service.call('GET', '/overrides', undefined, await screenToken('floor-1'));
    expect(onFloor.json<Override[]>().map((override) => override.id)).toEqual([raised.id]);
    const elsewhere = await screenToken('lobby-1');
    expect((await service.call('GET', '/overrides', undefined, elsewhere)).json()).toEqual([]);
    expect((await service.call('GET', `/overrides/${raised.id}`, undefined, elsewhere)).statusCode).toBe(404);
    await ok('DELETE', `/overrides/${raised.id}`, undefined, 204);
  });

  it("are an account's own: another account neither sees nor clears them, and its screens show none", async () => {
    const raised = await ok<Override>('POST', '/overrides', { ...fire, target: { all: true } }, 201);
    const other = await service.addAccount('Other');
    expect((await other.call('POST', '/devices', { tag: 'other-1' })).statusCode).toBe(201);
    expect((await other.call('GET', '/devices/other-1/settings')).json()).toMatchObject({ override: null });
    expect((await other.call('GET', '/overrides')).json()).toEqual([]);
    expect((await other.call('DELETE', `/overrides/${raised.id}`)).statusCode).toBe(404);
    expect((await shownOn('lobby-1'))?.id).toBe(raised.id);
    await ok('DELETE', `/overrides/${raised.id}`, undefined, 204);
  });
});
