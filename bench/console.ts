// bench/console: the console's screens page with a fleet in the store, in Debian's Chromium at
// 1280 x 800. Prints the scripts and styles that cross the wire before the first screen row on a
// cold cache (the bytes Chromium received, as the service sent them), the time to the first screen
// row after opening the page, and a filter keystroke's time to the next frame; beside floors of
// the same run: the same files gzipped at level 9 (what a server compressing them as most do would
// send), the Tokens page (the shell and one small list) opened the same way, and a keystroke in a
// bare input on a blank page of the same browser.
// Usage: node --import tsx bench/console.ts [--screens 1000] [--playlists 200] [--runs 7] [--keys 20]
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { chromium, type Page, type Response } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium';
import { sampleHeartbeat } from '../src/shared/testing/device-fixtures';
import { ADMIN, signIn } from '../e2e/console-kit';
import { Stack } from '../e2e/stack';
import { report } from './report';
import { formatMs, quantile } from './stats';

const { values } = parseArgs({
  options: {
    screens: { type: 'string', default: '1000' },
    playlists: { type: 'string', default: '200' },
    runs: { type: 'string', default: '7' },
    keys: { type: 'string', default: '20' },
  },
});
const SCREENS = Number(values.screens);
const PLAYLISTS = Number(values.playlists);
const RUNS = Number(values.runs);
const KEYS = Number(values.keys);
const DIST = fileURLToPath(new URL('../dist/console/', import.meta.url));
const TARGETS = { firstRenderMs: 1000, keystrokeMs: 100, initialKiB: 300 };
const SCREENS_ROW = '[data-testid="screen-row"]';

const say = (text: string) => process.stdout.write(`${text}\n`);

/** Bytes of one kind of file: as received, as built, and gzipped at level 9. */
interface Sizes {
  files: number;
  wire: number;
  identity: number;
  gzip: number;
}

/**
 * The console's scripts and styles the browser fetches from opening the screens page on a cold
 * cache to its first row: the bodies' bytes as received (Chromium's own count, before decoding),
 * beside each file's size on disk and gzipped.
 */
async function coldLoad(page: Page, url: string): Promise<{ js: Sizes; css: Sizes }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.clearBrowserCache');
  await page.goto('about:blank');
  const received: Promise<{ path: string; wire: number }>[] = [];
  const onResponse = (response: Response) => {
    const path = new URL(response.url()).pathname;
    if (!/^\/console\/assets\/.+\.(js|css)$/.test(path)) return;
    received.push(
      response
        .request()
        .sizes()
        .then(({ responseBodySize }) => ({ path, wire: responseBodySize })),
    );
  };
  page.on('response', onResponse);
  await page.goto(url);
  await page.locator(SCREENS_ROW).first().waitFor();
  page.off('response', onResponse);
  await cdp.detach();
  const empty = (): Sizes => ({ files: 0, wire: 0, identity: 0, gzip: 0 });
  const sizes = { js: empty(), css: empty() };
  for (const { path, wire } of await Promise.all(received)) {
    const file = await readFile(`${DIST}${path.slice('/console/'.length)}`);
    const kind = sizes[path.endsWith('.css') ? 'css' : 'js'];
    kind.files += 1;
    kind.wire += wire;
    kind.identity += file.length;
    kind.gzip += gzipSync(file, { level: 9 }).length;
  }
  return sizes;
}

/** In batches, so the service is busy but not flooded. */
async function inBatches<T>(items: readonly T[], size: number, run: (item: T) => Promise<unknown>) {
  for (let start = 0; start < items.length; start += size) {
    await Promise.all(items.slice(start, start + size).map(run));
  }
}

async function seed(stack: Stack): Promise<void> {
  const playlists = Array.from({ length: PLAYLISTS }, (_, i) => `Playlist ${i}`);
  const ids: string[] = [];
  await inBatches(playlists, 20, async (name) =>
    ids.push((await stack.api<{ id: string }>('POST', '/playlists', { name })).id),
  );
  const tags = Array.from({ length: SCREENS }, (_, i) => `screen-${String(i).padStart(4, '0')}`);
  await inBatches(tags, 20, async (tag) => {
    const index = Number(tag.slice(-4));
    await stack.api('POST', '/devices', {
      tag,
      name: `Screen ${index} in building ${index % 17}`,
      description: `floor ${index % 9}`,
      playlist_id: ids[index % ids.length] ?? null,
    });
    // Two thirds of the fleet has reported in: online, showing something.
    if (index % 3) await stack.api('POST', `/devices/${tag}/heartbeat`, sampleHeartbeat(`board:${index}`));
  });
}

/** Milliseconds from the navigation's start until `selector` is first in the page. */
async function timeToFirst(page: Page, url: string, selector: string): Promise<number> {
  await page.goto('about:blank');
  await page.goto(url, { waitUntil: 'commit' });
  await page.locator(selector).first().waitFor();
  return page.evaluate(() => performance.now());
}

/**
 * Milliseconds from each key's press to the frame after the page answered it: a listener notes
 * the keydown and what `probe` says then (its aria-label, else its text); the first animation frame
 * after it says something else ends the measure. On the screens page the probe is the list's
 * label, "Screens: 100 of 1000", which changes only once the rows are filtered (the search is
 * deferred: the input's own echo comes first).
 */
async function keystrokes(page: Page, input: string, probe: string, keys: string[]): Promise<number[]> {
  // Plain JavaScript: tsx would wrap a function's inner functions in a helper the page lacks.
  await page.evaluate(`(() => {
    const state = window;
    const said = () => {
      const element = document.querySelector(${JSON.stringify(probe)});
      return element?.getAttribute('aria-label') ?? element?.textContent ?? '';
    };
    state.times = [];
    state.before = null;
    document.querySelector(${JSON.stringify(input)}).addEventListener('keydown', () => {
      state.started = performance.now();
      state.before = said();
    }, { capture: true });
    new MutationObserver(() => {
      if (state.before === null || said() === state.before) return;
      state.before = null;
      requestAnimationFrame(() => state.times.push(performance.now() - state.started));
    }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  })()`);
  for (const key of keys) {
    const count = await page.evaluate(() => (window as unknown as { times: number[] }).times.length);
    await page.locator(input).press(key);
    await page.waitForFunction(
      (count) => (window as unknown as { times: number[] }).times.length > count,
      count,
    );
  }
  return page.evaluate(() => (window as unknown as { times: number[] }).times);
}

/**
 * Keys that each change the rows shown, after the search holds "screen-0" (every screen):
 * "screen-01" shows a tenth of them, Backspace all again, then "screen-02", and so on.
 */
function filterKeys(count: number): string[] {
  return Array.from({ length: count }, (_, i) => (i % 2 ? 'Backspace' : String(1 + ((i / 2) % 9))));
}

async function main(): Promise<void> {
  const stack = await Stack.start('bench-console');
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    await stack.api('POST', '/users', { ...ADMIN, role: 'admin' });
    const seeding = performance.now();
    await seed(stack);
    say(`seeded ${SCREENS} screens and ${PLAYLISTS} playlists in ${formatMs(performance.now() - seeding)}`);
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await signIn(page, stack, ADMIN);
    const cold = await coldLoad(page, `${stack.serviceUrl}/console/screens`);
    const screens: number[] = [];
    const tokens: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      tokens.push(await timeToFirst(page, `${stack.serviceUrl}/console/tokens`, 'tbody tr'));
      screens.push(await timeToFirst(page, `${stack.serviceUrl}/console/screens`, SCREENS_ROW));
    }
    const search = 'input[placeholder^="Name, tag"]';
    await page.locator(search).fill('screen-0');
    await page.locator(SCREENS_ROW).first().waitFor();
    const filtered = await keystrokes(page, search, '[aria-label^="Screens: "]', filterKeys(KEYS));
    const blank = await browser.newPage();
    await blank.setContent('<input id="bare"><p id="echo"></p>');
    await blank.evaluate(() => {
      const bare = document.getElementById('bare') as HTMLInputElement;
      bare.addEventListener(
        'input',
        () => ((document.getElementById('echo') as HTMLElement).textContent = bare.value),
      );
    });
    const bare = await keystrokes(blank, '#bare', '#echo', filterKeys(KEYS));
    const p50 = (values: number[]) => quantile(values, 0.5);
    const p95 = (values: number[]) => quantile(values, 0.95);
    const kB = (bytes: number) => bytes / 1024;
    const filesOf = ({ files }: Sizes) => `${files} file${files === 1 ? '' : 's'}`;
    await report('console', [
      {
        name: `initial JS on the wire (${filesOf(cold.js)}; floor: gzip -9)`,
        value: kB(cold.js.wire),
        floor: kB(cold.js.gzip),
        unit: 'kB',
        target: `< ${TARGETS.initialKiB} kB`,
        met: kB(cold.js.wire) < TARGETS.initialKiB,
      },
      {
        name: `initial CSS on the wire (${filesOf(cold.css)}; floor: gzip -9)`,
        value: kB(cold.css.wire),
        floor: kB(cold.css.gzip),
        unit: 'kB',
      },
      { name: 'initial JS, uncompressed', value: kB(cold.js.identity), unit: 'kB' },
      { name: 'initial CSS, uncompressed', value: kB(cold.css.identity), unit: 'kB' },
      {
        name: `first screen row p50, ${SCREENS} screens (floor: Tokens page)`,
        value: p50(screens),
        floor: p50(tokens),
        unit: 'ms',
      },
      {
        name: `first screen row p95, ${SCREENS} screens (floor: Tokens page)`,
        value: p95(screens),
        floor: p95(tokens),
        unit: 'ms',
        target: `< ${TARGETS.firstRenderMs} ms`,
        met: p95(screens) < TARGETS.firstRenderMs,
      },
      {
        name: `filter keystroke to next frame p50, ${filtered.length} keys (floor: bare input)`,
        value: p50(filtered),
        floor: p50(bare),
        unit: 'ms',
      },
      {
        name: `filter keystroke to next frame p95, ${filtered.length} keys (floor: bare input)`,
        value: p95(filtered),
        floor: p95(bare),
        unit: 'ms',
        target: `< ${TARGETS.keystrokeMs} ms`,
        met: p95(filtered) < TARGETS.keystrokeMs,
      },
    ]);
  } finally {
    await browser.close();
    await stack.stop();
  }
}

await main();
