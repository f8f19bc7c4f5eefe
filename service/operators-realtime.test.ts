import { io as connect } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { heartbeatSchema } from '../src/shared/device';
import type { OperatorNotice } from '../src/shared/notices';
import { sampleHeartbeat } from '../src/shared/testing/device-fixtures';
import { createUser } from './actions/users';
import { SESSION_EXPIRED_MESSAGE } from './http/auth-hook';
import { SOCKET_GRACE_MS } from './realtime/presence';
import { ADMIN_SECRET, startTestService, type TestService } from './test-support';
import { FakeClock } from './testing/fake-clock';
import { clientsOf, connectError, hello, listen, type Client } from './testing/realtime-clients';

const PASSWORD = 'correct horse battery';
const heartbeat = heartbeatSchema.parse(sampleHeartbeat('waiting'));
const CSRF = { 'x-wallboard-csrf': '1' };

const clock = new FakeClock('2026-11-21T09:00:00.000Z');
let service: TestService;
let url: string;
const clients = clientsOf(() => url);
const opened: Client[] = [];

beforeAll(async () => {
  service = await startTestService({ clock });
  url = await listen(service);
  await createUser(service.db, { login: 'ada', password: PASSWORD, role: 'admin' });
  await createUser(service.db, { login: 'val', password: PASSWORD, role: 'viewer' });
});
afterEach(() => {
  clients.closeAll();
  for (const client of opened.splice(0)) client.disconnect();
});
afterAll(() => service.close());

async function signIn(login: string, password = PASSWORD): Promise<string> {
  const response = await service.app.inject({
    method: 'POST',
    url: '/session',
    payload: { login, password },
  });
  expect(response.statusCode).toBe(200);
  return `wb_session=${response.cookies.find((c) => c.name === 'wb_session')?.value}`;
}

/** A console's socket: the session cookie in the handshake's headers, as a browser sends it. */
function consoleSocket(cookie: string, headers: Record<string, string> = {}): Client {
  const client: Client = connect(url, {
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    extraHeaders: { cookie, ...headers },
  });
  opened.push(client);
  return client;
}

/** Collects the notices a socket hears. */
function noticesOf(client: Client): OperatorNotice[] {
  const heard: OperatorNotice[] = [];
  client.on('notice', (notice) => heard.push(notice));
  return heard;
}

const disconnected = (client: Client) => new Promise<string>((resolve) => client.once('disconnect', resolve));

describe('realtime for operators', () => {
  it('lets a signed-in admin watch: logged events and unlogged changes both reach it as notices', async () => {
    const client = consoleSocket(await signIn('ada'));
    expect(await client.emitWithAck('watch')).toEqual({ ok: true });
    const heard = noticesOf(client);
    expect((await service.call('POST', '/devices', { tag: 'hall' })).statusCode).toBe(201);
    expect((await service.call('PATCH', '/devices/hall', { name: 'Hall' })).statusCode).toBe(200);
    const token = await service.call('POST', '/account/tokens', { scope: 'readonly', name: 'n' });
    await vi.waitFor(() =>
      expect(heard).toEqual([
        { resource: 'devices', id: 'hall' },
        { resource: 'devices', id: 'hall' },
        { resource: 'tokens', id: token.json().id },
      ]),
    );
  });

  it('lets a viewer watch too (reading only), and a full token as today', async () => {
    const viewer = consoleSocket(await signIn('val'));
    const machine = clients.open(ADMIN_SECRET);
    expect(await viewer.emitWithAck('watch')).toEqual({ ok: true });
    expect(await machine.emitWithAck('watch')).toEqual({ ok: true });
    const [fromViewer, fromMachine] = [noticesOf(viewer), noticesOf(machine)];
    await service.call('POST', '/playlists', { name: 'Loop', items: [] });
    await service.call('POST', '/channels', { name: 'News', tag: 'news', type: 'default' });
    const created = (await service.call('POST', '/devices', { tag: 'viewed' })).statusCode;
    expect(created).toBe(201);
    await vi.waitFor(() => expect(fromViewer).toContainEqual({ resource: 'devices', id: 'viewed' }));
    await vi.waitFor(() => expect(fromMachine).toContainEqual({ resource: 'devices', id: 'viewed' }));
  });

  it('never tells a device: a socket is a device (hello) or a console (watch), not both', async () => {
    const device = clients.open();
    expect((await service.call('POST', '/devices', { tag: 'screen' })).statusCode).toBe(201);
    expect((await hello(device, null, 'screen')).error).toBeUndefined();
    const heardByDevice = noticesOf(device);
    const refused = await device.emitWithAck('watch');
    expect(refused).toMatchObject({ ok: false, error: expect.stringContaining('said hello as a device') });

    const console = consoleSocket(await signIn('ada'));
    expect(await console.emitWithAck('watch')).toEqual({ ok: true });
    expect((await hello(console, null, 'screen')).error).toMatch(/hello is for devices/);
    const heard = noticesOf(console);
    await service.call('PATCH', '/devices/screen', { name: 'Screen' });
    await vi.waitFor(() => expect(heard).toContainEqual({ resource: 'devices', id: 'screen' }));
    expect(heardByDevice).toEqual([]);
  });

  it('refuses a socket without a live session or token, and one whose cookie comes from another site', async () => {
    expect((await connectError(consoleSocket('wb_session=wb_unknown'))).message).toBe(
      SESSION_EXPIRED_MESSAGE,
    );
    expect((await connectError(clients.open(null))).message).toContain('a valid token is required');
    const foreign = consoleSocket(await signIn('ada'), { origin: 'https://evil.example' });
    expect((await connectError(foreign)).message).toMatch(
      /must come from this origin, not https:\/\/evil\.example/,
    );
  });

  it('refuses a watch from a token bound to one device', async () => {
    expect((await service.call('POST', '/devices', { tag: 'bound' })).statusCode).toBe(201);
    const created = await service.call('POST', '/account/tokens', {
      scope: 'affiliated',
      name: 'bound',
      device_tag: 'bound',
    });
    const client = clients.open(created.json().token);
    expect(await client.emitWithAck('watch')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/bound to device bound/),
    });
  });

  it("cuts a session's sockets at sign-out, and a user's at its deletion or a new password", async () => {
    const cookie = await signIn('ada');
    const client = consoleSocket(cookie);
    expect(await client.emitWithAck('watch')).toEqual({ ok: true });
    const gone = disconnected(client);
    const out = await service.app.inject({ method: 'DELETE', url: '/session', headers: { cookie, ...CSRF } });
    expect(out.statusCode).toBe(204);
    expect(await gone).toBe('io server disconnect');
    expect((await connectError(consoleSocket(cookie))).message).toBe(SESSION_EXPIRED_MESSAGE);

    await createUser(service.db, { login: 'temp', password: PASSWORD, role: 'viewer' });
    const users = (await service.call('GET', '/users')).json() as { id: string; login: string }[];
    const temp = users.find((user) => user.login === 'temp')?.id;
    const first = consoleSocket(await signIn('temp'));
    expect(await first.emitWithAck('watch')).toEqual({ ok: true });
    const firstGone = disconnected(first);
    const patched = await service.call('PATCH', `/users/${temp}`, { password: 'another good password' });
    expect(patched.statusCode).toBe(200);
    expect(await firstGone).toBe('io server disconnect');

    const second = consoleSocket(await signIn('temp', 'another good password'));
    expect(await second.emitWithAck('watch')).toEqual({ ok: true });
    const secondGone = disconnected(second);
    expect((await service.call('DELETE', `/users/${temp}`)).statusCode).toBe(204);
    expect(await secondGone).toBe('io server disconnect');
  });

  it('answers a flood of watches without asking the store', async () => {
    const client = consoleSocket(await signIn('ada'));
    const answers = await Promise.all(Array.from({ length: 6 }, () => client.emitWithAck('watch')));
    expect(answers.filter((answer) => answer.ok)).toHaveLength(5);
    expect(answers).toContainEqual({ ok: false, error: expect.stringMatching(/^too many watches/) });
  });

  it('cuts the sockets of a session once it has expired, and refuses it after', async () => {
    const cookie = await signIn('val');
    const client = consoleSocket(cookie);
    expect(await client.emitWithAck('watch')).toEqual({ ok: true });
    const gone = disconnected(client);
    // Idle past its 12 hours: the sessions' pruning ends it.
    await clock.jump(13 * 60 * 60_000);
    expect(await gone).toBe('io server disconnect');
    expect((await connectError(consoleSocket(cookie))).message).toBe(SESSION_EXPIRED_MESSAGE);
  });

  it('tells watching consoles of a device gone offline within a second of the service knowing', async () => {
    const cutChanged = { resource: 'devices', id: 'cut' };
    const console = consoleSocket(await signIn('ada'));
    expect(await console.emitWithAck('watch')).toEqual({ ok: true });
    const heard = noticesOf(console);
    expect((await service.call('POST', '/devices', { tag: 'cut' })).statusCode).toBe(201);
    expect((await service.call('POST', '/devices/cut/heartbeat', heartbeat)).statusCode).toBe(200);
    // On PostgreSQL a notice reaches even this node's sockets only after the adapter's NOTIFY
    // round trip, which a loaded machine may stretch past the hello: the creation's and the
    // heartbeat's notices are awaited, or a late one would pass for the offline one.
    await vi.waitFor(() => expect(heard).toEqual([cutChanged, cutChanged]), { timeout: 10_000 });
    heard.splice(0);
    const device = clients.open();
    expect((await hello(device, null, 'cut')).error).toBeUndefined();
    device.disconnect();
    await vi.waitFor(async () => {
      const sockets = await service.app.realtime.fetchSockets();
      expect(sockets.filter((socket) => socket.data.deviceTag === 'cut')).toHaveLength(0);
    });
    await clock.advance(SOCKET_GRACE_MS - 1);
    expect(heard).toEqual([]);
    await clock.advance(1);
    const known = performance.now();
    expect((await service.call('GET', '/devices/cut')).json().online).toBe(false);
    await vi.waitFor(() => expect(heard).toContainEqual(cutChanged), { interval: 5 });
    expect(performance.now() - known).toBeLessThan(1000);
  });

  it('tells a console kept to a screen group of its group’s screens only, and cuts it when its groups change', async () => {
    const ours = (await service.call('POST', '/groups', { name: 'Ours' })).json<{ id: string }>().id;
    const theirs = (await service.call('POST', '/groups', { name: 'Theirs' })).json<{ id: string }>().id;
    await service.call('POST', '/devices', { tag: 'ours-1', group_id: ours });
    await service.call('POST', '/devices', { tag: 'theirs-1', group_id: theirs });
    const kept = await createUser(service.db, {
      login: 'kay',
      password: PASSWORD,
      role: 'publisher',
      groups: [ours],
    });
    const client = consoleSocket(await signIn('kay'));
    expect(await client.emitWithAck('watch')).toEqual({ ok: true });
    const heard = noticesOf(client);
    expect((await service.call('PATCH', '/devices/theirs-1', { name: 'Theirs' })).statusCode).toBe(200);
    expect((await service.call('PATCH', `/groups/${theirs}`, { name: 'Still theirs' })).statusCode).toBe(200);
    expect((await service.call('PATCH', '/devices/ours-1', { name: 'Ours' })).statusCode).toBe(200);
    await vi.waitFor(() => expect(heard).toContainEqual({ resource: 'devices', id: 'ours-1' }));
    // Told in order on one node: what came before ours-1's notice was heard already, if at all.
    expect(heard.filter((notice) => notice.id === 'theirs-1' || notice.id === theirs)).toEqual([]);
    const cut = disconnected(client);
    const changed = await service.call('PATCH', `/users/${kept.id}`, { groups: [ours, theirs] });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(await cut).toBe('io server disconnect');
  });
});
