// bench/service: the service as users run it (the built bundle, dist/service/server.mjs, in its
// own process, a fresh embedded data folder or PostgreSQL) beside floors measured in the same run:
// bare Fastify + socket.io (bench/service-floor.ts) bundled and run the same way, and on the
// embedded store the raw node:sqlite group-commit loop on the same disk (bench/sqlite-floor.ts).
// Start to /health, idle RSS, notification creations/s, metric writes/s at several numbers in
// flight with each process's event-loop delay and a GET /health's time beside the load, and a
// notification's fan-out to N sockets. Figures through bench/report.ts.
// Usage: npm run bench:service -- [--clients 1000] [--notifications 50] [--seconds 5]
//   [--concurrency 16,64,256] [--idle 5] [--starts 3] [--postgres | --database-url <url>]
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createTestDatabase } from '../service/test-support';
import { durablePostgresServer, fsyncOf } from './durable-postgres';
import { addDevices, benchPlaylist, connected, measureFanout, openAudience, openDevices } from './fanout';
import { apiRequest, treeRssMb, untilHealthy } from './processes';
import { report, type Figure } from './report';
import { createWriteFlows, loadRound, sqliteFloorRound, type LoadKind, type Round } from './service-load';
import { buildServiceIfStale, spawnBuiltService, spawnFloor, type Spawned } from './spawned';
import { quantile } from './stats';

const { values } = parseArgs({
  options: {
    clients: { type: 'string', default: '1000' },
    notifications: { type: 'string', default: '50' },
    seconds: { type: 'string', default: '5' },
    concurrency: { type: 'string', default: '16,64,256' },
    idle: { type: 'string', default: '5' },
    starts: { type: 'string', default: '3' },
    postgres: { type: 'boolean', default: false },
    'database-url': { type: 'string' },
  },
});
const CLIENTS = Number(values.clients);
const NOTIFICATIONS = Number(values.notifications);
const SECONDS = Number(values.seconds);
const IN_FLIGHT = values.concurrency.split(',').map(Number);
const IDLE_SECONDS = Number(values.idle);
const STARTS = Math.max(1, Number(values.starts));
const TOKEN = 'bench-admin-token-0123456789';
const TARGETS = {
  notificationsOfFloor: 0.4,
  sqliteWritesOfLowerFloor: 0.7,
  postgresWritesOfFloor: { inFlight: 64, ratio: 0.5 },
  loopDelayP99Ms: 10,
  healthOfFloor: 3,
  idleRssOfFloor: 2,
  startOfFloor: 3,
  fanoutP99Ms: 100,
};

const testDatabase = values.postgres ? await createTestDatabase(durablePostgresServer()) : undefined;
const DATABASE_URL = testDatabase?.url ?? values['database-url'];
buildServiceIfStale();
const dir = await mkdtemp(join(tmpdir(), 'wallboard-bench-'));
let dataFolders = 0;
const storeArgs = () =>
  DATABASE_URL ? ['--database-url', DATABASE_URL] : ['--data', join(dir, `service-${(dataFolders += 1)}`)];
// A compile cache of this run's own (tools/node-bundles.ts): the first start finds it empty, as
// the first start after an install does, and is printed beside the median.
const startService = (probe = false) =>
  spawnBuiltService(
    ['--port', '0', '--no-mdns', ...storeArgs()],
    { WALLBOARD_ADMIN_TOKEN: TOKEN, NODE_COMPILE_CACHE: join(dir, 'compile-cache') },
    { probe },
  );
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (list: number[]) => quantile(list, 0.5);
const figures: Figure[] = [];
const ratioAtMost = (value: number, floor: number, most: number) => ({
  target: `ratio <= ${most}`,
  met: value / floor <= most,
});
const ratioAtLeast = (value: number, floor: number, least: number) => ({
  target: `ratio >= ${least}`,
  met: value / floor >= least,
});

/** Start to /health, STARTS times each in turns; idle RSS after the last start. */
async function starts(): Promise<void> {
  const ours: number[] = [];
  const floors: number[] = [];
  for (let n = 1; n <= STARTS; n++) {
    const floorSpawned = performance.now();
    const floor = await spawnFloor();
    floors.push(await untilHealthy(floor.url, floorSpawned));
    const serviceSpawned = performance.now();
    const service = await startService();
    ours.push(await untilHealthy(service.url, serviceSpawned));
    if (n === STARTS) {
      await sleep(IDLE_SECONDS * 1000);
      const [floorRss, serviceRss] = await Promise.all([
        treeRssMb(floor.child.pid!),
        treeRssMb(service.child.pid!),
      ]);
      figures.push({
        name: `idle RSS (after ${IDLE_SECONDS} s idle)`,
        value: serviceRss,
        floor: floorRss,
        unit: 'MB',
        ...ratioAtMost(serviceRss, floorRss, TARGETS.idleRssOfFloor),
      });
    }
    await Promise.all([floor.stop(), service.stop()]);
  }
  figures.unshift(
    {
      name: `start to /health (median of ${STARTS})`,
      value: median(ours),
      floor: median(floors),
      unit: 'ms',
      ...ratioAtMost(median(ours), median(floors), TARGETS.startOfFloor),
    },
    {
      name: 'start to /health, the first (compile cache empty)',
      value: ours[0]!,
      floor: floors[0]!,
      unit: 'ms',
    },
  );
}

/**
 * Rounds of about 1 s in turns (floor, service, raw SQLite loop, ...): the machine's other load
 * weighs on all alike. Rates are the rounds' mean; the loop delay is the worst round's p99.
 */
async function inTurns(floor: Spawned, service: Spawned, kind: LoadKind, inFlight: number) {
  await loadRound(floor, TOKEN, kind, inFlight, 0.5);
  await loadRound(service, TOKEN, kind, inFlight, 0.5);
  const rounds = Math.max(1, Math.round(SECONDS));
  const floorRounds: Round[] = [];
  const serviceRounds: Round[] = [];
  const sqlite: number[] = [];
  for (let round = 0; round < rounds; round++) {
    floorRounds.push(await loadRound(floor, TOKEN, kind, inFlight, SECONDS / rounds));
    serviceRounds.push(await loadRound(service, TOKEN, kind, inFlight, SECONDS / rounds));
    if (kind === 'metrics' && !DATABASE_URL) {
      sqlite.push(await sqliteFloorRound(join(dir, 'sqlite-floor.db'), SECONDS / rounds));
    }
  }
  const summary = (list: Round[]) => ({
    perS: list.reduce((sum, round) => sum + round.perS, 0) / list.length,
    healthP99: quantile(
      list.flatMap((round) => round.healthMs),
      0.99,
    ),
    loopP99: Math.max(...list.map((round) => round.loop.p99)),
  });
  const sqlitePerS = sqlite.reduce((sum, perS) => sum + perS, 0) / Math.max(1, sqlite.length);
  return { floor: summary(floorRounds), service: summary(serviceRounds), sqlitePerS };
}

async function writes(floor: Spawned, service: Spawned): Promise<void> {
  const byInFlight = new Map<number, number>();
  for (const inFlight of IN_FLIGHT) {
    const measured = await inTurns(floor, service, 'metrics', inFlight);
    const ours = measured.service;
    byInFlight.set(inFlight, ours.perS);
    const name = `metric writes/s, ${inFlight} in flight`;
    if (DATABASE_URL) {
      const { inFlight: at, ratio } = TARGETS.postgresWritesOfFloor;
      figures.push({
        name: `${name}, vs bare Fastify + socket.io`,
        value: ours.perS,
        floor: measured.floor.perS,
        unit: '/s',
        ...(inFlight === at ? ratioAtLeast(ours.perS, measured.floor.perS, ratio) : {}),
      });
    } else {
      const lower = Math.min(measured.floor.perS, measured.sqlitePerS);
      for (const [label, floorPerS] of [
        ['bare Fastify + socket.io', measured.floor.perS],
        ['raw SQLite group commit', measured.sqlitePerS],
      ] as const) {
        figures.push({
          name: `${name}, vs ${label}`,
          value: ours.perS,
          floor: floorPerS,
          unit: '/s',
          // The target is against the lower of the two floors.
          ...(floorPerS === lower ? ratioAtLeast(ours.perS, lower, TARGETS.sqliteWritesOfLowerFloor) : {}),
        });
      }
    }
    figures.push({
      name: `event-loop delay p99 during the writes, ${inFlight} in flight`,
      value: ours.loopP99,
      floor: measured.floor.loopP99,
      unit: 'ms',
      ...(DATABASE_URL
        ? {}
        : { target: `< ${TARGETS.loopDelayP99Ms} ms`, met: ours.loopP99 < TARGETS.loopDelayP99Ms }),
    });
    figures.push({
      name: `GET /health p99 beside the writes, ${inFlight} in flight`,
      value: ours.healthP99,
      floor: measured.floor.healthP99,
      unit: 'ms',
      ...(DATABASE_URL ? {} : ratioAtMost(ours.healthP99, measured.floor.healthP99, TARGETS.healthOfFloor)),
    });
  }
  if (!DATABASE_URL) return;
  // On PostgreSQL the writes must rise with the number in flight, as the floor's do.
  for (const [fewer, more] of IN_FLIGHT.slice(1).map((n, index) => [IN_FLIGHT[index]!, n] as const)) {
    const rise = byInFlight.get(more)! / byInFlight.get(fewer)!;
    figures.push({
      name: `metric writes/s, ${more} in flight / ${fewer} in flight`,
      value: rise,
      unit: 'x',
      target: '> 1',
      met: rise > 1,
    });
  }
}

async function loads(): Promise<void> {
  const [floor, service] = await Promise.all([spawnFloor({ probe: true }), startService(true)]);
  try {
    await untilHealthy(service.url, performance.now());
    const api = <T>(method: string, path: string, body?: unknown) =>
      apiRequest<T>(service.url, TOKEN, method, path, body);
    const playlist = await benchPlaylist(api, 'bench_cpu', 'Bench');
    await createWriteFlows(service.url, TOKEN);
    const inFlight = IN_FLIGHT[0]!;
    const notifications = await inTurns(floor, service, 'notifications', inFlight);
    figures.push({
      name: `notification creations/s, ${inFlight} in flight`,
      value: notifications.service.perS,
      floor: notifications.floor.perS,
      unit: '/s',
      ...ratioAtLeast(notifications.service.perS, notifications.floor.perS, TARGETS.notificationsOfFloor),
    });
    await writes(floor, service);

    const notify = (url: string) => async (n: number) =>
      (
        await apiRequest<{ id: string }>(url, TOKEN, 'POST', '/flows/bench_cpu/notifications', {
          title: 'fanout',
          message: `n${n}`,
          duration: 1,
        })
      ).id;
    const floorAudience = await openAudience(floor.url, CLIENTS, TOKEN, connected);
    const floorFanout = await measureFanout(floorAudience, CLIENTS, NOTIFICATIONS, notify(floor.url));
    floorAudience.close();
    await addDevices((body) => api('POST', '/devices', body), CLIENTS, 'bench', playlist);
    const audience = await openDevices(service.url, CLIENTS, TOKEN, 'bench');
    const fanout = await measureFanout(audience, CLIENTS, NOTIFICATIONS, notify(service.url));
    audience.close();
    const p99 = quantile(fanout.fromSent, 0.99);
    figures.push({
      name: `fan-out to ${CLIENTS} sockets, p99 from POST sent (${fanout.missing} missing)`,
      value: p99,
      floor: quantile(floorFanout.fromSent, 0.99),
      unit: 'ms',
      target: `< ${TARGETS.fanoutP99Ms} ms, none missing`,
      met: p99 < TARGETS.fanoutP99Ms && fanout.missing === 0,
    });
  } finally {
    await Promise.all([floor.stop(), service.stop()]);
  }
}

try {
  const store = DATABASE_URL
    ? `PostgreSQL, fsync ${await fsyncOf(DATABASE_URL)} (RSS: the service process only)`
    : `embedded store, a fresh data folder in ${dir}`;
  process.stdout.write(
    [
      `bench/service: the built service (dist/service/server.mjs, ${store}) beside its floors, each`,
      `bundled and run by plain Node ${process.version}: bare Fastify + socket.io answering the same requests${DATABASE_URL ? '' : ','}`,
      ...(DATABASE_URL
        ? []
        : ['and a raw node:sqlite loop committing 16 metric-shaped writes per sync on the same disk.']),
      `${SECONDS} s per rate in rounds taken in turns; event-loop delay (the worst round's p99) measured inside`,
      'each process by a preloaded probe (bench/loop-probe.ts); GET /health asked one after another beside the load.',
      '\n',
    ].join('\n'),
  );
  await starts();
  await loads();
  await report(DATABASE_URL ? 'service (PostgreSQL)' : 'service', figures);
} finally {
  await rm(dir, { recursive: true, force: true });
  await testDatabase?.drop();
}
