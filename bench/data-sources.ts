// bench/data-sources: 1,000 flows fed from 100 JSON documents every 10 s on one node of the built
// service (dist/service/server.mjs, a fresh embedded data folder each), first through data sources
// (100 `json` sources, 10 bindings each), then, on another fresh service in the same run, through
// the service's own scripts (1,000 scripts, each GETting its document with wallboard/http and
// returning its number): what a user ran before data sources. The documents are served by a
// loopback HTTP server in this process; 10 screens (socket.io device connections, each playing a
// board of 100 of the flows) see every write. Over a window after the first full round: the
// service's CPU (its process and its children: the script hosts), flows refreshed per second, and
// the time from a document's change to a screen's event. Figures through bench/report.ts.
// Usage: npm run bench:data-sources -- [--seconds 30]   (or WALLBOARD_BENCH_DATA_SOURCES_SECONDS)
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ScreenLog, serveDocuments, timesOf, type World } from './data-sources-world';
import { openAudience, type BenchApi } from './fanout';
import { apiRequest, treeCpuSeconds } from './processes';
import { report } from './report';
import { buildServiceIfStale, spawnBuiltService } from './spawned';
import { quantile, table } from './stats';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: process.env.WALLBOARD_BENCH_DATA_SOURCES_SECONDS ?? '30' },
  },
});
const SECONDS = Number(values.seconds);
const SOURCES = 100;
const PER_SOURCE = 10;
const FLOWS = SOURCES * PER_SOURCE;
const INTERVAL_S = 10;
const INTERVAL_MS = INTERVAL_S * 1000;
const EXPECTED_PER_S = FLOWS / INTERVAL_S;
/** A board of 100 widgets (a 32 x 20 grid of 3 x 2 widgets): 10 screens show every flow. */
const SCREENS = FLOWS / 100;
const CHANGES_PER_S = 10;
/** Changes stop this long before the window ends, so that one interval and some carries the last. */
const CHANGES_STOP_MS = 1.5 * INTERVAL_MS;
if (!(SECONDS * 1000 > CHANGES_STOP_MS)) {
  throw new Error(
    `--seconds must be more than ${CHANGES_STOP_MS / 1000}: the changes stop that long before the end`,
  );
}
/** After the window, changes still awaited are waited for this long, then counted missed. */
const DRAIN_MS = 2 * INTERVAL_MS;
/**
 * The first round ends when every flow was written once, or when no flow was written for the
 * first time for this long (some are never written: the window is measured all the same).
 */
const FIRST_ROUND_STALL_MS = 1.5 * INTERVAL_MS;
const TOKEN = 'bench-admin-token-0123456789';
/**
 * Both services start alike: scripts may reach loopback (the documents' server), and the caps on
 * an account's scripts are raised so that the floor's 1,000 scripts are neither refused nor
 * stopped by the hour's script time (1,000,000 s is the most the option takes).
 */
const SERVICE_ARGS = [
  ...['--port', '0', '--no-mdns', '--scripts-http-allow', 'loopback'],
  ...['--scripts-enabled-per-account', `${2 * FLOWS}`, '--script-seconds-per-hour', '1000000'],
];
/** Target: a refresh through a source costs at most this share of a script's. */
const CPU_SHARE_TARGET = 0.5;
/** Target: the service's own part of a change's way to the screen, p99. */
const OWN_P99_TARGET_MS = 1000;
/** Target: refreshes per second at least this share of the expected. */
const RATE_SHARE_TARGET = 0.95;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
const tagOf = (source: number, n: number) => `ds-${source}-${n}`;

/** Busy time of all the machine's CPUs, in ms, whatever runs there. */
const machineBusyMs = () =>
  cpus().reduce((sum, { times }) => sum + times.user + times.nice + times.sys + times.irq, 0);

/** Runs `task` for 0..count-1, `concurrency` at once. */
async function pool(count: number, concurrency: number, task: (index: number) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let index = next++; index < count; index = next++) await task(index);
    }),
  );
}

/** The 1,000 `value` flows on 10 boards of 100 widgets, each board the playlist of a device of its own. */
async function seedScreens(api: BenchApi): Promise<void> {
  for (let screen = 0; screen < SCREENS; screen++) {
    const widgets = Array.from({ length: 100 }, (_, index) => ({
      flow: { tag: tagOf(screen * 10 + Math.floor(index / 10), index % 10), data: { value: 0 } },
      variant: 'value',
      column: (index % 10) * 3,
      row: Math.floor(index / 10) * 2,
      width: 3,
      height: 2,
    }));
    const board = await api<{ id: string }>('POST', '/boards/import', { name: `Sources ${screen}`, widgets });
    const playlist = await api<{ id: string }>('POST', '/playlists', {
      name: `Sources ${screen}`,
      items: [{ type: 'board', board_id: board.id, duration: 3600 }],
    });
    await api('POST', '/devices', { tag: `ds-screen-${screen}`, playlist_id: playlist.id });
  }
}

/** Ours: a `json` source per document, and a binding per number of it (one shared query). */
async function feedBySources(api: BenchApi, world: World): Promise<void> {
  await pool(SOURCES, 4, async (source) => {
    const created = await api<{ id: string }>('POST', '/data-sources', {
      name: `Document ${source}`,
      kind: 'json',
      url: `${world.url}/doc/${source}`,
      interval_seconds: INTERVAL_S,
      allow_private: true,
    });
    for (let n = 0; n < PER_SOURCE; n++) {
      await api('POST', '/data-bindings', {
        source_id: created.id,
        flow: tagOf(source, n),
        query: 'values',
        mapping: { value: `[${n}]` },
      });
    }
  });
}

/**
 * The floor: a script per flow, as a user wrote it before data sources. Each GETs its document
 * (its URL names the flow in a query string the server ignores, so its requests are told apart).
 */
async function feedByScripts(api: BenchApi, world: World): Promise<void> {
  await pool(FLOWS, 4, async (index) => {
    const source = Math.floor(index / PER_SOURCE);
    const n = index % PER_SOURCE;
    const url = `${world.url}/doc/${source}?flow=${n}`;
    await api('POST', '/scripts', {
      name: `Feed ${tagOf(source, n)}`,
      flow_tag: tagOf(source, n),
      interval: `${INTERVAL_S}s`,
      code: [
        "const http = require('wallboard/http');",
        `const document = await http.getJson(${JSON.stringify(url)});`,
        `return { value: document.values[${n}] };`,
      ].join('\n'),
    });
  });
}

interface Measured {
  label: string;
  setupS: number;
  /** From the feed's setup done to every flow's first write seen on a screen; NaN if not all came. */
  firstRoundS: number;
  windowS: number;
  cpuS: number;
  machineBusyPercent: number;
  requests: number;
  /** Flows refreshed: each request refreshes the flows it feeds (a source's 10, a script's 1). */
  refreshes: number;
  /**
   * Flows refreshed per second, each URL at the pace of its requests in the window (the flows it
   * feeds over its mean period). Unlike the count, it does not hang on where the window's edges
   * fall: refreshes that started together (a source's first ones do) fall in or out of it together.
   */
  cadence: number;
  /** Flows written, as the screens saw them: a refresh to unchanged data writes nothing. */
  updates: number;
  times: { total: number[]; fromDue: number[]; fromFetch: number[] };
  changes: number;
  missed: number;
  /** Time from a URL's request in the window to its request before, in ms. */
  periods: number[];
  /** The URLs the feed requests, and how many of them were not requested in the window. */
  urls: number;
  unrequested: number;
}

/** One fresh service fed by `feed`, measured over the window. */
async function measure(
  label: string,
  feed: (api: BenchApi, world: World) => Promise<void>,
  keyOf: (source: number, n: number) => string,
  flowsPerRequest: number,
): Promise<Measured> {
  const world = await serveDocuments(SOURCES, PER_SOURCE);
  const dir = await mkdtemp(join(tmpdir(), 'wallboard-data-sources-'));
  const service = await spawnBuiltService([...SERVICE_ARGS, '--data', dir], { WALLBOARD_ADMIN_TOKEN: TOKEN });
  const log = new ScreenLog();
  let audience: { close(): void } | undefined;
  try {
    const api: BenchApi = (method, path, body) => apiRequest(service.url, TOKEN, method, path, body);
    await seedScreens(api);
    audience = await openAudience(service.url, SCREENS, TOKEN, (socket, index) => {
      socket.on('event', (event) => log.onEvent(event));
      return socket.emitWithAck('hello', { device_tag: `ds-screen-${index}`, last_event_id: null });
    });
    const setupStart = performance.now();
    await feed(api, world);
    const fed = performance.now();
    for (let seen = 0, since = fed; log.flowsSeen.size < FLOWS; await sleep(100)) {
      if (log.flowsSeen.size > seen) [seen, since] = [log.flowsSeen.size, performance.now()];
      else if (performance.now() - since > FIRST_ROUND_STALL_MS) break;
    }
    const firstRoundS = log.flowsSeen.size < FLOWS ? Number.NaN : (performance.now() - fed) / 1000;
    process.stdout.write(
      `${label}: set up in ${((fed - setupStart) / 1000).toFixed(1)} s; ${log.flowsSeen.size} of ${FLOWS} flows ` +
        `written ${Number.isNaN(firstRoundS) ? `(none more in ${FIRST_ROUND_STALL_MS / 1000} s)` : `in ${firstRoundS.toFixed(1)} s`}\n`,
    );

    const pid = service.child.pid ?? 0;
    const before = {
      cpu: await treeCpuSeconds(pid),
      busy: machineBusyMs(),
      requests: world.total(),
      events: log.events,
    };
    const start = performance.now();
    const end = start + SECONDS * 1000;
    // Changes spread over the window, each to the next flow of a walk that visits every flow once
    // in a thousand steps (367 is prime to 1,000), so one flow never awaits two.
    for (let made = 0; performance.now() < end - CHANGES_STOP_MS; made++) {
      const flow = (made * 367) % FLOWS;
      const source = Math.floor(flow / PER_SOURCE);
      const n = flow % PER_SOURCE;
      const key = keyOf(source, n);
      const value = 1_000_000 + made;
      const change = { tag: tagOf(source, n), key, value, at: performance.now() };
      if (log.expect({ ...change, requestsBefore: world.requests.get(key)?.length ?? 0 })) {
        (world.values[source] as number[])[n] = value;
      }
      await sleep(start + ((made + 1) * 1000) / CHANGES_PER_S - performance.now());
    }
    await sleep(end - performance.now());
    const windowS = (performance.now() - start) / 1000;
    const cpuS = (await treeCpuSeconds(pid)) - before.cpu;
    const busy = machineBusyMs() - before.busy;
    const requests = world.total() - before.requests;
    const updates = log.events - before.events;
    // A script may run less often than the window is long: each request in the window counts
    // with the one before it, wherever that was.
    const periodsOf = (list: number[]) =>
      list.flatMap((at, index) =>
        index > 0 && at >= start && at <= end ? [at - (list[index - 1] as number)] : [],
      );
    const periods = [...world.requests.values()].flatMap(periodsOf);
    // Each URL at the pace of its own requests in the window: the flows it feeds over its mean period.
    const cadence = [...world.requests.values()].reduce((sum, list) => {
      const own = periodsOf(list);
      return own.length === 0
        ? sum
        : sum + (1000 * flowsPerRequest * own.length) / own.reduce((a, b) => a + b);
    }, 0);
    const keys = Array.from({ length: FLOWS }, (_, flow) =>
      keyOf(Math.floor(flow / PER_SOURCE), flow % PER_SOURCE),
    );
    const unrequested = [...new Set(keys)].filter(
      (key) => !(world.requests.get(key) ?? []).some((at) => at >= start && at <= end),
    );
    if (unrequested.length > 0) {
      process.stdout.write(
        `${label}: ${unrequested.length} URLs not requested in the window: ${unrequested.slice(0, 12).join(' ')}` +
          `${unrequested.length > 12 ? ' ...' : ''}\n`,
      );
    }
    const drained = performance.now();
    while (log.waiting > 0 && performance.now() - drained < DRAIN_MS) await sleep(100);

    const times = { total: [] as number[], fromDue: [] as number[], fromFetch: [] as number[] };
    for (const change of log.changes) {
      const one = timesOf(change, world.requests.get(change.key) ?? [], INTERVAL_MS);
      if (!one) continue;
      times.total.push(one.total);
      times.fromDue.push(one.fromDue);
      times.fromFetch.push(one.fromFetch);
    }
    return {
      label,
      setupS: (fed - setupStart) / 1000,
      firstRoundS,
      windowS,
      cpuS,
      machineBusyPercent: (100 * busy) / (windowS * 1000 * cpus().length),
      requests,
      refreshes: requests * flowsPerRequest,
      cadence,
      updates,
      times,
      changes: log.changes.length,
      missed: log.changes.length - times.total.length,
      periods,
      urls: new Set(keys).size,
      unrequested: unrequested.length,
    };
  } finally {
    audience?.close();
    await service.stop();
    await world.close();
    await rm(dir, { recursive: true, force: true });
  }
}

buildServiceIfStale();
const loadBefore = loadavg();
process.stdout.write(
  [
    `bench/data-sources: ${FLOWS} value flows from ${SOURCES} JSON documents (${PER_SOURCE} numbers each) every ` +
      `${INTERVAL_S} s, on ${SCREENS} screens;`,
    `the built service, a fresh embedded store each, Node ${process.version}, ${cpus().length} CPUs, ` +
      `load average ${loadBefore.map((one) => one.toFixed(2)).join(' ')}; a ${SECONDS} s window after the first round,`,
    `${CHANGES_PER_S} document changes a second until ${CHANGES_STOP_MS / 1000} s before its end; both services ` +
      `run with ${SERVICE_ARGS.slice(3).join(' ')} (for the floor)`,
    '',
  ].join('\n'),
);
const ours = await measure('data sources', feedBySources, (source) => `/doc/${source}`, PER_SOURCE);
const floor = await measure('scripts', feedByScripts, (source, n) => `/doc/${source}?flow=${n}`, 1);

const perSecond = (m: Measured) => m.refreshes / m.windowS;
const cpuPercent = (m: Measured) => (100 * m.cpuS) / m.windowS;
const cpuPerRefresh = (m: Measured) => (1000 * m.cpuS) / m.refreshes;
const q = (list: number[], at: number) => quantile(list, at);
const ms = (value: number) => (Number.isNaN(value) ? '-' : `${value.toFixed(0)} ms`);
const column = (name: string, of: (m: Measured) => string) => [name, of(ours), of(floor)];
const pair = (list: (m: Measured) => number[]) => (m: Measured) =>
  `${ms(q(list(m), 0.5))} / ${ms(q(list(m), 0.99))}`;
const rows = [
  ['', 'data sources', 'scripts (floor)'],
  column('service CPU (process and children), % of one core', (m) => `${cpuPercent(m).toFixed(1)} %`),
  column('CPU per flow refreshed', (m) => `${cpuPerRefresh(m).toFixed(2)} ms`),
  column(`flows refreshed/s, each at its pace (expected ${EXPECTED_PER_S})`, (m) => m.cadence.toFixed(1)),
  column('flows refreshed in the window / its seconds', (m) => perSecond(m).toFixed(1)),
  column('flows written/s (unchanged data is not written)', (m) => (m.updates / m.windowS).toFixed(1)),
  column('HTTP requests/s to the documents', (m) => (m.requests / m.windowS).toFixed(1)),
  column('URLs requested in the window', (m) => `${m.urls - m.unrequested} of ${m.urls}`),
  column(
    'a URL requested every, p50 / p99',
    pair((m) => m.periods),
  ),
  column(
    'change to screen, p50 / p99',
    pair((m) => m.times.total),
  ),
  column(
    '  from due (the service), p50 / p99',
    pair((m) => m.times.fromDue),
  ),
  column(
    '  from its fetch, p50 / p99',
    pair((m) => m.times.fromFetch),
  ),
  column('changes seen / made', (m) => `${m.changes - m.missed} / ${m.changes}`),
  column('set up; first round', (m) => `${m.setupS.toFixed(1)} s; ${m.firstRoundS.toFixed(1)} s`),
  column('machine busy in the window (all CPUs)', (m) => `${m.machineBusyPercent.toFixed(0)} %`),
];
const loadAfter = loadavg();
process.stdout.write(
  `\n${table(rows)}\nload average after: ${loadAfter.map((one) => one.toFixed(2)).join(' ')}\n` +
    "'from due': from the later of the change and the time the flow's refresh was next due (its URL's " +
    `request before the change + ${INTERVAL_S} s), i.e. what the service adds to the wait for its interval.\n\n`,
);

const ownP99 = q(ours.times.fromDue, 0.99);
await report('data-sources', [
  {
    name: 'service CPU (process and children) over the window, % of one core',
    value: cpuPercent(ours),
    floor: cpuPercent(floor),
    unit: '%',
  },
  {
    name: 'service CPU per flow refreshed',
    value: cpuPerRefresh(ours),
    floor: cpuPerRefresh(floor),
    unit: 'ms',
    target: `<= ${CPU_SHARE_TARGET} x floor`,
    met: cpuPerRefresh(ours) <= CPU_SHARE_TARGET * cpuPerRefresh(floor),
  },
  {
    name: `flows refreshed/s, each at its pace (${FLOWS} every ${INTERVAL_S} s: ${EXPECTED_PER_S}/s expected)`,
    value: ours.cadence,
    floor: floor.cadence,
    unit: '/s',
    target: `>= ${RATE_SHARE_TARGET * EXPECTED_PER_S} /s`,
    met: ours.cadence >= RATE_SHARE_TARGET * EXPECTED_PER_S,
  },
  {
    name: 'document change to screen, p50',
    value: q(ours.times.total, 0.5),
    floor: q(floor.times.total, 0.5),
    unit: 'ms',
  },
  {
    name: `document change to screen, p99 (up to one interval, ${INTERVAL_S} s, is the schedule's)`,
    value: q(ours.times.total, 0.99),
    floor: q(floor.times.total, 0.99),
    unit: 'ms',
  },
  {
    name: `the service's own part, from the refresh due to screen, p99 (${ours.missed} of ${ours.changes} missed)`,
    value: ownP99,
    floor: q(floor.times.fromDue, 0.99),
    unit: 'ms',
    target: `< ${OWN_P99_TARGET_MS} ms, none missed`,
    met: ownP99 < OWN_P99_TARGET_MS && ours.missed === 0,
  },
]);
