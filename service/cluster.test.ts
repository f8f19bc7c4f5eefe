import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sampleHeartbeat } from '../src/shared/testing/device-fixtures';
import { TEST_POSTGRES_URL } from './test-support';
import {
  apiWith,
  haproxyConfig,
  haproxyInstalled,
  mediaRoundTrip,
  startHaproxy,
  screensPlaying,
  screenThrough,
  nodesBehind,
  type ProxiedNodes,
} from './testing/cluster-kit';
import { solidPng } from './testing/png';

// The deployment of docs/deployment.md on loopback: two real service processes on one PostgreSQL
// database behind HAProxy configured as deploy/haproxy.cfg. HAProxy balances `first` here, so
// that every device is on node A until A dies.
const ADMIN = 'cluster-admin-token-0123456789';
const OFFLINE_AFTER = 3;
let fleet: ProxiedNodes;
/** When node A was killed. */
let killed = 0;

const api = apiWith(ADMIN);
const device = (tag: string) => screenThrough(fleet.proxy.url, ADMIN, tag);

describe.skipIf(!TEST_POSTGRES_URL || !haproxyInstalled)(
  'two service processes behind HAProxy (needs npm run test:postgres and haproxy)',
  () => {
    let channel: string;
    beforeAll(async () => {
      const extra = ['--offline-after', String(OFFLINE_AFTER), '--drain-seconds', '0'];
      fleet = await nodesBehind(
        async (port, nodePorts) =>
          startHaproxy(await haproxyConfig(port, nodePorts, { balance: 'first' }), port),
        ADMIN,
        extra,
      );
      channel = await screensPlaying(fleet.nodeB.url, ADMIN, ['lobby', 'hall']);
    }, 60_000);
    afterAll(() => fleet?.stop());

    it('runs a script once per interval across the two nodes', async () => {
      const script = await api<{ id: string }>(fleet.proxy.url, 'POST', '/scripts', {
        name: 'tick',
        code: 'return 1',
        interval: '2s',
        enabled: true,
      });
      const runs = await vi.waitFor(
        async () => {
          const runs = await api<{ started_at: string }[]>(
            fleet.proxy.url,
            'GET',
            `/scripts/${script.id}/runs`,
          );
          expect(runs.length).toBeGreaterThanOrEqual(4);
          return runs;
        },
        { timeout: 20_000, interval: 250 },
      );
      // At 0, 2, 4 and 6 s by the runs' own start times, whatever the test's pace: four runs, not
      // eight, so no two of them in one interval (half of it for a run that waited for its slot).
      const starts = runs.map((run) => Date.parse(run.started_at)).sort((a, b) => a - b);
      const gaps = starts.slice(1).map((at, index) => at - starts[index]!);
      expect(
        gaps.every((gap) => gap >= 1_000),
        `between starts: ${gaps.join(', ')} ms`,
      ).toBe(true);
      await api(fleet.proxy.url, 'DELETE', `/scripts/${script.id}`);
    }, 30_000);

    it('turns a silent device offline once', async () => {
      await api(fleet.proxy.url, 'POST', '/devices', { tag: 'quiet' });
      await api(fleet.proxy.url, 'POST', '/devices/quiet/heartbeat', sampleHeartbeat('board'));
      await vi.waitFor(
        async () => {
          const history = await api<{ entries: { kind: string }[] }>(
            fleet.proxy.url,
            'GET',
            '/devices/quiet/history',
          );
          expect(history.entries.filter((entry) => entry.kind === 'offline')).toHaveLength(1);
        },
        { timeout: 10_000, interval: 500 },
      );
    }, 20_000);

    it('serves media uploaded through one node from the other', async () => {
      const png = solidPng(3, 3);
      const { status, read } = await mediaRoundTrip(fleet.nodeB.url, fleet.proxy.url, ADMIN, png);
      expect(status).toBe(201);
      expect(read?.equals(png)).toBe(true);
    });
    it('brings a notification posted to node B to the devices on node A, and after A is killed, through the proxy to B within 10 s, missing nothing', async () => {
      const screens = [device('lobby'), device('hall')];
      await vi.waitFor(() => expect(screens.every((screen) => screen.connections.length === 1)).toBe(true));
      const notify = (title: string) =>
        api(fleet.nodeB.url, 'POST', `/channels/${channel}/notifications`, { title, message: 'm' });
      await notify('before');
      await vi.waitFor(() =>
        expect(screens.map((screen) => screen.titles())).toEqual([['before'], ['before']]),
      );

      killed = Date.now();
      await fleet.nodeA.stop('SIGKILL');
      await notify('while away 1');
      await notify('while away 2');
      await vi.waitFor(() => expect(screens.every((screen) => screen.connections.length === 2)).toBe(true), {
        timeout: 10_000,
      });
      for (const screen of screens) expect((screen.connections[1] ?? Infinity) - killed).toBeLessThan(10_000);
      await notify('after');
      await vi.waitFor(() =>
        expect(screens.map((screen) => screen.titles())).toEqual(
          screens.map(() => ['before', 'while away 1', 'while away 2', 'after']),
        ),
      );
      for (const screen of screens) screen.socket.disconnect();
    }, 30_000);

    it('hands the work done once to node B within 30 s of node A dying', async () => {
      await vi.waitFor(
        async () => {
          const health = (await (await fetch(`${fleet.nodeB.url}/health`)).json()) as { leading: boolean };
          expect(health.leading).toBe(true);
        },
        { timeout: 30_000, interval: 250 },
      );
      expect(Date.now() - killed).toBeLessThan(30_000);
    }, 35_000);
  },
);
