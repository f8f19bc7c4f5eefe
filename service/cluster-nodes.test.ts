import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { OperatorNotice } from '../src/shared/notices';
import { buildApp } from './app';
import { openStore } from './db/open';
import { sampleHeartbeat } from '../src/shared/testing/device-fixtures';
import { clientsOf, hello } from './testing/realtime-clients';
import { FakeClock } from './testing/fake-clock';
import { NodesInProcess, call, heard, type Node } from './testing/nodes-in-process';
import { TEST_POSTGRES_URL } from './test-support';
import { RENEW_MS } from './cluster/leases';
import { sweepIntervalMs } from './jobs/service-jobs';

// Two service nodes on one PostgreSQL database, in one process, each listening on loopback: what
// one node does reaches the devices and consoles of the other, and the work done once across
// the nodes happens once. (service/cluster.test.ts runs real processes behind HAProxy.)
const OFFLINE_AFTER_SECONDS = 30;
const clock = new FakeClock('2026-11-24T08:00:00.000Z');
const fleet = new NodesInProcess({ clock, config: { offlineAfterSeconds: OFFLINE_AFTER_SECONDS } });
const { nodes } = fleet;

let a: Node;
let b: Node;
const onA = clientsOf(() => a.url);

describe.skipIf(!TEST_POSTGRES_URL)('two nodes on one PostgreSQL (needs npm run test:postgres)', () => {
  beforeAll(async () => {
    [a, b] = await fleet.twoWithLobby();
  });
  afterEach(() => onA.closeAll());
  afterAll(() => fleet.close());

  it('pushes a notification posted to node B to a device on node A', async () => {
    const device = onA.open();
    await hello(device, null);
    const events = heard(device);
    const channel = (await call(b, 'GET', '/channels')).json<{ id: string }[]>()[0]?.id ?? '';
    const posted = await call(b, 'POST', `/channels/${channel}/notifications`, {
      title: 'From B',
      message: 'm',
    });
    expect(posted.statusCode).toBe(201);
    await vi.waitFor(() => expect(events.map((event) => event.type)).toEqual(['notification.created']));
  });

  it('moves a device on node A to the rooms of a playlist node B gives it', async () => {
    const device = onA.open();
    await hello(device, null);
    const events = heard(device);
    const board = (await call(b, 'POST', '/boards', { name: 'Sales' })).json<{ id: string }>();
    const items = [{ type: 'board', board_id: board.id, duration: 10 }];
    const playlist = (await call(b, 'POST', '/playlists', { name: 'Sales', items })).json<{ id: string }>();
    await call(b, 'PATCH', '/devices/lobby', { playlist_id: playlist.id });
    await vi.waitFor(() => expect(events.map((event) => event.type)).toContain('device.changed'));
    // Put in the new board's room on node A by node B's change: it hears the board's next change.
    await vi.waitFor(async () => {
      await call(b, 'PATCH', `/boards/${board.id}`, { name: `Sales ${Date.now()}` });
      expect(events.map((event) => event.type)).toContain('board.changed');
    });
  });

  it("cuts a device's socket on node A when node B deletes its token, and node A refuses it", async () => {
    const created = (await call(b, 'POST', '/account/tokens', { scope: 'readonly', name: 'doomed' })).json<{
      id: string;
      token: string;
    }>();
    const device = onA.open(created.token);
    await hello(device, null);
    const gone = new Promise((resolve) => device.once('disconnect', resolve));
    expect((await call(b, 'DELETE', `/account/tokens/${created.id}`)).statusCode).toBe(204);
    await gone;
    const refused = await a.app.inject({
      url: '/devices',
      headers: { authorization: `Bearer ${created.token}` },
    });
    expect(refused.statusCode).toBe(401);
  });

  it('tells a console watching on node A of a change made on node B', async () => {
    const console = onA.open();
    expect(await console.emitWithAck('watch')).toEqual({ ok: true });
    const notices: OperatorNotice[] = [];
    console.on('notice', (notice) => notices.push(notice));
    const group = (await call(b, 'POST', '/groups', { name: 'Floor 2' })).json<{ id: string }>();
    await vi.waitFor(() => expect(notices).toContainEqual({ resource: 'groups', id: group.id }));
    // Once: each node tells its own consoles what it heard on the bus.
    const marker = (await call(a, 'POST', '/groups', { name: 'Floor 3' })).json<{ id: string }>();
    await vi.waitFor(() => expect(notices).toContainEqual({ resource: 'groups', id: marker.id }));
    expect(notices.filter((notice) => notice.id === group.id)).toHaveLength(1);
  });

  it('logs the events of concurrent writes on both nodes so that a replay from any of them misses none', async () => {
    const device = onA.open();
    const { last_event_id: start } = await hello(device, null);
    const channel = (await call(a, 'GET', '/channels')).json<{ id: string }[]>()[0]?.id ?? '';
    // Notifications: replay keeps every one (of a device's changes, it keeps the last).
    await Promise.all(
      Array.from({ length: 40 }, (_, n) =>
        call(n % 2 ? a : b, 'POST', `/channels/${channel}/notifications`, { title: `n${n}`, message: 'm' }),
      ),
    );
    const all = (await hello(onA.open(), start)).events.map((event) => event.id);
    expect(all).toHaveLength(40);
    // Ids in commit order: from every point a device could have reached, the rest is all that follows.
    for (const [index, id] of all.entries()) {
      const rest = (await hello(onA.open(), id)).events.map((event) => event.id);
      expect(rest).toEqual(all.slice(index + 1));
    }
  });

  it('turns a silent device offline once, whichever node sweeps', async () => {
    const device = onA.open();
    await hello(device, null);
    const events = heard(device);
    const beat = await call(a, 'POST', '/devices/lobby/heartbeat', sampleHeartbeat('board'));
    expect(beat.statusCode).toBeLessThan(300);
    await clock.advance(OFFLINE_AFTER_SECONDS * 1000 + 2 * sweepIntervalMs(OFFLINE_AFTER_SECONDS));
    // Online with the heartbeat, then offline once.
    const changed = () => events.filter((event) => event.type === 'device.changed');
    await vi.waitFor(() => expect(changed()).toHaveLength(2));
    const history = (await call(b, 'GET', '/devices/lobby/history')).json<{ entries: { kind: string }[] }>()
      .entries;
    expect(history.filter((entry) => entry.kind === 'offline')).toHaveLength(1);
  });

  it('runs the work done once on one node only, and hands it over when that node stops', async () => {
    const leaders = () => nodes.filter((node) => node.app.wallboard.jobs.leadership.isLeading);
    expect(leaders()).toHaveLength(1);
    const health = await Promise.all(nodes.map((node) => node.app.inject({ url: '/health' })));
    expect(health.map((response) => response.json().leading).sort()).toEqual([false, true]);

    // A script every minute: one run per minute across both nodes.
    const script = (
      await call(b, 'POST', '/scripts', { name: 'tick', code: 'return 1', interval: '1m', enabled: true })
    ).json<{ id: string }>();
    await clock.advance(5 * 60_000);
    const runs = await vi.waitFor(async () => {
      const listed = (await call(a, 'GET', `/scripts/${script.id}/runs`)).json<unknown[]>();
      expect(listed.length).toBeGreaterThanOrEqual(5);
      return listed;
    });
    expect(runs.length).toBeLessThanOrEqual(6);

    // The leader stops (a rolling restart): it lets go of its lease, the other takes it at its next try.
    const [leader] = leaders();
    const other = nodes.find((node) => node !== leader);
    await fleet.stop(leader as Node);
    await clock.advance(RENEW_MS);
    expect(other?.app.wallboard.jobs.leadership.isLeading).toBe(true);
  });

  it('closes a node stopped at once after its start (the adapter may not listen yet)', async () => {
    for (let n = 0; n < 10; n++) {
      const db = await openStore({ databaseUrl: fleet.databaseUrl });
      const app = await buildApp({ db, clock });
      await app.close();
      await db.close();
    }
  });
});
