import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TEST_POSTGRES_URL } from './test-support';
import {
  apiWith,
  mediaRoundTrip,
  nginxConfig,
  nginxInstalled,
  screensPlaying,
  screenThrough,
  startNginx,
  nodesBehind,
  type ProxiedNodes,
  type Screen,
} from './testing/cluster-kit';
import { solidPng } from './testing/png';

// deploy/nginx.conf on loopback: two real service processes on one PostgreSQL database behind
// nginx as the sample configures it (service/cluster.test.ts does the same behind HAProxy).
const ADMIN = 'nginx-admin-token-0123456789';
const TAGS = ['d1', 'd2', 'd3', 'd4'];
let fleet: ProxiedNodes;
const api = apiWith(ADMIN);

describe.skipIf(!TEST_POSTGRES_URL || !nginxInstalled)(
  'two service processes behind nginx (needs npm run test:postgres and nginx)',
  () => {
    let channel: string;
    beforeAll(async () => {
      fleet = await nodesBehind(
        async (port, nodePorts) => startNginx(await nginxConfig(port, nodePorts), port),
        ADMIN,
        ['--drain-seconds', '0'],
      );
      channel = await screensPlaying(fleet.nodeB.url, ADMIN, TAGS);
    }, 60_000);
    afterAll(() => fleet?.stop());

    it('takes a media upload of several megabytes (nginx refuses bodies over 1 MB unless told)', async () => {
      const file = Buffer.concat([solidPng(3, 3), Buffer.alloc(5 * 1024 * 1024, 7)]);
      const { status, read } = await mediaRoundTrip(fleet.proxy.url, fleet.proxy.url, ADMIN, file);
      expect(status).toBe(201);
      expect(read?.equals(file)).toBe(true);
    });

    it("upgrades screens' sockets over both nodes, and when node A is killed, they reconnect through nginx to B within 10 s, missing nothing", async () => {
      const screens: Screen[] = [];
      // One after the other, so that least_conn puts them on both nodes.
      for (const tag of TAGS) {
        const screen = screenThrough(fleet.proxy.url, ADMIN, tag);
        screens.push(screen);
        await vi.waitFor(() => expect(screen.connections).toHaveLength(1));
      }
      const notify = (title: string) =>
        api(fleet.proxy.url, 'POST', `/channels/${channel}/notifications`, { title, message: 'm' });
      await notify('before');
      await vi.waitFor(() =>
        expect(screens.map((screen) => screen.titles())).toEqual(TAGS.map(() => ['before'])),
      );

      const killed = Date.now();
      await fleet.nodeA.stop('SIGKILL');
      await notify('while away');
      // The screens that were on A come back on B; those on B stay where they are.
      await vi.waitFor(
        () => {
          const counts = screens.map((screen) => (screen.socket.connected ? screen.connections.length : 0));
          expect(counts.every((count) => count > 0)).toBe(true);
          expect(counts.filter((count) => count === 2)).toHaveLength(2);
        },
        { timeout: 10_000 },
      );
      for (const screen of screens) expect((screen.connections[1] ?? killed) - killed).toBeLessThan(10_000);
      await notify('after');
      await vi.waitFor(() =>
        expect(screens.map((screen) => screen.titles())).toEqual(
          TAGS.map(() => ['before', 'while away', 'after']),
        ),
      );
      for (const screen of screens) screen.socket.disconnect();
    }, 30_000);
  },
);
