import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { heartbeatSchema } from '../src/shared/device';
import { sampleHeartbeat } from '../src/shared/testing/device-fixtures';
import {
  OFFLINE_WITHIN_MS,
  PING_INTERVAL_MS,
  PING_TIMEOUT_MS,
  SOCKET_GRACE_MS,
  TIMEOUT_GRACE_MS,
} from './realtime/presence';
import { startTestService, type TestService } from './test-support';
import { startAgentProcess } from './testing/agent-process';
import { FakeClock } from './testing/fake-clock';
import { clientsOf, hello, listen } from './testing/realtime-clients';
import { stallingProxy, type StallingProxy } from './testing/stalling-proxy';

const heartbeat = heartbeatSchema.parse(sampleHeartbeat('waiting'));

/** The longest a silent screen is online after its last pong: the ping's wait, then the grace. */
const silentWorstMs = (interval: number, timeout: number) => interval + timeout + TIMEOUT_GRACE_MS;

describe('the ping settings', () => {
  it('see a silent screen offline within 15 s, with a second to spare, pinging less often than before', () => {
    expect(silentWorstMs(PING_INTERVAL_MS, PING_TIMEOUT_MS)).toBeLessThanOrEqual(OFFLINE_WITHIN_MS - 1000);
    // A device that is alive comes back on its first retry (0.5 to 1.5 s), and says hello, within it.
    expect(TIMEOUT_GRACE_MS).toBeGreaterThan(1500);
    // A killed screen (its socket closed by its kernel) is offline after the grace alone.
    expect(SOCKET_GRACE_MS).toBeLessThan(OFFLINE_WITHIN_MS);
    // The 5 s of before: each ping costs a write and a read per socket.
    expect(PING_INTERVAL_MS / 5_000).toBeGreaterThanOrEqual(1.8);
  });
});

describe('presence of a screen that stops answering', () => {
  /** Lowered so that the test waits seconds: the same path as the defaults, counted above. */
  const ping = { interval: 1000, timeout: 1000 };
  let own: TestService;
  let dir: string;
  beforeAll(async () => {
    // The real clock: the engine's ping timers run on it.
    own = await startTestService();
    Object.assign(own.app.realtime.engine.opts, { pingInterval: ping.interval, pingTimeout: ping.timeout });
    dir = await mkdtemp(join(tmpdir(), 'wallboard-silent-'));
  });
  afterAll(async () => {
    await own.close();
    await rm(dir, { recursive: true, force: true });
  });

  const online = async (tag: string): Promise<boolean> =>
    (await own.call('GET', `/devices/${tag}`)).json().online;

  it('sees a device whose process is stopped (no FIN, no pong) offline within interval + timeout + grace', async () => {
    const url = await listen(own);
    // Heartbeats every 60 s and the sweep's 90 s: only the ping can tell.
    const { child, output } = startAgentProcess(url, dir, 'frozen');
    try {
      // A cold start of its own process (TypeScript compiled on the fly), maybe on a busy machine.
      await vi.waitFor(
        async () => {
          expect(await online('frozen'), `not online; the device said:\n${output()}`).toBe(true);
          expect(await own.app.realtime.fetchSockets()).toHaveLength(1);
        },
        { timeout: 60_000, interval: 100 },
      );
      // Its kernel keeps the connection open and takes the pings; nothing answers them.
      child.kill('SIGSTOP');
      const stoppedAt = Date.now();
      await vi.waitFor(async () => expect(await online('frozen')).toBe(false), {
        timeout: 20_000,
        interval: 50,
      });
      const ms = Date.now() - stoppedAt;
      // At least a timeout (a ping sent as it stopped) and the grace; at most a whole round after
      // its last pong and the grace, not the longer grace of a closed socket.
      expect(ms).toBeGreaterThanOrEqual(ping.timeout + TIMEOUT_GRACE_MS - 100);
      expect(ms).toBeLessThan(silentWorstMs(ping.interval, ping.timeout) + 1000);
      expect(await own.app.realtime.fetchSockets()).toHaveLength(0);
    } finally {
      child.kill('SIGKILL');
    }
  }, 120_000);
});

describe('presence of a socket that times out', () => {
  /** The app's grace timers on a clock of the test's; the engine's pings, lowered, on the real one. */
  const clock = new FakeClock('2026-11-27T09:00:00.000Z');
  let own: TestService;
  let url: string;
  let proxy: StallingProxy;
  const behindProxy = clientsOf(() => proxy.url);
  const direct = clientsOf(() => url);

  beforeAll(async () => {
    own = await startTestService({ clock });
    Object.assign(own.app.realtime.engine.opts, { pingInterval: 200, pingTimeout: 200 });
    url = await listen(own);
  });
  afterEach(async () => {
    behindProxy.closeAll();
    direct.closeAll();
    await proxy.close();
  });
  afterAll(() => own.close());

  const online = async (tag: string): Promise<boolean> =>
    (await own.call('GET', `/devices/${tag}`)).json().online;

  /** A device with a heartbeat whose socket, through a proxy, said hello; then the proxy stalls. */
  async function stalled(tag: string): Promise<void> {
    proxy = await stallingProxy(url);
    expect((await own.call('POST', '/devices', { tag })).statusCode).toBe(201);
    expect((await own.call('POST', `/devices/${tag}/heartbeat`, heartbeat)).statusCode).toBe(200);
    expect((await hello(behindProxy.open(), null, tag)).error).toBeUndefined();
    proxy.stall();
    // Nothing arrives any more: the service's ping goes unanswered and the socket times out.
    await vi.waitFor(async () => {
      const sockets = await own.app.realtime.fetchSockets();
      expect(sockets.filter((socket) => socket.data.deviceTag === tag)).toHaveLength(0);
    });
  }

  it('turns the device offline after the shorter grace of a timeout, not before', async () => {
    await stalled('unplugged');
    await clock.advance(TIMEOUT_GRACE_MS - 1);
    expect(await online('unplugged')).toBe(true);
    await clock.advance(1);
    expect(await online('unplugged')).toBe(false);
  });

  it('keeps online a device that comes back within it', async () => {
    await stalled('blip');
    await clock.advance(TIMEOUT_GRACE_MS / 2);
    expect((await hello(direct.open(), null, 'blip')).error).toBeUndefined();
    await clock.advance(SOCKET_GRACE_MS * 2);
    expect(await online('blip')).toBe(true);
  });
});
