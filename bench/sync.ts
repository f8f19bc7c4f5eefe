// Sync groups and walls (docs/sync.md): four real web players on the built service, their pages in
// Chromium with clocks offset by Playwright's clock emulation (+3 s, -3 s, +1.7 s, none) and one
// agent behind a link that delays every byte by 80 ms each way. Prints the spread of each item
// switch across the four (p99 over N switches) in a sync group beside the floor: the same four
// players, the same playlist, in no sync group (each plays every item for its duration from its
// own start: what screens do without this feature). Then a 2 x 2 wall playing one video: the
// largest drift between its quarters over the run.
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium.ts';
import { Stack } from '../e2e/stack';
import {
  delayingProxy,
  measuredOffset,
  registered,
  startScreens,
  stopScreens,
  switchesOf,
  switchSpreads,
  twoBoardPlaylist,
  videoError,
  type Screen,
} from '../e2e/sync-kit';
import { aroundLoop } from '../src/shared/sync-timeline';
import { serveFolder } from '../src/web-player/static-server';
import { report } from './report';
import { formatMs, quantile } from './stats';

const { values } = parseArgs({
  options: {
    switches: { type: 'string', default: '100' },
    'wall-minutes': { type: 'string', default: '10' },
  },
});
const SWITCHES = Number(values.switches);
const WALL_MINUTES = Number(values['wall-minutes']);
const FRAME_MS = 1000 / 60;
const LINK_DELAY_MS = 80;
const SETTLE_MS = 10_000;
const WALL_FLOOR_SECONDS = 30;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const stack = await Stack.start('bench-sync');
const assets = await serveFolder(fileURLToPath(new URL('../e2e/assets', import.meta.url)));
const proxy = await delayingProxy(new URL(stack.serviceUrl), LINK_DELAY_MS);
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
let screens: Screen[] = [];
try {
  const playlist = await twoBoardPlaylist(stack);
  screens = await startScreens(stack, browser, [
    { tag: 'sync-1', offsetMs: 3000, server: stack.serviceUrl },
    { tag: 'sync-2', offsetMs: -3000, server: stack.serviceUrl },
    { tag: 'sync-3', offsetMs: 1700, server: proxy.url },
    { tag: 'sync-4', offsetMs: 0, server: stack.serviceUrl },
  ]);
  for (const screen of screens) {
    await registered(stack, screen.tag);
    await stack.api('PATCH', `/devices/${screen.tag}`, { playlist_id: playlist.id });
  }
  for (const screen of screens)
    await screen.page.locator('[data-board-name]').first().waitFor({ timeout: 30_000 });

  /** The spreads of `count` switches from now on, each screen's switches on the bench's clock. */
  const measure = async (count: number): Promise<number[]> => {
    const from = Date.now() + 1000;
    await sleep(count * 1000 + 2500);
    const offsets = await Promise.all(screens.map((screen) => measuredOffset(screen.page)));
    const perScreen = await Promise.all(
      screens.map((screen, index) => switchesOf(screen, offsets[index] ?? 0)),
    );
    if (process.env.WALLBOARD_BENCH_SYNC_DEBUG) {
      process.stderr.write(
        `${JSON.stringify({ from, offsets, perScreen: perScreen.map((list) => list.slice(-6)) })}\n`,
      );
    }
    return switchSpreads(perScreen, from, count);
  };

  /**
   * The 2 x 2 wall's drift, once a second for `ms`: each quarter's position against a timeline
   * starting at `epochMs` on the bench's clock (its error, kept per screen in `errors`), and the
   * largest distance between two quarters, around the loop's seam (the floor's are anywhere).
   */
  const wallDrifts = async (ms: number, epochMs: number, errors?: number[][]): Promise<number[]> => {
    const offsets = await Promise.all(screens.map((screen) => measuredOffset(screen.page)));
    const drifts: number[] = [];
    const end = Date.now() + ms;
    while (Date.now() < end) {
      const read = await Promise.all(
        screens.map((screen, index) => videoError(screen.page, offsets[index] ?? 0, epochMs)),
      );
      if (read.every((entry) => entry !== null)) {
        const length = read[0]?.lengthMs ?? 0;
        read.forEach((entry, index) => errors?.[index]?.push(entry.errorMs));
        drifts.push(
          Math.max(
            ...read.flatMap((a) => read.map((b) => Math.abs(aroundLoop(a.errorMs - b.errorMs, length)))),
          ),
        );
      }
      if (process.env.WALLBOARD_BENCH_SYNC_DEBUG)
        process.stderr.write(
          `wall errors ${JSON.stringify(read.map((e) => Math.round(e?.errorMs ?? NaN)))}\n`,
        );
      await sleep(1000);
    }
    return drifts;
  };

  const floor = await measure(SWITCHES);
  // The wall's floor: the same video on the four, in no group (each from when it loaded it).
  const clip = `${assets.url}clip.webm`;
  const video = [{ type: 'video', url: clip, duration: Math.max(60, WALL_MINUTES * 60 + 120) }];
  const boards = (await stack.api<{ items: unknown[] }>('GET', `/playlists/${playlist.id}`)).items;
  await stack.api('PATCH', `/playlists/${playlist.id}`, { items: video });
  for (const screen of screens) await screen.page.locator('video').first().waitFor({ timeout: 30_000 });
  await sleep(SETTLE_MS);
  const floorDrifts = await wallDrifts(WALL_FLOOR_SECONDS * 1000, 0);
  await stack.api('PATCH', `/playlists/${playlist.id}`, { items: boards });
  for (const screen of screens)
    await screen.page.locator('[data-board-name]').first().waitFor({ timeout: 30_000 });

  const group = await stack.api<{ id: string }>('POST', '/sync-groups', { name: 'Bench' });
  for (const screen of screens) await stack.api('PUT', `/sync-groups/${group.id}/screens/${screen.tag}`, {});
  // The change reaches each screen (the delayed one's fetches take a second), its agent starts
  // sampling within a second and its page once the agent knows: settled well within 10 s.
  await sleep(10_000);
  const synced = await measure(SWITCHES);
  if (process.env.WALLBOARD_BENCH_SYNC_DEBUG) {
    const { epoch: syncEpoch } = await stack.api<{ epoch: string }>('GET', `/sync-groups/${group.id}`);
    const offsets = await Promise.all(screens.map((screen) => measuredOffset(screen.page)));
    const perScreen = await Promise.all(
      screens.map((screen, index) => switchesOf(screen, offsets[index] ?? 0)),
    );
    const late = perScreen.map((list) =>
      list
        .slice(-12)
        .map((entry) => Math.round(((((entry.at - Date.parse(syncEpoch)) % 1000) + 1500) % 1000) - 500)),
    );
    process.stderr.write(`late by screen: ${JSON.stringify(late)}\n`);
  }

  // A 2 x 2 wall of 55-inch screens (1210 x 680 mm of picture, 12 mm of bezels between two).
  const wall = {
    columns: 2,
    rows: 2,
    screen_width_mm: 1210,
    screen_height_mm: 680,
    bezel_x_mm: 12,
    bezel_y_mm: 12,
  };
  await stack.api('PATCH', `/sync-groups/${group.id}`, { wall, restart: true });
  for (const [index, screen] of screens.entries()) {
    await stack.api('PUT', `/sync-groups/${group.id}/screens/${screen.tag}`, {
      column: index % 2,
      row: Math.floor(index / 2),
    });
  }
  await stack.api('PATCH', `/playlists/${playlist.id}`, { items: video });
  const { epoch } = await stack.api<{ epoch: string }>('GET', `/sync-groups/${group.id}`);
  const epochMs = Date.parse(epoch);
  for (const screen of screens) await screen.page.locator('video').first().waitFor({ timeout: 30_000 });
  // Each quarter comes on screen put in place, then follows by its rate: measured once settled.
  await sleep(SETTLE_MS);
  const wallErrors: number[][] = screens.map(() => []);
  const drifts = await wallDrifts(WALL_MINUTES * 60_000, epochMs, wallErrors);

  const p99 = quantile(synced, 0.99);
  const floorP99 = quantile(floor, 0.99);
  const maxDrift = Math.max(0, ...drifts);
  const p99Drift = quantile(drifts, 0.99);
  const floorMax = Math.max(0, ...floorDrifts);
  const lines = [
    `bench/sync (Chromium ${browser.version()} headless, software rendering; service and four web players in their own processes; page clocks +3 s, -3 s, +1.7 s, 0; sync-3's agent behind ${LINK_DELAY_MS} ms each way)`,
    `item switches in a sync group, spread across the four, ${synced.length} switches: p50 ${formatMs(quantile(synced, 0.5))}, p90 ${formatMs(quantile(synced, 0.9))}, p99 ${formatMs(p99)}, max ${formatMs(Math.max(0, ...synced))}; within one frame: ${synced.filter((spread) => spread <= FRAME_MS).length}`,
    `floor, the same four in no sync group, ${floor.length} switches: p50 ${formatMs(quantile(floor, 0.5))}, p99 ${formatMs(floorP99)}`,
    `target: p99 within one frame (${formatMs(FRAME_MS)}): ${p99 <= FRAME_MS ? 'met' : 'NOT met'}`,
    `2 x 2 wall, one video, ${WALL_MINUTES} min from ${SETTLE_MS / 1000} s after it came on screen, ${drifts.length} samples: quarters' drift p50 ${formatMs(quantile(drifts, 0.5))}, p99 ${formatMs(p99Drift)}, max ${formatMs(maxDrift)}, within one frame: ${drifts.filter((drift) => drift <= FRAME_MS).length}; each quarter's error from shared time, median: ${wallErrors.map((errors) => formatMs(quantile(errors, 0.5))).join(', ')}`,
    `floor, the same video on the four in no sync group, ${WALL_FLOOR_SECONDS} s, ${floorDrifts.length} samples: drift p50 ${formatMs(quantile(floorDrifts, 0.5))}, max ${formatMs(floorMax)}`,
    `target: max drift within one frame (${formatMs(FRAME_MS)}): ${maxDrift <= FRAME_MS ? 'met' : 'NOT met'}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n\n`);
  await report('sync', [
    {
      name: `item switch spread across 4 screens of a sync group, p99 (${synced.length}), beside the same 4 in no group`,
      value: p99,
      floor: floorP99,
      unit: 'ms',
      target: '<= one frame',
      met: p99 <= FRAME_MS,
    },
    {
      name: `2 x 2 wall video, largest drift between quarters over ${WALL_MINUTES} min, beside the same 4 in no group`,
      value: maxDrift,
      floor: floorMax,
      unit: 'ms',
      target: '<= one frame',
      met: maxDrift <= FRAME_MS,
    },
  ]);
} catch (error) {
  for (const screen of screens) process.stderr.write(`--- ${screen.tag}\n${screen.output.slice(-3000)}\n`);
  throw error;
} finally {
  await stopScreens(screens);
  await browser.close();
  await proxy.close();
  await assets.close();
  await stack.stop();
}
