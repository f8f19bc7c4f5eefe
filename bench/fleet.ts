// bench/fleet: N simulated devices, each a real DeviceAgent (HTTP heartbeats, socket.io, state
// store), in one process against one service (built, dist/); prints the service's CPU, memory and
// heartbeat latency through bench/report.ts.
// Usage: npm run bench:fleet -- [--devices 1000] [--seconds 90] [--heartbeat 30]. With --nodes 2
// or more: several nodes behind HAProxy (bench/fleet-cluster.ts).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { DeviceAgent } from '../src/agent/agent';
import { createNodeAgent } from '../src/agent/node-agent';
import type { Fetch, Logger, SystemInfo } from '../src/agent/ports';
import { cpuSeconds, rssMb } from './processes';
import { report } from './report';
import { buildServiceIfStale, spawnBuiltService } from './spawned';
import { formatMs, quantile } from './stats';

const { values } = parseArgs({
  // Options of bench/fleet-cluster.ts too, which runs with --nodes 2 or more.
  strict: false,
  options: {
    nodes: { type: 'string', default: '1' },
    devices: { type: 'string', default: '1000' },
    seconds: { type: 'string', default: '90' },
    heartbeat: { type: 'string', default: '30' },
  },
});
if (Number(values.nodes) > 1) {
  await import('./fleet-cluster');
  process.exit(0);
}
const DEVICES = Number(values.devices);
const SECONDS = Number(values.seconds);
const HEARTBEAT = Number(values.heartbeat);
const TOKEN = 'fleet-bench-admin-token-0123';
const HEARTBEAT_P99_MS = 100;

/** Simulated machines: systeminformation a thousand times over would measure this process, not the service. */
const simulated: SystemInfo = {
  machineId: async () => 'simulated',
  hostname: async () => 'simulated',
  snapshot: async () => ({
    os: 'Simulated 1.0',
    cpu_load: 10,
    memory: { total_bytes: 4e9, used_bytes: 1e9 },
    uptime_seconds: 1000,
  }),
};
const quiet: Logger = { info: () => undefined, warn: () => undefined, error: () => undefined };

const dir = await mkdtemp(join(tmpdir(), 'wallboard-fleet-'));
buildServiceIfStale();
const service = await spawnBuiltService(['--port', '0', '--no-mdns', '--data', join(dir, 'service')], {
  WALLBOARD_ADMIN_TOKEN: TOKEN,
});
const pid = service.child.pid ?? 0;
const latencies: number[] = [];
let failures = 0;
const timedFetch: Fetch = async (url, init) => {
  if (!url.endsWith('/heartbeat')) return fetch(url, init);
  const started = performance.now();
  try {
    const response = await fetch(url, init);
    latencies.push(performance.now() - started);
    if (!response.ok) failures += 1;
    return response;
  } catch (error) {
    failures += 1;
    throw error;
  }
};

const agents: DeviceAgent[] = [];
try {
  // Devices come up over one heartbeat interval, as a fleet powered on in the morning would.
  const spread = (HEARTBEAT * 1000) / DEVICES;
  for (let i = 0; i < DEVICES; i++) {
    const { agent } = createNodeAgent({
      config: {
        server: service.url,
        token: TOKEN,
        tag: `fleet-${i}`,
        name: `Fleet ${i}`,
        heartbeatSeconds: HEARTBEAT,
        cacheDir: join(dir, 'media'),
        cacheLimitBytes: 1e9,
      },
      dataDir: join(dir, `device-${i}`),
      mediaBaseUrl: '/media/',
      appVersion: 'fleet',
      log: quiet,
      fetch: timedFetch,
      system: simulated,
    });
    agents.push(agent);
    await agent.start();
    await new Promise((resolve) => setTimeout(resolve, spread));
  }
  latencies.length = 0;
  failures = 0;
  const cpuStart = await cpuSeconds(pid);
  const started = performance.now();
  let peakRss = 0;
  while (performance.now() - started < SECONDS * 1000) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    peakRss = Math.max(peakRss, await rssMb(pid));
  }
  const cpuUsed = (await cpuSeconds(pid)) - cpuStart;
  const elapsed = (performance.now() - started) / 1000;
  const online = (
    (await (
      await fetch(`${service.url}/devices`, { headers: { authorization: `Bearer ${TOKEN}` } })
    ).json()) as {
      online: boolean;
    }[]
  ).filter((device) => device.online).length;
  const lines = [
    `bench/fleet: ${DEVICES} devices, heartbeat every ${HEARTBEAT} s (±10%), measured over ${elapsed.toFixed(0)} s`,
    `service CPU: ${((cpuUsed / elapsed) * 100).toFixed(1)}% of one core`,
    `service memory (RSS, peak): ${peakRss.toFixed(0)} MiB`,
    `heartbeats: ${latencies.length} answered, ${failures} failed; latency p50 ${formatMs(quantile(latencies, 0.5))}, p99 ${formatMs(quantile(latencies, 0.99))}`,
    `devices online at the end: ${online} of ${DEVICES}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n\n`);
  const heartbeatP99 = quantile(latencies, 0.99);
  await report('fleet', [
    {
      name: `heartbeat p99, ${DEVICES} devices (${failures} failed)`,
      value: heartbeatP99,
      unit: 'ms',
      target: `< ${HEARTBEAT_P99_MS} ms, none failed`,
      met: heartbeatP99 < HEARTBEAT_P99_MS && failures === 0,
    },
    { name: `service CPU, ${DEVICES} devices`, value: (cpuUsed / elapsed) * 100, unit: '% of a core' },
    { name: `service RSS peak, ${DEVICES} devices`, value: peakRss, unit: 'MB' },
    { name: `devices online at the end, of ${DEVICES}`, value: online, unit: 'devices' },
  ]);
} finally {
  await Promise.all(agents.map((agent) => agent.stop().catch(() => undefined)));
  await service.stop();
  await rm(dir, { recursive: true, force: true });
}
