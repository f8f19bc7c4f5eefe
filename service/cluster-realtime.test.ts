import pg from 'pg';
import { io as connect } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RealtimeEvent } from '../src/shared/events';
import { sampleHeartbeat } from '../src/shared/testing/device-fixtures';
import { acrossAccounts } from './accounts/scope';
import { createUser } from './actions/users';
import { adapterApplication } from './realtime/cluster';
import { SOCKET_GRACE_MS } from './realtime/presence';
import { EventRepository } from './repositories/events';
import { TEST_POSTGRES_URL } from './test-support';
import { FakeClock } from './testing/fake-clock';
import { NodesInProcess, call, heard, type Node } from './testing/nodes-in-process';
import { clientsOf, hello, notification, type Client } from './testing/realtime-clients';

// Realtime across two service nodes on one PostgreSQL database, in one process, each listening on
// loopback: what service/cluster-nodes.test.ts does not already show (a notification, a new
// playlist, a deleted token and a console's notice crossing the nodes).
const PASSWORD = 'correct horse battery';
const CSRF = { 'x-wallboard-csrf': '1' };
const clock = new FakeClock('2026-11-24T09:00:00.000Z');
const fleet = new NodesInProcess({ clock });
let a: Node;
let b: Node;
let channel: string;
const onA = clientsOf(() => a.url);
const onB = clientsOf(() => b.url);
const consoles: Client[] = [];

async function notify(node: Node, title: string): Promise<void> {
  const posted = await call(node, 'POST', `/channels/${channel}/notifications`, { title, message: 'm' });
  expect(posted.statusCode).toBe(201);
}

const titles = (events: readonly RealtimeEvent[]) =>
  events.flatMap((event) => (event.type === 'notification.created' ? [event.notification.title] : []));

async function signIn(node: Node, login: string, password = PASSWORD): Promise<string> {
  const response = await node.app.inject({ method: 'POST', url: '/session', payload: { login, password } });
  expect(response.statusCode).toBe(200);
  return `wb_session=${response.cookies.find((cookie) => cookie.name === 'wb_session')?.value}`;
}

/** A console's socket, signed in by the session cookie as a browser is, watching. */
async function watchingConsole(node: Node, cookie: string): Promise<Client> {
  const client: Client = connect(node.url, {
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    extraHeaders: { cookie },
  });
  consoles.push(client);
  expect(await client.emitWithAck('watch')).toEqual({ ok: true });
  return client;
}

const disconnected = (client: Client) => new Promise<string>((resolve) => client.once('disconnect', resolve));

async function socketsOf(node: Node, tag: string, count: number): Promise<void> {
  await vi.waitFor(async () => {
    const sockets = await node.app.realtime.local.fetchSockets();
    expect(sockets.filter((socket) => socket.data.deviceTag === tag)).toHaveLength(count);
  });
}

const realtimeCheck = async (node: Node) => (await node.app.wallboard.node.readiness()).checks.realtime;

describe.skipIf(!TEST_POSTGRES_URL)(
  'realtime across two nodes on one PostgreSQL (needs npm run test:postgres)',
  () => {
    beforeAll(async () => {
      [a, b] = await fleet.twoWithLobby();
      channel = (await call(a, 'GET', '/channels')).json<{ id: string }[]>()[0]?.id ?? '';
      await createUser(a.app.wallboard.db, { login: 'ada', password: PASSWORD, role: 'admin' });
    });
    afterEach(() => {
      onA.closeAll();
      onB.closeAll();
      for (const client of consoles.splice(0)) client.disconnect();
    });
    afterAll(() => fleet.close());

    it('pushes the events of concurrent writes on both nodes to a device in the order of their ids', async () => {
      const device = onA.open();
      const { last_event_id: start } = await hello(device, null);
      const live = heard(device);
      for (let round = 0; round < 5; round += 1) {
        await Promise.all(Array.from({ length: 40 }, (_, n) => notify(n % 2 ? a : b, `${round}.${n}`)));
      }
      const logged = (await hello(onA.open(), start)).events.map((event) => event.id);
      expect(logged).toHaveLength(200);
      // A device drops an event older than one it heard (src/agent/sync.ts): each must come in turn.
      await vi.waitFor(() => expect(live.map((event) => event.id)).toEqual(logged));
    });

    it('commits writes of events on node B while an earlier one on node A is in flight, and pushes none of them before it', async () => {
      const device = onA.open();
      await hello(device, null);
      const live = heard(device);
      const rooms = [`channel:${channel}`];
      const { type, ...payload } = notification(channel, 'first');
      const tell = (node: Node, id: number) =>
        node.app.wallboard.node.bus.publish('realtime.event', { event: { ...payload, type, id }, rooms });
      let commit!: () => void;
      const held = new Promise<void>((resolve) => (commit = resolve));
      let first = 0;
      const writingOnA = a.app.wallboard.db.transaction(async (tx) => {
        first = await new EventRepository(tx).append(type, payload, rooms);
        await held;
      });
      await vi.waitFor(() => expect(first).toBeGreaterThan(0));
      // Twenty writers on B, each drawing a later id: all commit while A's write is in flight.
      const later: number[] = [];
      const writingOnB = Array.from({ length: 20 }, () =>
        b.app.wallboard.db
          .transaction((tx) => new EventRepository(tx).append(type, payload, rooms))
          .then((id) => later.push(id)),
      );
      await vi.waitFor(() => expect(later).toHaveLength(20), { timeout: 5000 });
      await Promise.all(writingOnB);
      expect(Math.min(...later)).toBeGreaterThan(first);
      for (const id of later) tell(b, id);
      // A reader sees B's events but not A's, and is told a writer is in flight that may fill the hole.
      const log = new EventRepository(a.app.wallboard.db);
      const read = await acrossAccounts(() => log.after(first - 1, 100));
      expect(read.events.map(({ event }) => event.id)).toEqual([...later].sort((x, y) => x - y));
      expect(read.inFlight).not.toBeNull();
      expect(await log.settle(read.inFlight ?? '')).toBe(false);
      // A hello is answered up to the hole A's write leaves, not past it.
      const answer = await hello(onA.open(), first - 1);
      expect([answer.events.length, answer.last_event_id]).toEqual([0, first - 1]);
      commit();
      await writingOnA;
      tell(a, first);
      const ids = [first, ...later].sort((x, y) => x - y);
      // A device drops an event older than one it heard: A's must come first.
      await vi.waitFor(() => expect(live.map((event) => event.id)).toEqual(ids));
    });

    it('pushes past an id that a rolled back write drew', async () => {
      const device = onA.open();
      await hello(device, null);
      const live = heard(device);
      const { type, ...payload } = notification(channel, 'never');
      const rolledBack = b.app.wallboard.db.transaction(async (tx) => {
        await new EventRepository(tx).append(type, payload, [`channel:${channel}`]);
        throw new Error('rolled back');
      });
      await expect(rolledBack).rejects.toThrow('rolled back');
      await notify(b, 'after the hole');
      await notify(a, 'next');
      await vi.waitFor(() => expect(titles(live)).toEqual(['after the hole', 'next']));
    });

    it('delivers a message of the bus once on every node, the publishing one included', async () => {
      const busOf = (node: Node) => node.app.wallboard.node.bus;
      const pings = { a: [] as unknown[], b: [] as unknown[] };
      const pongs: unknown[] = [];
      // Two topics of the bus's table (cluster/bus-messages.ts) about nothing that exists.
      const stops = [
        busOf(a).subscribe('tokens.revoked', (payload) => pings.a.push(payload)),
        busOf(b).subscribe('tokens.revoked', (payload) => pings.b.push(payload)),
        // B answers: NOTIFY keeps the order of commits, so A hears the answer after anything its
        // own publication could have brought back to it.
        busOf(b).subscribe('tokens.revoked', (id) => busOf(b).publish('sessions.ended', { sessionId: id })),
        busOf(a).subscribe('sessions.ended', (payload) => pongs.push(payload)),
      ];
      busOf(a).publish('tokens.revoked', 'tok_ping');
      await vi.waitFor(() => expect(pongs).toEqual([{ sessionId: 'tok_ping' }]));
      expect(pings).toEqual({ a: ['tok_ping'], b: ['tok_ping'] });
      for (const stop of stops) stop();
    });

    it("cuts a console's socket on node A when its session ends on node B, or its user's", async () => {
      const cookie = await signIn(b, 'ada');
      const signedOut = disconnected(await watchingConsole(a, cookie));
      const out = await b.app.inject({ method: 'DELETE', url: '/session', headers: { cookie, ...CSRF } });
      expect(out.statusCode).toBe(204);
      expect(await signedOut).toBe('io server disconnect');

      await createUser(b.app.wallboard.db, { login: 'temp', password: PASSWORD, role: 'viewer' });
      const deleted = disconnected(await watchingConsole(a, await signIn(a, 'temp')));
      const users = (await call(b, 'GET', '/users')).json<{ id: string; login: string }[]>();
      const temp = users.find((user) => user.login === 'temp')?.id;
      expect((await call(b, 'DELETE', `/users/${temp}`)).statusCode).toBe(204);
      expect(await deleted).toBe('io server disconnect');
    });

    it('keeps online a device whose socket moves from node A to node B, and turns it offline once it leaves B', async () => {
      const heartbeat = sampleHeartbeat('board');
      expect((await call(a, 'POST', '/devices', { tag: 'mover' })).statusCode).toBe(201);
      const first = onA.open();
      await hello(first, null, 'mover');
      expect((await call(a, 'POST', '/devices/mover/heartbeat', heartbeat)).statusCode).toBe(200);
      first.disconnect();
      await socketsOf(a, 'mover', 0);
      await clock.advance(1000);
      await hello(onB.open(), null, 'mover');
      // The agent sends a heartbeat at once after each reconnection, here to node B.
      expect((await call(b, 'POST', '/devices/mover/heartbeat', heartbeat)).statusCode).toBe(200);
      // Node A's grace runs out: the heartbeat since its socket went keeps the device online.
      await clock.advance(SOCKET_GRACE_MS);
      expect((await call(a, 'GET', '/devices/mover')).json<{ online: boolean }>().online).toBe(true);

      onB.closeAll();
      await socketsOf(b, 'mover', 0);
      await clock.advance(SOCKET_GRACE_MS);
      expect((await call(a, 'GET', '/devices/mover')).json<{ online: boolean }>().online).toBe(false);
      const history = (await call(b, 'GET', '/devices/mover/history')).json<{
        entries: { kind: string }[];
      }>();
      expect(history.entries.filter((entry) => entry.kind === 'offline')).toHaveLength(1);
    });

    it('survives losing the connection it listens on, says so, and catches up on what it missed once it listens again', async () => {
      const device = onA.open();
      await hello(device, null);
      const live = heard(device);
      const token = (await call(b, 'POST', '/account/tokens', { scope: 'readonly', name: 'doomed' })).json<{
        id: string;
        token: string;
      }>();
      const withToken = () =>
        a.app.inject({ url: '/devices', headers: { authorization: `Bearer ${token.token}` } });
      // Known to node A now (its cache).
      expect((await withToken()).statusCode).toBe(200);
      expect(await realtimeCheck(a)).toBe('ok');
      // Every connection of node A's adapter, its listener among them, is dropped by the server.
      const admin = new pg.Client({ connectionString: fleet.databaseUrl });
      await admin.connect();
      await admin.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1',
        [adapterApplication(a.app.wallboard.node.id)],
      );
      await admin.end();
      await vi.waitFor(async () => expect(await realtimeCheck(a)).toMatch(/no connection to PostgreSQL/));
      await notify(b, 'while A could not hear');
      expect((await call(b, 'DELETE', `/account/tokens/${token.id}`)).statusCode).toBe(204);
      // The adapter connects again within 1 to 3 s.
      await vi.waitFor(async () => expect(await realtimeCheck(a)).toBe('ok'), { timeout: 5000 });
      // Read from the log as soon as node A listens again, without waiting for a later event.
      await vi.waitFor(() => expect(titles(live)).toEqual(['while A could not hear']));
      await notify(b, 'once A hears again');
      await vi.waitFor(() => expect(titles(live)).toEqual(['while A could not hear', 'once A hears again']));
      expect((await a.app.inject({ url: '/health' })).statusCode).toBe(200);
      expect((await withToken()).statusCode).toBe(401);
    });

    it('replays through node B, after node C closed, everything its device missed', async () => {
      const c = await fleet.start();
      const onC = clientsOf(() => c.url);
      const device = onC.open();
      await hello(device, null);
      const live = heard(device);
      await notify(c, 'before');
      await vi.waitFor(() => expect(titles(live)).toEqual(['before']));
      const gone = disconnected(device);
      await fleet.stop(c);
      expect(await gone).toBe('transport close');
      await notify(b, 'away on B');
      await notify(a, 'away on A');
      const again = await hello(onB.open(), live.at(-1)?.id ?? null);
      expect(titles(again.events)).toEqual(['away on B', 'away on A']);
    });
  },
);
