// bench/presence: what idle screens cost the service. N screens (socket.io clients in processes of
// their own, each saying hello as a device) hold their sockets open and do nothing while the
// service (its built bundle, a fresh embedded data folder) keeps them: its CPU over a window,
// per socket. Beside it in the same window, three bare socket.io servers (bench/presence-floor.ts)
// each holding N idle sockets the same way: with socket.io's defaults (a ping every 25 s), with
// the service's ping settings, and with the 5 s ping the service had before.
// Usage: npm run bench:presence -- [--sockets 2000] [--seconds 30] [--spread 25] [--settle 10]
// The screens open over `spread` seconds, the longest ping interval, so that each server's pings
// are spread evenly and a window of any length sees their true rate.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { PING_INTERVAL_MS, PING_TIMEOUT_MS } from '../service/realtime/presence';
import { spawnListening, type ServiceProcess } from '../service/service-process';
import { addDevices, benchPlaylist } from './fanout';
import { apiRequest, cpuSeconds } from './processes';
import { report, type Figure } from './report';
import { buildServiceIfStale, spawnBuiltService } from './spawned';

const { values } = parseArgs({
  options: {
    sockets: { type: 'string', default: '2000' },
    seconds: { type: 'string', default: '30' },
    spread: { type: 'string', default: '25' },
    settle: { type: 'string', default: '10' },
  },
});
const SOCKETS = Number(values.sockets);
const SECONDS = Number(values.seconds);
const SPREAD_MS = Number(values.spread) * 1000;
const SETTLE_MS = Number(values.settle) * 1000;
const TOKEN = 'bench-admin-token-0123456789';
const BEFORE = { interval: 5_000, timeout: 5_000 };
/**
 * The pings a 15 s promise needs cost what socket.io's own do at the same settings, with little
 * more for the service's part; pinging every 9 s instead of 5 s costs about 5/9 of before.
 */
const TARGETS = { ofDefaults: 3.5, ofSameSettings: 1.3, ofBefore: 0.7 };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A bare socket.io server with socket.io's defaults, or the ping settings given. */
const spawnBare = (ping?: { interval: number; timeout: number }) =>
  spawnListening(
    [
      'bench/presence-floor.ts',
      ...(ping ? ['--ping-interval', `${ping.interval}`, '--ping-timeout', `${ping.timeout}`] : []),
    ],
    {},
    'a bare socket.io server',
  );

interface Screens {
  child: ChildProcess;
  disconnects(): Promise<number>;
}

/** SOCKETS idle screens on `url` (saying hello as `<prefix>-<n>` when a prefix is given), once open. */
async function openScreens(url: string, prefix?: string): Promise<Screens> {
  const child = spawn(
    process.execPath,
    [
      fileURLToPath(new URL('./presence-clients.ts', import.meta.url)),
      ...['--url', url, '--count', `${SOCKETS}`, '--token', TOKEN, '--spread', `${SPREAD_MS}`],
      ...(prefix === undefined ? [] : ['--prefix', prefix]),
    ],
    { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
  const [ready] = (await Promise.race([
    once(child, 'message'),
    once(child, 'exit').then(([code]) =>
      Promise.reject(new Error(`the screens of ${url} exited with ${code}`)),
    ),
  ])) as [{ ready: number }];
  if (ready.ready !== SOCKETS) throw new Error(`${url}: ${ready.ready} of ${SOCKETS} screens open`);
  return {
    child,
    async disconnects() {
      const answer = once(child, 'message') as Promise<[{ disconnects: number }]>;
      child.send('report');
      return (await answer)[0].disconnects;
    },
  };
}

interface Server {
  name: string;
  process: ServiceProcess;
  screens?: Screens;
  cpu?: number;
  dropped?: number;
}

buildServiceIfStale();
const dataDir = await mkdtemp(join(tmpdir(), 'wallboard-bench-presence-'));
const servers: Server[] = [];
try {
  const service = await spawnBuiltService(['--port', '0', '--data', dataDir], {
    WALLBOARD_ADMIN_TOKEN: TOKEN,
  });
  servers.push({ name: 'the service', process: service });
  servers.push({ name: 'defaults', process: await spawnBare() });
  const ours = { interval: PING_INTERVAL_MS, timeout: PING_TIMEOUT_MS };
  servers.push({ name: 'same settings', process: await spawnBare(ours) });
  servers.push({ name: 'before', process: await spawnBare(BEFORE) });

  // The service's screens are devices playing a playlist, as a fleet's are.
  const api = <T>(method: string, path: string, body?: unknown) =>
    apiRequest<T>(service.url, TOKEN, method, path, body);
  const playlist = await benchPlaylist(api, 'bench_presence', 'Presence');
  await addDevices((body) => api('POST', '/devices', body), SOCKETS, 'idle', playlist);

  await Promise.all(
    servers.map(async (server, index) => {
      server.screens = await openScreens(server.process.url, index === 0 ? 'idle' : undefined);
    }),
  );
  // The hellos' work done, and the garbage of the handshakes collected: a server's pings cost
  // more for some seconds after its last connection.
  await sleep(SETTLE_MS);
  const pids = servers.map((server) => server.process.child.pid as number);
  const before = await Promise.all(pids.map(cpuSeconds));
  await sleep(SECONDS * 1000);
  const after = await Promise.all(pids.map(cpuSeconds));
  for (const [index, server] of servers.entries()) {
    server.cpu = (after[index] as number) - (before[index] as number);
    server.dropped = await server.screens?.disconnects();
  }
} finally {
  for (const server of servers) server.screens?.child.kill();
  await Promise.all(servers.map((server) => server.process.stop()));
  await rm(dataDir, { recursive: true, force: true });
}

/** Microseconds of CPU per idle socket per second of the window (x 100,000 / 10^6: cores for 100,000). */
const perSocket = (server: Server | undefined) => ((server?.cpu ?? Number.NaN) * 1e6) / SECONDS / SOCKETS;
const [service, defaults, same, before] = servers.map(perSocket) as [number, number, number, number];
const unit = 'µs CPU/s per socket';
const compared = (name: string, floor: number, most: number): Figure => ({
  name,
  value: service,
  floor,
  unit,
  target: `ratio <= ${most}`,
  met: service / floor <= most,
});
const dropped = servers.reduce((sum, server) => sum + (server.dropped ?? 0), 0);
process.stdout.write(
  `bench/presence: ${SOCKETS} idle sockets for ${SECONDS} s; the service pings every ${PING_INTERVAL_MS / 1000} s ` +
    `(timeout ${PING_TIMEOUT_MS / 1000} s); floors: bare socket.io with its defaults, at the same ping, at the former 5 s\n`,
);
await report('presence', [
  compared("idle socket vs socket.io's defaults (25 s ping)", defaults, TARGETS.ofDefaults),
  compared(
    `idle socket vs socket.io at the same ping (${PING_INTERVAL_MS / 1000} s)`,
    same,
    TARGETS.ofSameSettings,
  ),
  compared('idle socket vs socket.io at the former 5 s ping', before, TARGETS.ofBefore),
  { name: 'cores for 100,000 idle screens', value: service / 10, floor: defaults / 10, unit: 'cores' },
  {
    name: 'sockets dropped in the window (all servers)',
    value: dropped,
    unit: '',
    target: '0',
    met: dropped === 0,
  },
]);
