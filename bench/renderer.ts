// bench/renderer: a 100-widget board (bench/renderer-board.ts) fed through the real path: metric
// writes over HTTP to the real service (its own process, from dist/), its socket to the real agent
// (the web player, its own process), the agent's WebSocket to the page in Debian's Chromium at
// 1920 x 1080. Beside it, in the same run, the floor: a bare page setting 100 divs' text from a
// WebSocket, one message an update, at the rate the service took the board's updates
// (bench/renderer-floor.ts, its own process). Both run twice: as they
// are, then at 4 x CPU throttling (CDP Emulation.setCPUThrottlingRate) standing in for a display
// computer. Prints first paint (board vs the bare page, static), main-thread busy share, frame
// times, frames over 50 ms, long tasks and JS heap growth, through bench/report.ts. Service, web
// player and renderer run from dist/, as the e2e tests do: `npm run build` first.
// Usage: npm run bench:renderer -- [--seconds 20] [--rate 1000] [--throttle 4] [--warmup 3]
//        [--loads 3]  (page loads each for the first paint, the median printed)
//        [--profile out.cpuprofile]  (a CPU profile of the board's updates, its top functions)
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { chromium, type Browser, type CDPSession, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium';
import { Stack } from '../e2e/stack';
import { startStandIns } from '../e2e/web-stand-ins';
import { spawnListening } from '../service/service-process';
import { benchBoard, WIDGET_COUNT } from './renderer-board';
import { writeMetrics, type Paced } from './renderer-feed';
import { firstPaint, heapUsed, installProbes, measure, type Complete, type Window } from './renderer-page';
import { topFunctions } from './renderer-profile';
import { report, type Figure } from './report';
import { quantile } from './stats';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '20' },
    rate: { type: 'string', default: '1000' },
    throttle: { type: 'string', default: '4' },
    warmup: { type: 'string', default: '3' },
    loads: { type: 'string', default: '3' },
    profile: { type: 'string' },
  },
});
const SECONDS = Number(values.seconds);
const RATE = Number(values.rate);
const THROTTLE = Number(values.throttle);
const WARMUP = Number(values.warmup);
const LOADS = Number(values.loads);
const VIEWPORT = { width: 1920, height: 1080 };
const FRAME_MS = 1000 / 60;
/** Writes in flight at most: more than the service answers in a frame, few enough not to queue seconds. */
const MAX_IN_FLIGHT = 256;

const BOARD_COMPLETE: Complete = {
  selector: 'section.widget',
  count: WIDGET_COUNT,
  empty: '.widget-face-empty',
};
const BARE_COMPLETE: Complete = { selector: '.cell', count: WIDGET_COUNT };

/** Updates that reached the page's side: the board's metric writes the service took, the bare page's messages. */
function updatesOf(run: Window & { feed: Paced & { failed?: number } }): number {
  return run.feed.failed === undefined ? run.messages : run.feed.sent - run.feed.failed;
}

interface Side {
  firstPaint: number;
  runs: Map<number, Window & { feed: Paced & { failed?: number } }>;
  heapGrowth?: number;
  profile?: string[];
}

async function openPage(browser: Browser, complete: Complete) {
  const context = await browser.newContext({ viewport: VIEWPORT });
  // Loopback only, as on a kiosk without a network.
  await context.route(
    (url) => !['127.0.0.1', 'localhost'].includes(url.hostname) && url.protocol !== 'data:',
    (route) => route.abort('blockedbyclient'),
  );
  await installProbes(context, complete);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  return { context, page, cdp };
}

/** The median first paint over LOADS loads of `url`. */
async function medianFirstPaint(page: Page, url: string): Promise<number> {
  const times: number[] = [];
  for (let load = 0; load < LOADS; load++) times.push(await firstPaint(page, url));
  return quantile(times, 0.5);
}

/** Runs the updates once unthrottled and once at THROTTLE, after a warm-up. */
async function runs(
  page: Page,
  cdp: CDPSession,
  /** Sends updates for `seconds`; `throttle` is the CPU throttling of the run, 0 for the warm-up. */
  feed: (seconds: number, throttle: number) => Promise<Paced & { failed?: number }>,
  side: Side,
) {
  // Start-up work (fonts, first chart draws, framed pages) settles, then every code path compiles.
  await page.waitForTimeout(1000);
  if (WARMUP > 0) await feed(WARMUP, 0);
  // The heap's baseline is the warmed-up board's steady state: growth past it is a leak.
  const heapBefore = await heapUsed(cdp);
  for (const rate of new Set([1, THROTTLE])) {
    await cdp.send('Emulation.setCPUThrottlingRate', { rate });
    let paced: (Paced & { failed?: number }) | undefined;
    const window = await measure(page, cdp, async () => (paced = await feed(SECONDS, rate)));
    side.runs.set(rate, { ...window, feed: paced! });
    if (rate === 1) side.heapGrowth = (await heapUsed(cdp)) / heapBefore - 1;
  }
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
}

const standIns = await startStandIns();
const { state, payloads } = benchBoard(standIns.pages);
const stack = await Stack.start('bench-renderer', [
  ...['--map-tiles', standIns.tiles, '--weather-url', standIns.weather],
]);
const floor = await spawnListening(['--import', 'tsx', 'bench/renderer-floor.ts'], {}, 'the bare page');
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
const board: Side = { firstPaint: 0, runs: new Map() };
const bare: Side = { firstPaint: 0, runs: new Map() };
try {
  const { boards } = state;
  const imported = await stack.api<{ id: string }>('POST', '/boards/import', Object.values(boards)[0]);
  const playlist = await stack.api<{ id: string }>('POST', '/playlists', {
    name: 'Bench',
    items: [{ type: 'board', board_id: imported.id, duration: 3600 }],
  });
  await stack.startPlayer();
  await stack.waitOnline();
  await stack.api('PATCH', `/devices/${stack.tag}`, { playlist_id: playlist.id });

  const writer = { serviceUrl: stack.serviceUrl, token: stack.admin, payloads, maxInFlight: MAX_IN_FLIGHT };
  {
    const { context, page, cdp } = await openPage(browser, BOARD_COMPLETE);
    board.firstPaint = await medianFirstPaint(page, stack.playerUrl);
    if (values.profile) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
    }
    await runs(page, cdp, (seconds) => writeMetrics(writer, seconds, RATE), board);
    if (values.profile) {
      const { profile } = await cdp.send('Profiler.stop');
      await writeFile(values.profile, JSON.stringify(profile));
      board.profile = topFunctions(profile, 25);
    }
    await context.close();
  }
  {
    const { context, page, cdp } = await openPage(browser, BARE_COMPLETE);
    bare.firstPaint = await medianFirstPaint(page, floor.url);
    // The bare page gets updates at the rate the service took the board's metric writes in the
    // same throttling (it may not keep up with RATE on a busy machine), one message each: the
    // board's page gets the same updates, gathered by its agent into fewer messages.
    const go = async (seconds: number, throttle: number): Promise<Paced> => {
      const run = board.runs.get(throttle);
      const rate = run ? Math.round((updatesOf(run) * 1000) / run.feed.elapsedMs) : RATE;
      const response = await fetch(`${floor.url}go?seconds=${seconds}&rate=${rate}`, { method: 'POST' });
      return (await response.json()) as Paced;
    };
    await runs(page, cdp, go, bare);
    await context.close();
  }

  const figures: Figure[] = [
    {
      name: 'first paint of the board (bare: static page)',
      value: board.firstPaint,
      floor: bare.firstPaint,
      unit: 'ms',
    },
  ];
  for (const rate of new Set([1, THROTTLE])) {
    const ours = board.runs.get(rate)!;
    const theirs = bare.runs.get(rate)!;
    const at = rate === 1 ? '' : ` at ${rate} x throttling`;
    const p99 = quantile(ours.frames, 0.99);
    const over50 = ours.frames.filter((frame) => frame > 50).length;
    figures.push(
      {
        name: `metric writes/s${at} (bare: messages sent/s)`,
        value: (ours.feed.sent * 1000) / ours.feed.elapsedMs,
        floor: (theirs.feed.sent * 1000) / theirs.feed.elapsedMs,
        unit: '/s',
      },
      {
        name: `bridge messages received by the page/s${at} (bare: one an update)`,
        value: (ours.messages * 1000) / ours.feed.elapsedMs,
        floor: (theirs.messages * 1000) / theirs.feed.elapsedMs,
        unit: '/s',
      },
      {
        name: `main thread on a core (trace)${at}`,
        value: ours.cpu * 100,
        floor: theirs.cpu * 100,
        unit: '%',
        ...(rate === 1 ? { target: 'ratio <= 2', met: ours.cpu <= 2 * theirs.cpu } : {}),
      },
      {
        name: `main-thread CPU per update${at}`,
        value: (ours.cpu * ours.feed.elapsedMs) / updatesOf(ours),
        floor: (theirs.cpu * theirs.feed.elapsedMs) / updatesOf(theirs),
        unit: 'ms',
      },
      {
        name: `main thread busy (task wall time)${at}`,
        value: ours.busy.task * 100,
        floor: theirs.busy.task * 100,
        unit: '%',
        ...(rate === 1 ? { target: 'ratio <= 2', met: ours.busy.task <= 2 * theirs.busy.task } : {}),
      },
      {
        name: `  of it script${at}`,
        value: ours.busy.script * 100,
        floor: theirs.busy.script * 100,
        unit: '%',
      },
      { name: `  of it style${at}`, value: ours.busy.style * 100, floor: theirs.busy.style * 100, unit: '%' },
      {
        name: `  of it layout${at}`,
        value: ours.busy.layout * 100,
        floor: theirs.busy.layout * 100,
        unit: '%',
      },
      {
        name: `p99 frame time${at}`,
        value: p99,
        floor: quantile(theirs.frames, 0.99),
        unit: 'ms',
        // A steady 60 Hz is the frame period give or take timer jitter: half a millisecond.
        ...(rate === 1
          ? { target: '<= 1 frame', met: p99 <= FRAME_MS + 0.5 }
          : { target: '<= 2 frames', met: p99 <= 2 * FRAME_MS + 0.5 }),
      },
      {
        name: `frames over 50 ms${at}`,
        value: over50,
        floor: theirs.frames.filter((frame) => frame > 50).length,
        unit: '',
        ...(rate === 1 ? {} : { target: 'none', met: over50 === 0 }),
      },
      {
        name: `long tasks${at}`,
        value: ours.longTasks.length,
        floor: theirs.longTasks.length,
        unit: '',
        ...(rate === 1 ? { target: 'none', met: ours.longTasks.length === 0 } : {}),
      },
    );
  }
  figures.push({
    name: 'JS heap growth over the updates (after GC)',
    value: board.heapGrowth! * 100,
    unit: '%',
    target: '< 10%',
    met: board.heapGrowth! < 0.1,
  });
  const failed = [...board.runs.values()].reduce((sum, run) => sum + (run.feed.failed ?? 0), 0);
  const skipped = [...board.runs.values()].reduce((sum, run) => sum + run.feed.skipped, 0);
  process.stdout.write(
    [
      `bench/renderer (Chromium ${browser.version()}, headless, software rendering, ${VIEWPORT.width}x${VIEWPORT.height},` +
        ` ${WIDGET_COUNT} widgets; ${RATE} updates/s for ${SECONDS} s per run, then again at ${THROTTLE} x throttling)`,
      `the board: service (dist/) -> socket.io -> web player's agent -> WebSocket -> page; the bare page:` +
        ` 100 divs' text set from a WebSocket, one message per update, at the rate the service took the board's writes`,
      `main thread: thread time of its tasks in a Chromium trace over wall time (on a core), and CDP` +
        ` Performance.getMetrics TaskDuration over wall time (waits for a core included);` +
        ` frames: requestAnimationFrame deltas; long tasks: PerformanceObserver`,
      `metric writes refused by the service or failed: ${failed}; not sent, ${MAX_IN_FLIGHT} in flight: ${skipped}`,
      ...(board.profile
        ? [`CPU profile of the board's updates: ${values.profile}; most self time:`, ...board.profile]
        : []),
      '',
    ].join('\n'),
  );
  await report('renderer', figures);
} finally {
  await browser.close();
  await floor.stop();
  await stack.stop();
  await standIns.close();
}
