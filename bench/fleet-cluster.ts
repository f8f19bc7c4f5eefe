// bench/fleet across several nodes: `npm run bench:fleet -- --nodes 2 [--devices 2000] [--seconds 60]
// [--heartbeat 30] [--notifications 5]`. Two service nodes on one PostgreSQL (a throwaway cluster,
// .ci/with-postgres.sh) behind HAProxy as deploy/haproxy.cfg, N simulated devices through the proxy
// (a socket.io socket that said hello, and a heartbeat every interval over HTTP): prints per node
// its CPU and RSS, the heartbeat latency, and the fan-out of one notification to every device,
// beside the same fan-out through a bare socket.io server (bench/service-floor.ts) in the same run.
import { spawnSync } from 'node:child_process';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { createTestDatabase } from '../service/test-support';
import {
  freePort,
  haproxyConfig,
  haproxyInstalled,
  healthy,
  startHaproxy,
  startNode,
} from '../service/testing/cluster-kit';
import {
  addDevices,
  benchPlaylist,
  connected,
  measureFanout,
  openAudience,
  openDevices,
  type Fanout,
} from './fanout';
import { apiRequest, cpuSeconds, rssMb, spawnFloor } from './processes';
import { formatMs, quantile } from './stats';

const { values } = parseArgs({
  options: {
    nodes: { type: 'string', default: '2' },
    devices: { type: 'string', default: '2000' },
    seconds: { type: 'string', default: '60' },
    heartbeat: { type: 'string', default: '30' },
    notifications: { type: 'string', default: '5' },
  },
});
const NODES = Number(values.nodes);
const DEVICES = Number(values.devices);
const SECONDS = Number(values.seconds);
const HEARTBEAT = Number(values.heartbeat);
const NOTIFICATIONS = Number(values.notifications);
const TOKEN = 'fleet-cluster-bench-token-0123';
const TARGET = { devices: 10_000, fanoutP99Ms: 1000, heartbeatP99Ms: 100 };

// The throwaway PostgreSQL of the tests: run again under it when it is not there yet.
if (!process.env.WALLBOARD_TEST_DATABASE_URL) {
  const again = spawnSync(
    'bash',
    ['.ci/with-postgres.sh', process.execPath, ...process.execArgv, ...process.argv.slice(1)],
    {
      stdio: 'inherit',
    },
  );
  process.exit(again.status ?? 1);
}
if (!haproxyInstalled) throw new Error('bench/fleet --nodes needs HAProxy (apt-get install haproxy)');

const database = await createTestDatabase(process.env.WALLBOARD_TEST_DATABASE_URL);
const ports = await Promise.all(Array.from({ length: NODES }, () => freePort()));
const nodes = [];
for (const port of ports) nodes.push(await startNode(database.url, port, TOKEN, ['--log-level', 'error']));
const proxyPort = await freePort();
// HAProxy holds two files per connection: this machine's limit of 20,000 caps it at 9,900, the
// devices' WebSockets and the heartbeats' connections together.
const MAXCONN = 9_900;
if (DEVICES > MAXCONN - 500) throw new Error(`--devices: at most ${MAXCONN - 500} through HAProxy here`);
const proxy = await startHaproxy(await haproxyConfig(proxyPort, ports, { maxconn: MAXCONN }), proxyPort);
const api = <T>(method: string, path: string, body?: unknown) =>
  apiRequest<T>(proxy.url, TOKEN, method, path, body);
let heartbeats: Worker | undefined;

try {
  await healthy(proxy.url, 60_000);
  const playlist = await benchPlaylist(api, 'fleet_cpu', 'Fleet');
  await addDevices((body) => api('POST', '/devices', body), DEVICES, 'fleet', playlist);
  const audience = await openDevices(proxy.url, DEVICES, TOKEN, 'fleet');
  // Heartbeats spread over the interval, as a fleet's are, from a thread of their own.
  heartbeats = new Worker(new URL('./heartbeat-worker.ts', import.meta.url), {
    workerData: { url: proxy.url, token: TOKEN, devices: DEVICES, heartbeat: HEARTBEAT, prefix: 'fleet' },
  });
  await new Promise((resolve) => setTimeout(resolve, HEARTBEAT * 1000));
  // Measured from here: the heartbeats of the window, not those of the fleet coming up.
  heartbeats.postMessage('reset');
  const loop = monitorEventLoopDelay();
  loop.enable();
  const pids = nodes.map((node) => node.child.pid ?? 0);
  const cpuStart = await Promise.all(pids.map(cpuSeconds));
  const peak = pids.map(() => 0);
  const started = performance.now();
  while (performance.now() - started < SECONDS * 1000) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    (await Promise.all(pids.map(rssMb))).forEach((mb, n) => (peak[n] = Math.max(peak[n] ?? 0, mb)));
  }
  const elapsed = (performance.now() - started) / 1000;
  loop.disable();
  const beats = await new Promise<{ latencies: number[]; failures: number }>((resolve) => {
    heartbeats?.once('message', resolve);
    heartbeats?.postMessage('report');
  });
  const cpu = (await Promise.all(pids.map(cpuSeconds))).map(
    (seconds, n) => ((seconds - (cpuStart[n] ?? 0)) / elapsed) * 100,
  );
  const fanout = await measureFanout(
    audience,
    DEVICES,
    NOTIFICATIONS,
    async (n) =>
      (
        await api<{ id: string }>('POST', '/flows/fleet_cpu/notifications', {
          title: 'fanout',
          message: `n${n}`,
        })
      ).id,
  );
  await heartbeats.terminate();
  audience.close();

  const floor = await spawnFloor();
  let floorFanout: Fanout;
  try {
    const floorAudience = await openAudience(floor.url, DEVICES, TOKEN, connected);
    floorFanout = await measureFanout(
      floorAudience,
      DEVICES,
      NOTIFICATIONS,
      async (n) =>
        (
          await apiRequest<{ id: string }>(floor.url, TOKEN, 'POST', '/flows/fleet_cpu/notifications', {
            title: 'fanout',
            message: `n${n}`,
          })
        ).id,
    );
    floorAudience.close();
  } finally {
    await floor.stop();
  }

  const heartbeatP99 = quantile(beats.latencies, 0.99);
  const fanoutP99 = quantile(fanout.fromSent, 0.99);
  const cpuPerDevice = cpu.reduce((sum, one) => sum + one, 0) / DEVICES;
  const lines = [
    `bench/fleet --nodes ${NODES}: ${DEVICES} devices through HAProxy, heartbeat every ${HEARTBEAT} s, measured over ${elapsed.toFixed(0)} s`,
    ...nodes.map(
      (_, n) =>
        `node ${n + 1}: CPU ${(cpu[n] ?? 0).toFixed(1)}% of one core, RSS peak ${(peak[n] ?? 0).toFixed(0)} MiB`,
    ),
    `heartbeats: ${beats.latencies.length} answered, ${beats.failures} failed; p50 ${formatMs(quantile(beats.latencies, 0.5))}, p99 ${formatMs(heartbeatP99)} (target under ${TARGET.heartbeatP99Ms} ms: ${heartbeatP99 < TARGET.heartbeatP99Ms ? 'met' : 'NOT met'})`,
    `fan-out of one notification to every device, from its POST sent: p50 ${formatMs(quantile(fanout.fromSent, 0.5))}, p99 ${formatMs(fanoutP99)}, last of each ${formatMs(quantile(fanout.last, 0.99))}, ${fanout.missing} missing (target p99 under ${TARGET.fanoutP99Ms} ms: ${fanoutP99 < TARGET.fanoutP99Ms ? 'met' : 'NOT met'})`,
    `the bench's own thread of the devices' sockets: event-loop delay p99 ${formatMs(loop.percentile(99) / 1e6)} (the fan-out's arrivals are stamped there)`,
    `floor (a bare socket.io server, the same ${DEVICES} sockets, no proxy): p50 ${formatMs(quantile(floorFanout.fromSent, 0.5))}, p99 ${formatMs(quantile(floorFanout.fromSent, 0.99))}`,
  ];
  if (DEVICES < TARGET.devices) {
    const scale = TARGET.devices / DEVICES;
    lines.push(
      `held ${DEVICES} of the target's ${TARGET.devices} devices. Extrapolated to ${TARGET.devices}, assuming the cost per device stays what it was here (heartbeats and sockets each cost the same whatever their number; a fan-out's time grows with the sockets per node): CPU ${(cpuPerDevice * TARGET.devices).toFixed(0)}% of one core across the nodes (${((cpuPerDevice * TARGET.devices) / NODES).toFixed(0)}% each), fan-out p99 about ${formatMs(fanoutP99 * scale)}`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
} finally {
  await heartbeats?.terminate();
  await proxy.stop();
  await Promise.all(nodes.map((node) => node.stop()));
  await database.drop();
}
