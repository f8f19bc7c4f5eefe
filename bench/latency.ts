// bench/latency: how long a notification takes from its POST being answered to its text on the
// screen of a device (service and web player in their own processes, Chromium as the screen),
// beside the floor measured in the same run (a bare socket.io message between two processes),
// and the largest gap between frames when the playlist switches items. Figures through
// bench/report.ts.
// Usage: npm run bench:latency -- [--notifications 500] [--switches 20]
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import { io } from 'socket.io-client';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium.ts';
import { Stack } from '../e2e/stack';
import { serveFolder } from '../src/web-player/static-server';
import { report } from './report';
import { bundledFloor } from './spawned';
import { formatMs, quantile } from './stats';

const { values } = parseArgs({
  options: { notifications: { type: 'string', default: '500' }, switches: { type: 'string', default: '20' } },
});
const COUNT = Number(values.notifications);
const SWITCHES = Number(values.switches);
const FRAME_MS = 1000 / 60;
const now = () => performance.timeOrigin + performance.now();

async function socketFloor(count: number): Promise<number[]> {
  // Bundled and run by plain Node, as the service it stands beside is built.
  const child = spawn(process.execPath, [await bundledFloor('bench/socket-floor.ts')], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [line] = (await once(child.stdout, 'data')) as [Buffer];
  const socket = io(`http://127.0.0.1:${line.toString().trim()}`, { transports: ['websocket'] });
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  const delays: number[] = [];
  await new Promise<void>((resolve) => {
    socket.on('stamp', (sent: number) => {
      delays.push(now() - sent);
      if (delays.length === count) resolve();
    });
    socket.emit('send', count);
  });
  socket.disconnect();
  child.kill();
  return delays;
}

const stack = await Stack.start('bench-latency');
const assets = await serveFolder(fileURLToPath(new URL('../e2e/assets', import.meta.url)));
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
try {
  await stack.startPlayer();
  const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
  // tsx compiles this file with esbuild's keepNames, which wraps named functions in `__name()`:
  // the page needs the helper for the functions this file hands it.
  await page.addInitScript({ content: 'globalThis.__name = (target) => target;' });
  // Every notification title that appears, with the time of the frame that first shows it.
  await page.addInitScript(() => {
    const seen: Record<string, number> = {};
    Object.assign(window, { seenTitles: seen });
    new MutationObserver(() => {
      for (const title of document.querySelectorAll('.player-notification-title')) {
        const text = title.textContent ?? '';
        if (text && !(text in seen)) {
          seen[text] = -1;
          requestAnimationFrame(() => (seen[text] = performance.timeOrigin + performance.now()));
        }
      }
    }).observe(document, { childList: true, subtree: true, characterData: true });
  });
  await page.goto(stack.playerUrl);
  const board = await stack.api<{ id: string }>('POST', '/boards/import', {
    name: 'Latency',
    widgets: [
      { flow: { tag: 'lat', data: { value: 1 } }, variant: 'value', column: 0, row: 0, width: 8, height: 6 },
    ],
  });
  const playlist = await stack.api<{ id: string }>('POST', '/playlists', {
    name: 'Latency',
    items: [{ type: 'board', board_id: board.id, duration: 3600 }],
  });
  await stack.api('PATCH', `/devices/${stack.tag}`, { playlist_id: playlist.id });
  await page.locator('[data-board-name="Latency"]').waitFor();

  // One at a time: the player shows each notification for its whole duration (1 s at least).
  const latencies: number[] = [];
  for (let n = 0; n < COUNT; n++) {
    const title = `latency ${n}`;
    await stack.api('POST', `/channels/ch_default/notifications`, { title, message: 'x', duration: 1 });
    const answered = now();
    const shown = await page.waitForFunction(
      (t) => {
        const at = (window as unknown as { seenTitles: Record<string, number> }).seenTitles[t];
        return at !== undefined && at > 0 ? at : null;
      },
      title,
      { polling: 'raf', timeout: 10_000 },
    );
    latencies.push(((await shown.jsonValue()) as number) - answered);
    await page.locator('.player-notification-title', { hasText: title }).waitFor({ state: 'detached' });
  }
  const floor = await socketFloor(COUNT);

  // Frame gaps at switches: another board and an image alternating every 2 s (the board on screen
  // leaves the playlist, so the change takes effect at once).
  const other = await stack.api<{ id: string }>('POST', '/boards/import', {
    name: 'Latency 2',
    widgets: [
      { flow: { tag: 'lat2', data: { value: 2 } }, variant: 'value', column: 0, row: 0, width: 8, height: 6 },
    ],
  });
  await page.evaluate(() => {
    const frames: number[] = [];
    const switches: number[] = [];
    Object.assign(window, { frames, switches });
    const loop = (t: number) => {
      frames.push(t);
      requestAnimationFrame(loop);
    };
    requestAnimationFrame(loop);
    new MutationObserver(() => switches.push(performance.now())).observe(document, {
      attributes: true,
      attributeFilter: ['class'],
      subtree: true,
    });
  });
  await stack.api('PATCH', `/playlists/${playlist.id}`, {
    items: [
      { type: 'image', url: `${assets.url}picture.png`, duration: 2 },
      { type: 'board', board_id: other.id, duration: 2 },
    ],
  });
  await page.waitForTimeout(3600 + SWITCHES * 2000);
  const gaps = await page.evaluate(() => {
    const { frames, switches } = window as unknown as { frames: number[]; switches: number[] };
    // The longest frame among the few around each switch.
    return switches.map((at) => {
      const after = frames.findIndex((f) => f >= at);
      let longest = 0;
      for (let k = Math.max(1, after - 1); after > 0 && k <= Math.min(frames.length - 1, after + 2); k++) {
        longest = Math.max(longest, (frames[k] as number) - (frames[k - 1] as number));
      }
      return longest;
    });
  });

  const p99 = quantile(latencies, 0.99);
  const floorP99 = quantile(floor, 0.99);
  const largestGap = Math.max(0, ...gaps);
  const lines = [
    `bench/latency (Chromium ${browser.version()} headless, software rendering; service and device in their own processes)`,
    `notification, POST answered to text on screen, ${latencies.length} notifications: p50 ${formatMs(quantile(latencies, 0.5))}, p99 ${formatMs(p99)}`,
    `floor, a bare socket.io message between two processes, ${floor.length} messages: p50 ${formatMs(quantile(floor, 0.5))}, p99 ${formatMs(floorP99)}`,
    `target: p99 within 2 x floor + one frame (${formatMs(2 * floorP99 + FRAME_MS)}): ${p99 <= 2 * floorP99 + FRAME_MS ? 'met' : 'NOT met'}`,
    `largest gap between frames at ${gaps.length} playlist switches: ${formatMs(largestGap)} (one frame: ${formatMs(FRAME_MS)}); target: ${largestGap <= FRAME_MS * 1.5 ? 'met' : 'NOT met'}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n\n`);
  await report('latency', [
    {
      name: `notification, POST answered to text on screen, p99 (${latencies.length}), beside a bare socket.io message`,
      value: p99,
      floor: floorP99,
      unit: 'ms',
      target: `<= 2 x floor + one frame`,
      met: p99 <= 2 * floorP99 + FRAME_MS,
    },
    {
      name: `largest gap between frames at ${gaps.length} playlist switches`,
      value: largestGap,
      unit: 'ms',
      target: `one frame (<= ${formatMs(FRAME_MS * 1.5)})`,
      met: largestGap <= FRAME_MS * 1.5,
    },
  ]);
} finally {
  await browser.close();
  await assets.close();
  await stack.stop();
}
