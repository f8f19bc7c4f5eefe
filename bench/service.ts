// bench/service: the service as users start it (its own process, a fresh embedded data folder)
// beside its floor measured in the same run at the same concurrency (bench/service-floor.ts: bare
// Fastify + socket.io answering the same small JSON requests): start to /health, idle RSS,
// notification creations/s and metric writes/s, and a notification's fan-out to N sockets counted
// from its POST being sent. Prints each figure, its ratio to the floor, the target and whether it
// is met. Usage: npm run bench:service -- [--clients 1000] [--notifications 50] [--seconds 5]
//   [--concurrency 16] [--idle 5] [--database-url <url>]
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { spawnService, type ServiceProcess } from '../service/service-process';
import {
  addDevices,
  benchPlaylist,
  connected,
  measureFanout,
  openAudience,
  openDevices,
  type Fanout,
} from './fanout';
import { apiRequest, spawnFloor, treeRssMb, untilHealthy } from './processes';
import { formatMs, quantile, table, throughput } from './stats';

const { values } = parseArgs({
  options: {
    clients: { type: 'string', default: '1000' },
    notifications: { type: 'string', default: '50' },
    seconds: { type: 'string', default: '5' },
    concurrency: { type: 'string', default: '16' },
    idle: { type: 'string', default: '5' },
    'database-url': { type: 'string' },
  },
});
const CLIENTS = Number(values.clients);
const NOTIFICATIONS = Number(values.notifications);
const SECONDS = Number(values.seconds);
const CONCURRENCY = Number(values.concurrency);
const IDLE_SECONDS = Number(values.idle);
const DATABASE_URL = values['database-url'];
const TOKEN = 'bench-admin-token-0123456789';

/**
 * "Today": the embedded store (PGlite) before the SQLite store, measured on this machine by the
 * previous session with the bench of the time (which ran 16 concurrent requests, 5 s per rate).
 */
const TODAY = { date: '2026-11-23', notifications: 786, metricWrites: 1157 };
const TARGETS = { rateOfFloor: 0.4, rateOfToday: 5, idleRssOfFloor: 2, startOfFloor: 3, fanoutP99Ms: 100 };

/** The same request, with the same headers, to the service and to the floor. */
const request = <T>(base: string, method: string, path: string, body?: unknown) =>
  apiRequest<T>(base, TOKEN, method, path, body);

interface Figures {
  startMs: number;
  rssStartMb: number;
  rssIdleMb: number;
  rssLoadedMb: number;
  notificationsPerS: number;
  metricWritesPerS: number;
  fanout: Fanout;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const notify = (base: string, title: string, message: string) =>
  request<{ id: string }>(base, 'POST', '/flows/bench_cpu/notifications', { title, message, duration: 1 });
let metricValue = 0;
const rate = (base: string, kind: 'notifications' | 'metrics', seconds: number) =>
  throughput(seconds, CONCURRENCY, async () => {
    if (kind === 'notifications') await notify(base, 'Bench', 'rate');
    else await request(base, 'PUT', '/flows/bench_cpu/metrics', { value: (metricValue += 1) });
  });

/**
 * Requests/s of the floor and of the service: after 0.5 s of warm-up each, in rounds of about
 * 1 s taken in turn (floor, service, floor, ...) so that the machine's other load weighs on both
 * alike; each figure is the mean of its rounds, SECONDS in all.
 */
async function rates(floorUrl: string, serviceUrl: string, kind: 'notifications' | 'metrics') {
  await rate(floorUrl, kind, 0.5);
  await rate(serviceUrl, kind, 0.5);
  const rounds = Math.max(1, Math.round(SECONDS));
  let floorSum = 0;
  let serviceSum = 0;
  for (let round = 0; round < rounds; round++) {
    floorSum += await rate(floorUrl, kind, SECONDS / rounds);
    serviceSum += await rate(serviceUrl, kind, SECONDS / rounds);
  }
  return { floor: floorSum / rounds, service: serviceSum / rounds };
}

const ours: Partial<Figures> = {};
const base: Partial<Figures> = {}; // the floor's
const dataDir = await mkdtemp(join(tmpdir(), 'wallboard-bench-'));
const floorSpawned = performance.now();
const floor = await spawnFloor();
let service: ServiceProcess | undefined;
try {
  base.startMs = await untilHealthy(floor.url, floorSpawned);
  base.rssStartMb = await treeRssMb(floor.child.pid!);
  const storeArgs = DATABASE_URL ? ['--database-url', DATABASE_URL] : ['--data', dataDir];
  const serviceSpawned = performance.now();
  const started = await spawnService(['--port', '0', '--log-level', 'error', ...storeArgs], {
    WALLBOARD_ADMIN_TOKEN: TOKEN,
  });
  service = started;
  const api = <T>(method: string, path: string, body?: unknown) =>
    request<T>(started.url, method, path, body);
  ours.startMs = await untilHealthy(started.url, serviceSpawned);
  ours.rssStartMb = await treeRssMb(started.child.pid!);
  // Both idle side by side.
  await sleep(IDLE_SECONDS * 1000);
  [base.rssIdleMb, ours.rssIdleMb] = await Promise.all([
    treeRssMb(floor.child.pid!),
    treeRssMb(started.child.pid!),
  ]);

  const playlist = await benchPlaylist(api, 'bench_cpu', 'Bench');

  const notifications = await rates(floor.url, started.url, 'notifications');
  [base.notificationsPerS, ours.notificationsPerS] = [notifications.floor, notifications.service];
  const metricWrites = await rates(floor.url, started.url, 'metrics');
  [base.metricWritesPerS, ours.metricWritesPerS] = [metricWrites.floor, metricWrites.service];
  [base.rssLoadedMb, ours.rssLoadedMb] = await Promise.all([
    treeRssMb(floor.child.pid!),
    treeRssMb(started.child.pid!),
  ]);

  const floorAudience = await openAudience(floor.url, CLIENTS, TOKEN, connected);
  base.fanout = await measureFanout(floorAudience, CLIENTS, NOTIFICATIONS, async (n) => {
    return (await notify(floor.url, 'fanout', `n${n}`)).id;
  });
  floorAudience.close();
  await floor.stop();

  // N devices on the playlist, each with its own socket.
  await addDevices((body) => api('POST', '/devices', body), CLIENTS, 'bench', playlist);
  const audience = await openDevices(started.url, CLIENTS, TOKEN, 'bench');
  ours.fanout = await measureFanout(audience, CLIENTS, NOTIFICATIONS, async (n) => {
    return (await notify(started.url, 'fanout', `n${n}`)).id;
  });
  audience.close();
} finally {
  await Promise.all([service?.stop(), floor.stop()]);
  await rm(dataDir, { recursive: true, force: true });
}

process.stdout.write(`${report(ours as Figures, base as Figures)}\n`);

function report(ours: Figures, floor: Figures): string {
  const perS = (value: number) => `${Math.round(value).toLocaleString('en-US')}/s`;
  const mb = (value: number) => `${value.toFixed(1)} MB`;
  const verdict = (met: boolean) => (met ? 'met' : 'NOT met');
  type Row = [figure: string, ours: string, floor: string, ratio: string, target: string, met: string];
  const compared = (
    figure: string,
    show: (value: number) => string,
    mine: number,
    theirs: number,
    target: { most?: number; least?: number },
    theirsLabel = show(theirs),
  ): Row => {
    const ratio = mine / theirs;
    const met = target.least !== undefined ? ratio >= target.least : ratio <= (target.most ?? Infinity);
    const goal = target.least !== undefined ? `>= ${target.least}` : `<= ${target.most}`;
    return [figure, show(mine), theirsLabel, ratio.toFixed(2), goal, verdict(met)];
  };
  const info = (figure: string, mine: string, theirs: string): Row => [figure, mine, theirs, '', '', ''];
  const p99 = (fanout: Fanout) => quantile(fanout.fromSent, 0.99);

  const rows: Row[] = [
    ['figure', 'ours', 'floor', 'ratio', 'target', ''],
    compared('notification creations', perS, ours.notificationsPerS, floor.notificationsPerS, {
      least: TARGETS.rateOfFloor,
    }),
    compared('metric writes', perS, ours.metricWritesPerS, floor.metricWritesPerS, {
      least: TARGETS.rateOfFloor,
    }),
  ];
  if (!DATABASE_URL) {
    const today = (value: number) => `today ${perS(value)}`;
    rows.push(
      compared(
        'notification creations vs today',
        perS,
        ours.notificationsPerS,
        TODAY.notifications,
        {
          least: TARGETS.rateOfToday,
        },
        today(TODAY.notifications),
      ),
      compared(
        'metric writes vs today',
        perS,
        ours.metricWritesPerS,
        TODAY.metricWrites,
        {
          least: TARGETS.rateOfToday,
        },
        today(TODAY.metricWrites),
      ),
    );
  }
  rows.push(
    compared(`idle RSS (after ${IDLE_SECONDS} s idle)`, mb, ours.rssIdleMb, floor.rssIdleMb, {
      most: TARGETS.idleRssOfFloor,
    }),
    info('  RSS when /health first answers', mb(ours.rssStartMb), mb(floor.rssStartMb)),
    info('  RSS after the rates', mb(ours.rssLoadedMb), mb(floor.rssLoadedMb)),
    compared('start to /health', formatMs, ours.startMs, floor.startMs, { most: TARGETS.startOfFloor }),
    [
      `fan-out to ${CLIENTS} sockets, p99 from POST sent`,
      formatMs(p99(ours.fanout)),
      formatMs(p99(floor.fanout)),
      (p99(ours.fanout) / p99(floor.fanout)).toFixed(2),
      `< ${TARGETS.fanoutP99Ms} ms`,
      verdict(p99(ours.fanout) < TARGETS.fanoutP99Ms && ours.fanout.missing === 0),
    ],
    info(
      '  p50 from POST sent',
      formatMs(quantile(ours.fanout.fromSent, 0.5)),
      formatMs(quantile(floor.fanout.fromSent, 0.5)),
    ),
    info(
      '  last socket, p99 from POST sent',
      formatMs(quantile(ours.fanout.last, 0.99)),
      formatMs(quantile(floor.fanout.last, 0.99)),
    ),
    info('  deliveries missing after 5 s', String(ours.fanout.missing), String(floor.fanout.missing)),
  );

  const store = DATABASE_URL
    ? 'PostgreSQL (RSS: the service process only)'
    : 'embedded store, fresh data folder';
  return [
    `bench/service: the service (${store}) beside its floor (bare Fastify + socket.io),`,
    `each in its own process started the same way; Node ${process.version}; ${CONCURRENCY} concurrent requests,`,
    `${SECONDS} s per rate (in turns with the floor); ${NOTIFICATIONS} notifications fanned out.`,
    `Ratio: ours / floor (for rates higher is better, for memory and time lower). "Today": the`,
    `embedded store (PGlite) before the SQLite store, on this machine, ${TODAY.date}.`,
    '',
    table(rows),
  ].join('\n');
}
