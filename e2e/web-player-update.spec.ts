import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page } from '@playwright/test';
import type { PlayerState } from '../src/shared/bridge';
import { boardExportSchema } from '../src/shared/board-export';
import { fetchFromFolder, markedBundle, offerOfFolder } from '../src/web-player/testing/release-bundles';
import { startWebPlayerServer, type WebPlayerServer } from '../src/web-player/web-player-server';
import { WebReleases } from '../src/web-player/web-releases';
import { WebVersions } from '../src/web-player/web-versions';
import { expect, test } from './fixtures';
import { RecordingHost } from '../src/web-player/testing/recording-host';

// The web player told to update, in Chromium: the page showing version A (a red mark in its top
// left corner) loads B (a green one) and swaps to it; every frame the browser draws meanwhile is
// recorded (the DevTools screencast) and the mark's colour read from each. Then a B that throws on
// load: the page stays on A, and the update is rolled back within the health timeout.

const RENDERER_DIST = fileURLToPath(new URL('../dist/renderer', import.meta.url));
const RED = '#ff0000';
const GREEN = '#00ff00';

const board = boardExportSchema.parse({ name: 'Hall', widgets: [] });
const STATE: PlayerState = {
  device: { tag: 'hall-screen', name: 'Hall' },
  online: true,
  stale: false,
  last_sync: null,
  playlist: {
    id: 'pl',
    name: 'Hall',
    items: [{ type: 'board', board_id: 'b1', channel_id: null, duration: 300 }],
    updated_at: '2026-11-28T00:00:00.000Z',
  },
  boards: { b1: board },
  media: {},
};

let dir: string;
let server: WebPlayerServer | null;
const logged: string[] = [];
const log = { info: (line: string) => logged.push(line), warn: (line: string) => logged.push(line) };

/** A player on version 1.0.0 (red), with the given health timeout. */
async function playerOnA(healthTimeoutMs: number) {
  const a = join(dir, 'a');
  await markedBundle(RENDERER_DIST, a, { version: '1.0.0', color: RED });
  const versions = new WebVersions(join(dir, 'player'), RENDERER_DIST, '0.1.0');
  await versions.open();
  await versions.download(await offerOfFolder(a, '1.0.0'), fetchFromFolder(a));
  await versions.activate('1.0.0');
  const releases = new WebReleases({ versions, log, healthTimeoutMs });
  const host = new RecordingHost(STATE);
  server = await startWebPlayerServer({
    host,
    rendererDir: RENDERER_DIST,
    mediaDir: join(dir, 'media'),
    releases,
  });
  return { versions, releases, host, url: server.url };
}

/** Every frame the browser draws, as PNGs, until `stop`. */
async function recordFrames(page: Page): Promise<{ stop(): Promise<string[]> }> {
  const cdp = await page.context().newCDPSession(page);
  const frames: string[] = [];
  cdp.on('Page.screencastFrame', (frame) => {
    frames.push(frame.data);
    void cdp.send('Page.screencastFrameAck', { sessionId: frame.sessionId }).catch(() => undefined);
  });
  await cdp.send('Page.startScreencast', { format: 'png', everyNthFrame: 1, maxWidth: 480, maxHeight: 270 });
  return {
    async stop() {
      await cdp.send('Page.stopScreencast');
      await cdp.detach();
      return frames;
    },
  };
}

/**
 * What the page at the top shows at each animation frame, from its DOM: the version whose
 * document is visible ('A': the page itself, 'B': a frame made opaque) when it has drawn its app
 * and mark, else '-'. Until `stop`.
 */
async function sampleFrames(page: Page): Promise<{ stop(): Promise<string> }> {
  await page.evaluate(() => {
    const samples: string[] = [];
    Object.assign(window, { versionSamples: samples, stopSampling: false });
    const tick = () => {
      const shown = [...document.querySelectorAll('iframe')].find((frame) => frame.style.opacity === '1');
      const doc = shown ? shown.contentDocument : document;
      const drawn =
        (doc?.getElementById('root')?.childElementCount ?? 0) > 0 && doc?.getElementById('version-mark');
      samples.push(drawn ? (shown ? 'B' : 'A') : '-');
      if (!(window as unknown as { stopSampling: boolean }).stopSampling) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  return {
    stop: () =>
      page.evaluate(() => {
        const state = window as unknown as { stopSampling: boolean; versionSamples: string[] };
        state.stopSampling = true;
        return state.versionSamples.join('');
      }),
  };
}

/** Which version each frame shows by the mark in its top left corner: A, B, or '-' (neither: blank). */
async function marksOf(context: BrowserContext, pngs: string[]): Promise<string> {
  const decoder = await context.newPage();
  const colours = await decoder.evaluate(async (images) => {
    const canvas = document.createElement('canvas');
    const drawing = canvas.getContext('2d', { willReadFrequently: true });
    if (!drawing) throw new Error('no 2d canvas');
    const out: number[][] = [];
    for (const base64 of images) {
      const image = new Image();
      image.src = `data:image/png;base64,${base64}`;
      await image.decode();
      canvas.width = image.width;
      canvas.height = image.height;
      drawing.drawImage(image, 0, 0);
      out.push([...drawing.getImageData(5, 5, 1, 1).data.slice(0, 3)]);
    }
    return out;
  }, pngs);
  await decoder.close();
  return colours
    .map(([r = 0, g = 0, b = 0]) => {
      if (r > 200 && g < 60 && b < 60) return 'A';
      if (g > 200 && r < 60 && b < 60) return 'B';
      return '-';
    })
    .join('');
}

test.beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'web-player-update-'));
  server = null;
  logged.length = 0;
});

test.afterEach(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

test('the recordings see a single blank frame', async ({ page, context }) => {
  // Their calibration: the page on screen draws nothing for exactly one animation frame (its
  // app's nodes taken out in one frame's callback, put back in the next).
  const { host, url } = await playerOnA(30_000);
  await page.goto(url);
  await expect.poll(() => host.reports.at(-1)?.showing).toBe('board:b1');
  const recording = await recordFrames(page);
  const sampling = await sampleFrames(page);
  await page.waitForTimeout(300);
  await page.evaluate(
    () =>
      new Promise<void>((resolve) =>
        requestAnimationFrame(() => {
          const root = document.getElementById('root');
          const nodes = [...(root?.childNodes ?? [])];
          for (const node of nodes) node.remove();
          requestAnimationFrame(() => {
            root?.append(...nodes);
            resolve();
          });
        }),
      ),
  );
  await page.waitForTimeout(300);
  const samples = await sampling.stop();
  const marks = await marksOf(context, await recording.stop());
  test
    .info()
    .annotations.push({ type: 'frames', description: marks }, { type: 'samples', description: samples });
  expect(samples).toMatch(/^A+-A+$/);
  expect(marks).toMatch(/^A+-A+$/);
});

test('a player showing A swaps to B with at most one blank frame, and B is the page that counts', async ({
  page,
  context,
}) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const { versions, releases, host, url } = await playerOnA(30_000);
  await page.goto(url);
  await expect(page).toHaveURL(/\/v\/1\.0\.0\/$/);
  await expect.poll(() => host.reports.at(-1)?.showing).toBe('board:b1');

  const b = join(dir, 'b');
  await markedBundle(RENDERER_DIST, b, { version: '1.1.0', color: GREEN });
  const offer = await offerOfFolder(b, '1.1.0');
  const recording = await recordFrames(page);
  const sampling = await sampleFrames(page);
  const reportsBefore = host.reports.length;
  const result = await releases.apply(offer, fetchFromFolder(b));
  expect(result).toMatchObject({
    outcome: 'installed',
    detail: expect.stringMatching(/^version 1\.1\.0 shows "board:b1" after/),
  });
  // B on screen: its frame opaque over the stopped app, and A's page has nothing else.
  const frame = page.locator('iframe[data-version="1.1.0"]');
  await expect(frame).toHaveCSS('opacity', '1');
  await expect(page.locator('#root')).toBeEmpty();
  await expect(page.frameLocator('iframe[data-version="1.1.0"]').locator('#version-mark')).toBeVisible();
  await page.waitForTimeout(500);
  const samples = await sampling.stop();
  const marks = await marksOf(context, await recording.stop());

  // The measures: every frame drawn from the update's start shows A, then B; at most one shows
  // neither. Once as the screen shows it (the screencast's pixels), once as the page sees it.
  test
    .info()
    .annotations.push({ type: 'frames', description: marks }, { type: 'samples', description: samples });
  for (const measure of [marks, samples]) {
    expect(measure).toMatch(/^A+-?B+$/);
    expect([...measure].filter((mark) => mark === '-').length).toBeLessThanOrEqual(1);
  }
  // Enough frames to mean something: the marks spin, so the browser draws at every frame.
  expect(marks.length).toBeGreaterThan(20);

  // The promoted page's report reached the agent, and the pointer names B, A kept for fallback.
  expect(host.reports.length).toBeGreaterThan(reportsBefore);
  expect(versions.current().label).toBe('1.1.0');
  expect(versions.previous()?.label).toBe('1.0.0');
  expect(JSON.parse(await readFile(join(dir, 'player', 'versions', 'current'), 'utf8'))).toMatchObject({
    current: '1.1.0',
    previous: '1.0.0',
  });
  // A fresh load (a restarted browser) gets B at once.
  const fresh = await context.newPage();
  await fresh.goto(url);
  await expect(fresh).toHaveURL(/\/v\/1\.1\.0\/$/);
  await expect(fresh.locator('#version-mark')).toHaveCSS('background-color', 'rgb(0, 255, 0)');
  await fresh.close();
  expect(errors).toEqual([]);
});

test('a B that throws on load is dropped unseen: the page stays on A and the update is rolled back', async ({
  page,
  context,
}) => {
  const { versions, releases, host, url } = await playerOnA(4000);
  await page.goto(url);
  await expect.poll(() => host.reports.at(-1)?.showing).toBe('board:b1');

  // B's page loads a script that throws at once instead of the renderer.
  const b = join(dir, 'b');
  await markedBundle(RENDERER_DIST, b, { version: '1.1.0', color: GREEN });
  const index = join(b, 'index.html');
  const html = await readFile(index, 'utf8');
  await writeFile(index, html.replace(/src="\.\/assets\/index-[^"]+\.js"/, 'src="./assets/boom.js"'));
  await writeFile(join(b, 'assets', 'boom.js'), "throw new Error('version 1.1.0 is broken');\n");
  const offer = await offerOfFolder(b, '1.1.0');

  const recording = await recordFrames(page);
  const started = Date.now();
  const trying = releases.apply(offer, fetchFromFolder(b));
  // On trial: B's frame is there, unseen.
  await expect(page.locator('iframe[data-version="1.1.0"]')).toHaveCSS('opacity', '0');
  const result = await trying;
  const took = Date.now() - started;
  expect(result).toEqual({
    outcome: 'rolled_back',
    detail: 'version 1.1.0 did not report what it shows within 4 s; back on 1.0.0',
  });
  expect(took).toBeLessThan(4000 + 2000);
  await expect(page.locator('iframe')).toHaveCount(0);
  await page.waitForTimeout(300);
  const marks = await marksOf(context, await recording.stop());
  test.info().annotations.push({ type: 'frames', description: marks });
  // A on screen throughout: no frame of anything else.
  expect(marks).toMatch(/^A*$/);
  await expect(page.locator('#version-mark')).toHaveCSS('background-color', 'rgb(255, 0, 0)');

  // Never tried again for that offer; the pointer and the folder as before.
  expect(versions.current().label).toBe('1.0.0');
  expect(versions.hasFailed(offer)).toBe(true);
  expect(await releases.apply(offer, fetchFromFolder(b))).toBeNull();
  expect((await readdir(join(dir, 'player', 'versions'))).sort()).toEqual(['1.0.0', 'current']);
  // The broken page's plays and reports never reached the agent as the screen's.
  expect(host.reports.every((report) => report.showing === 'board:b1')).toBe(true);
});
