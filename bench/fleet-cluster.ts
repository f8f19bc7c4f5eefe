// bench/fleet across several nodes: `npm run bench:fleet -- --nodes 2 [--devices 2000] [--seconds 60]
// [--heartbeat 30] [--notifications 5] [--runs 3] [--write-seconds 5] [--in-flight 64]`. Service
// nodes (the built service, dist/) on one PostgreSQL (a throwaway cluster with fsync on, as in
// production) behind HAProxy as deploy/haproxy.cfg. Each run, on a fresh database: N simulated
// devices through the proxy (a socket.io socket that said hello, and a heartbeat every interval
// over HTTP); per node its CPU and RSS, the heartbeat latency, and the fan-out of one notification
// to every device beside the same fan-out through a bare socket.io server (bench/service-floor.ts)
// in the same run. Then the metric writes/s the nodes take together through the proxy beside the
// first node's alone behind a proxy of its own, in turns. Figures through bench/report.ts.
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
import { durablePostgresServer, fsyncOf } from './durable-postgres';
import { addDevices, benchPlaylist, connected, measureFanout, openAudience, openDevices } from './fanout';
import { apiRequest, cpuSeconds, rssMb } from './processes';
import { report, type Figure } from './report';
import { createWriteFlows, loadTask } from './service-load';
import { buildServiceIfStale, spawnFloor } from './spawned';
import { formatMs, quantile, throughput } from './stats';

const { values } = parseArgs({
  options: {
    nodes: { type: 'string', default: '2' },
    devices: { type: 'string', default: '2000' },
    seconds: { type: 'string', default: '60' },
    heartbeat: { type: 'string', default: '30' },
    notifications: { type: 'string', default: '5' },
    runs: { type: 'string', default: '1' },
    'write-seconds': { type: 'string', default: '5' },
    'in-flight': { type: 'string', default: '64' },
  },
});
const NODES = Number(values.nodes);
const DEVICES = Number(values.devices);
const SECONDS = Number(values.seconds);
const HEARTBEAT = Number(values.heartbeat);
const NOTIFICATIONS = Number(values.notifications);
const RUNS = Number(values.runs);
const WRITE_SECONDS = Number(values['write-seconds']);
const IN_FLIGHT = Number(values['in-flight']);
const TOKEN = 'fleet-cluster-bench-token-0123';
const TARGET = { devices: 10_000, fanoutOfFloor: 2, heartbeatP99Ms: 100, writesOfOneNode: 1.6 };
// HAProxy holds two files per connection: this machine's limit of 20,000 open files a process
// caps one HAProxy at 9,900 connections, so the devices' WebSockets go through as many HAProxy
// processes as they need, each in front of every node (as several load balancers would be), the
// heartbeats and the API through the last of them.
const MAXCONN = 9_900;
const FRONTS = Math.ceil((DEVICES + 500) / MAXCONN);

const server = durablePostgresServer();
buildServiceIfStale();
if (!haproxyInstalled) throw new Error('bench/fleet --nodes needs HAProxy (apt-get install haproxy)');

interface Cluster {
  /** HAProxy in front of every node (the API's and the heartbeats'). */
  all: string;
  /** Every HAProxy in front of every node, `all` last: the devices' sockets go to each in turn. */
  fronts: string[];
  /** HAProxy in front of the first node alone. */
  alone: string;
  pids: number[];
}

/** NODES nodes on a fresh database, behind HAProxy (and the first node behind one of its own). */
async function onCluster<T>(work: (cluster: Cluster) => Promise<T>): Promise<T> {
  const database = await createTestDatabase(server);
  const ports = await Promise.all(Array.from({ length: NODES }, () => freePort()));
  const nodes = [];
  const proxies = [];
  try {
    for (const port of ports)
      nodes.push(await startNode(database.url, port, TOKEN, ['--log-level', 'error'], 'built'));
    for (let front = 0; front < FRONTS; front++) {
      const port = await freePort();
      proxies.push(await startHaproxy(await haproxyConfig(port, ports, { maxconn: MAXCONN }), port));
    }
    const alonePort = await freePort();
    const fronts = proxies.map((proxy) => proxy.url);
    proxies.push(await startHaproxy(await haproxyConfig(alonePort, ports.slice(0, 1)), alonePort));
    const [all, alone] = [fronts.at(-1) ?? '', proxies.at(-1)?.url ?? ''];
    await Promise.all([...fronts, alone].map((url) => healthy(url, 60_000)));
    return await work({ all, fronts, alone, pids: nodes.map((node) => node.child.pid ?? 0) });
  } finally {
    await Promise.all(proxies.map((proxy) => proxy.stop()));
    await Promise.all(nodes.map((node) => node.stop()));
    await database.drop();
  }
}

const figures: Figure[] = [];
const lines: string[] = [];
const notifyThrough = (url: string) => async (n: number) =>
  (
    await apiRequest<{ id: string }>(url, TOKEN, 'POST', '/flows/fleet_cpu/notifications', {
      title: 'fanout',
      message: `n${n}`,
    })
  ).id;

/** One run: the fleet's heartbeats and a fan-out through the proxy, then the bare floor's fan-out. */
async function fleetRun(run: number, { all, fronts, pids }: Cluster): Promise<void> {
  const api = <T>(method: string, path: string, body?: unknown) =>
    apiRequest<T>(all, TOKEN, method, path, body);
  const playlist = await benchPlaylist(api, 'fleet_cpu', 'Fleet');
  await addDevices((body) => api('POST', '/devices', body), DEVICES, 'fleet', playlist);
  const audience = await openDevices(fronts, DEVICES, TOKEN, 'fleet');
  // Heartbeats spread over the interval, as a fleet's are, from a thread of their own.
  const heartbeats = new Worker(new URL('./heartbeat-worker.ts', import.meta.url), {
    workerData: { url: all, token: TOKEN, devices: DEVICES, heartbeat: HEARTBEAT, prefix: 'fleet' },
  });
  try {
    await new Promise((resolve) => setTimeout(resolve, HEARTBEAT * 1000));
    // Measured from here: the heartbeats of the window, not those of the fleet coming up.
    heartbeats.postMessage('reset');
    const loop = monitorEventLoopDelay();
    loop.enable();
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
      heartbeats.once('message', resolve);
      heartbeats.postMessage('report');
    });
    const cpu = (await Promise.all(pids.map(cpuSeconds))).map(
      (seconds, n) => ((seconds - (cpuStart[n] ?? 0)) / elapsed) * 100,
    );
    const fanout = await measureFanout(audience, DEVICES, NOTIFICATIONS, notifyThrough(all));
    await heartbeats.terminate();
    audience.close();

    const floor = await spawnFloor();
    let floorP99: number;
    try {
      const floorAudience = await openAudience(floor.url, DEVICES, TOKEN, connected);
      const floorFanout = await measureFanout(
        floorAudience,
        DEVICES,
        NOTIFICATIONS,
        notifyThrough(floor.url),
      );
      floorAudience.close();
      floorP99 = quantile(floorFanout.fromSent, 0.99);
    } finally {
      await floor.stop();
    }

    const heartbeatP99 = quantile(beats.latencies, 0.99);
    const fanoutP99 = quantile(fanout.fromSent, 0.99);
    lines.push(
      `run ${run} over ${elapsed.toFixed(0)} s: ` +
        pids
          .map(
            (_, n) =>
              `node ${n + 1} CPU ${(cpu[n] ?? 0).toFixed(1)}%, RSS peak ${(peak[n] ?? 0).toFixed(0)} MiB`,
          )
          .join('; '),
      `  heartbeats: ${beats.latencies.length} answered, ${beats.failures} failed; p50 ${formatMs(quantile(beats.latencies, 0.5))}, p99 ${formatMs(heartbeatP99)}`,
      `  fan-out from POST sent: p50 ${formatMs(quantile(fanout.fromSent, 0.5))}, p99 ${formatMs(fanoutP99)}, ${fanout.missing} missing; the floor's p99 ${formatMs(floorP99)}`,
      `  the bench's own thread of the devices' sockets: event-loop delay p99 ${formatMs(loop.percentile(99) / 1e6)} (the fan-out's arrivals are stamped there)`,
    );
    figures.push(
      {
        name: `run ${run}: heartbeat p99 (${beats.failures} failed)`,
        value: heartbeatP99,
        unit: 'ms',
        target: `< ${TARGET.heartbeatP99Ms} ms, none failed`,
        met: heartbeatP99 < TARGET.heartbeatP99Ms && beats.failures === 0,
      },
      {
        name: `run ${run}: fan-out p99 to ${DEVICES} devices (${fanout.missing} missing)`,
        value: fanoutP99,
        floor: floorP99,
        unit: 'ms',
        target: `ratio < ${TARGET.fanoutOfFloor}, none missing`,
        met: fanoutP99 < TARGET.fanoutOfFloor * floorP99 && fanout.missing === 0,
      },
      {
        name: `run ${run}: CPU of the ${NODES} nodes`,
        value: cpu.reduce((sum, one) => sum + one, 0),
        unit: '% of a core',
      },
    );
  } finally {
    await heartbeats.terminate();
  }
}

/**
 * Metric writes/s through the proxy of every node beside the first node's alone, in rounds of
 * about 1 s taken in turns.
 */
async function writeScaling({ all, alone }: Cluster): Promise<void> {
  await createWriteFlows(all, TOKEN);
  const rate = (url: string, seconds: number) =>
    throughput(seconds, IN_FLIGHT, loadTask(url, TOKEN, 'metrics'));
  await rate(alone, 0.5);
  await rate(all, 0.5);
  const rounds = Math.max(1, Math.round(WRITE_SECONDS));
  let [oneSum, allSum] = [0, 0];
  for (let round = 0; round < rounds; round++) {
    oneSum += await rate(alone, WRITE_SECONDS / rounds);
    allSum += await rate(all, WRITE_SECONDS / rounds);
  }
  const [one, every] = [oneSum / rounds, allSum / rounds];
  figures.push({
    name: `metric writes/s, ${IN_FLIGHT} in flight: ${NODES} nodes beside 1 node`,
    value: every,
    floor: one,
    unit: '/s',
    target: `ratio >= ${TARGET.writesOfOneNode}`,
    met: every / one >= TARGET.writesOfOneNode,
  });
}

for (let run = 1; run <= RUNS; run++) await onCluster((cluster) => fleetRun(run, cluster));
await onCluster(writeScaling);
process.stdout.write(
  [
    `bench/fleet --nodes ${NODES}: ${DEVICES} devices through HAProxy, heartbeat every ${HEARTBEAT} s, ${SECONDS} s measured per run,`,
    `${RUNS} runs, each on a fresh database; PostgreSQL fsync ${await fsyncOf(server)}; nodes run built (dist/); the floor`,
    `is a bare socket.io server sending to the same ${DEVICES} sockets, no proxy. Target at ${TARGET.devices} devices.`,
    ...lines,
    '\n',
  ].join('\n'),
);
await report(`fleet --nodes ${NODES}`, figures);
