import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { Stack } from './stack';

// Emergency overrides end to end: the real service and three real web players (each its own
// process and data folder), their pages in Chromium. Two screens are in the group "Lobby" playing
// a board; the third is in "Night", whose power window is on now (its screen black).

const WEB_PLAYER = fileURLToPath(new URL('../dist/web-player/main.mjs', import.meta.url));
const PICTURE = fileURLToPath(new URL('./assets/picture.png', import.meta.url));
const ALL_DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
/** `HH:MM` in UTC, `minutes` from now. */
const utcTime = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString().slice(11, 16);
const SHOTS = 'test-results/overrides';
/** The measured times, printed beside the test's result. */
const print = (line: string) => process.stdout.write(`${line}\n`);

/** One screen: a web player of its own, with a token of its own, restartable on its data folder. */
class Screen {
  process: ChildProcess | null = null;
  url = '';
  output = '';
  private token = '';

  constructor(
    private readonly stack: Stack,
    readonly tag: string,
  ) {}

  async start(): Promise<string> {
    this.token ||= (
      await this.stack.api<{ token: string }>('POST', '/account/tokens', {
        scope: 'affiliated',
        name: `screen ${this.tag}`,
      })
    ).token;
    const args = [WEB_PLAYER, '--server', this.stack.serviceUrl, '--token', this.token, '--tag', this.tag];
    const dataDir = join(this.stack.dir, `device-${this.tag}`);
    const child = spawn(process.execPath, [...args, '--port', '0', '--data-dir', dataDir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.process = child;
    const printed = this.output.length;
    this.url = await new Promise<string>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        this.output += chunk.toString();
        const match = / at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(this.output.slice(printed));
        if (match?.[1]) resolve(match[1]);
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      child.once('exit', (code) => reject(new Error(`${this.tag} exited with ${code}: ${this.output}`)));
    });
    return this.url;
  }

  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const child = this.process;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill(signal);
    await exited;
  }
}

/**
 * Records in the page when an override face appears (its id, the wall-clock time of the first
 * frame drawn with it) and when it goes: a MutationObserver, so the time is the page's own, not
 * that of a test polling it. Installed before any page load, so it survives reloads.
 */
async function watchOverrides(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seen: { id: string | null; committed: number; painted: number | null }[] = [];
    // When the agent's first state naming each override reached the page, to tell its part from the page's.
    const arrived: Record<string, number> = {};
    Object.assign(window, { overrideSeen: seen, overrideArrived: arrived });
    const Native = window.WebSocket;
    window.WebSocket = class extends Native {
      constructor(...args: ConstructorParameters<typeof WebSocket>) {
        super(...args);
        this.addEventListener('message', (event: MessageEvent) => {
          const id =
            typeof event.data === 'string' ? /"override":\{"id":"([^"]+)"/.exec(event.data)?.[1] : undefined;
          if (id && !(id in arrived)) arrived[id] = Date.now();
        });
      }
    };
    let current: string | null = null;
    new MutationObserver(() => {
      const id = document.querySelector('[data-testid="override"]')?.getAttribute('data-override-id') ?? null;
      if (id === current) return;
      current = id;
      const entry: (typeof seen)[number] = { id, committed: Date.now(), painted: null };
      seen.push(entry);
      requestAnimationFrame(() => (entry.painted = Date.now()));
    }).observe(document, { subtree: true, childList: true, attributes: true });
  });
}

type Seen = { id: string | null; committed: number; painted: number | null };
const seenOn = (page: Page) =>
  page.evaluate(() => (window as unknown as { overrideSeen: Seen[] }).overrideSeen);

/** When the first state naming the override `id` reached the page (NaN if none did). */
const arrivedOn = (page: Page, id: string) =>
  page.evaluate(
    (key) => (window as unknown as { overrideArrived: Record<string, number> }).overrideArrived[key] ?? NaN,
    id,
  );

/** When the page first drew the override `id` (ms since the epoch), waiting up to `ms` for it. */
async function paintedAt(page: Page, id: string, ms = 5_000): Promise<number> {
  await expect
    .poll(async () => (await seenOn(page)).find((s) => s.id === id)?.painted ?? null, {
      timeout: ms,
      intervals: [20],
    })
    .not.toBeNull();
  return (await seenOn(page)).find((s) => s.id === id)?.painted ?? 0;
}

/** A page in a context of its own, which reaches loopback only, as the fixtures' own context. */
async function screenPage(browser: Browser, viewport: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext({ viewport });
  await context.route(
    (url) =>
      !['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname) &&
      url.protocol !== 'data:' &&
      url.protocol !== 'blob:',
    (route) => route.abort('blockedbyclient'),
  );
  contexts.push(context);
  return context.newPage();
}

/** A screenshot to look at, of the page brought to the front (a page behind others may draw no frame). */
async function shoot(page: Page, name: string): Promise<void> {
  await page.bringToFront();
  await page.screenshot({ path: `${SHOTS}/${name}.png`, timeout: 10_000 });
}

let stack: Stack;
let screens: Screen[] = [];
let contexts: BrowserContext[] = [];

test.beforeEach(async () => {
  stack = await Stack.start(`ovr-${Date.now().toString(36)}`);
  screens = [];
  contexts = [];
});
test.afterEach(async ({}, testInfo) => {
  if (testInfo.status !== testInfo.expectedStatus) {
    for (const screen of screens) await testInfo.attach(`${screen.tag} log`, { body: screen.output });
  }
  await Promise.all(contexts.map((context) => context.close()));
  await Promise.all(screens.map((screen) => screen.stop()));
  await stack.stop();
});

test('an override reaches every screen of its group within a second, wakes a sleeping one, survives restarts and clears everywhere', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const day = await stack.boardPlaylist('Day', 'day-value', 1, 60);
  const lobby = await stack.api<{ id: string }>('POST', '/groups', { name: 'Lobby', playlist_id: day });
  const night = await stack.api<{ id: string }>('POST', '/groups', {
    name: 'Night',
    playlist_id: day,
    power: { off: [{ days: ALL_DAYS, from: utcTime(-1), to: utcTime(30) }] },
  });
  const [a, b, c] = ['lobby-a', 'lobby-b', 'night-c'].map((tag) => new Screen(stack, tag)) as [
    Screen,
    Screen,
    Screen,
  ];
  screens = [a, b, c];
  await Promise.all(screens.map((screen) => screen.start()));
  for (const [screen, group] of [
    [a, lobby],
    [b, lobby],
    [c, night],
  ] as const) {
    await expect
      .poll(
        async () =>
          (await stack.api<{ online: boolean }>('GET', `/devices/${screen.tag}`).catch(() => null))?.online,
        { timeout: 15_000 },
      )
      .toBe(true);
    await stack.api('PATCH', `/devices/${screen.tag}`, { group_id: group.id, time_zone: 'UTC' });
  }

  // A landscape page for a, a portrait one for b, one for c; each in a browser context of its own,
  // as each screen is a browser of its own (pages behind another of the same window draw late).
  const pageB = await screenPage(browser, { width: 1080, height: 1920 });
  const pageC = await screenPage(browser, { width: 1920, height: 1080 });
  const pages = new Map<Screen, Page>([
    [a, page],
    [b, pageB],
    [c, pageC],
  ]);
  for (const [screen, shown] of pages) {
    await watchOverrides(shown);
    await shown.goto(screen.url);
  }
  await expect(page.locator('[data-board-name="Day"]')).toBeVisible({ timeout: 15_000 });
  await expect(pageB.locator('[data-board-name="Day"]')).toBeVisible({ timeout: 15_000 });
  await expect(pageC.getByTestId('screen-off')).toBeVisible({ timeout: 15_000 });

  // An image of the media library, which each screen caches.
  const body = new FormData();
  body.append('file', new Blob([await readFile(PICTURE)], { type: 'image/png' }), 'exit-map.png');
  const image = (await (
    await fetch(`${stack.serviceUrl}/media`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.admin}` },
      body,
    })
  ).json()) as { url: string };

  // To the group Lobby: each of its screens draws it within a second of the answer.
  const sent = Date.now();
  const raised = await stack.api<{ id: string }>('POST', '/overrides', {
    title: 'Fire alarm',
    message: 'Leave the building by the nearest exit. Do not use the lifts. Meet at the car park.',
    image_url: image.url,
    sound_url: 'default',
    target: { group_id: lobby.id },
  });
  const answered = Date.now();
  for (const [screen, shown] of [
    [a, page],
    [b, pageB],
  ] as const) {
    const drawn = await paintedAt(shown, raised.id);
    const arrived = await arrivedOn(shown, raised.id);
    print(
      `${screen.tag}: drawn ${drawn - answered} ms after POST /overrides answered (${drawn - sent} ms after it was sent; its state reached the page after ${arrived - answered} ms)`,
    );
    expect(drawn - answered).toBeLessThan(1000);
    await expect(shown.getByRole('alert')).toContainText('Leave the building by the nearest exit.');
  }
  // Not in the group: a second and a half later, c never drew it and is still black.
  await page.waitForTimeout(1500);
  expect(await seenOn(pageC)).toEqual([]);
  await expect(pageC.getByTestId('screen-off')).toBeVisible();
  await expect(page.locator('.override-image')).toHaveAttribute('src', /^\/media\//, { timeout: 5_000 });
  await shoot(page, 'landscape-1920x1080');
  await shoot(pageB, 'portrait-1080x1920');

  // A screen in its power window wakes for an override of its own group.
  const woken = await stack.api<{ id: string }>('POST', '/overrides', {
    title: 'Storm warning',
    message: 'Stay inside.',
    background_color: '#ffd400',
    target: { group_id: night.id },
  });
  const wokenAnswered = Date.now();
  const wokenDrawn = await paintedAt(pageC, woken.id);
  print(
    `${c.tag} (in its power window): drawn ${wokenDrawn - wokenAnswered} ms after POST /overrides answered`,
  );
  expect(wokenDrawn - wokenAnswered).toBeLessThan(1000);
  await expect(pageC.getByTestId('screen-off')).toHaveCount(0);
  await shoot(pageC, 'woken-yellow');

  // b restarted (the page reloads from the new process): it shows the override again.
  await b.stop();
  await pageB.goto(await b.start());
  await expect(pageB.getByRole('alert')).toContainText('Fire alarm', { timeout: 5_000 });

  // b restarted again with the service gone: from its saved state and its cache, image included.
  await stack.killService();
  await b.stop('SIGKILL');
  const restarted = Date.now();
  await pageB.goto(await b.start());
  await expect(pageB.getByRole('alert')).toContainText('Fire alarm', { timeout: 5_000 });
  print(
    `${b.tag} restarted offline: the override on screen ${Date.now() - restarted} ms after the process started`,
  );
  await expect(pageB.locator('.override-image')).toHaveJSProperty('naturalWidth', 640);
  await stack.startService();

  // Once a reconnects its heartbeat names the override as what it shows.
  await expect
    .poll(
      async () =>
        (await stack.api<{ tag: string; showing: string }[]>('GET', '/devices?include=status')).find(
          (d) => d.tag === a.tag,
        )?.showing,
      { timeout: 20_000 },
    )
    .toBe(`override:${raised.id}`);

  // Cleared: the board comes back on a and b, and c goes back to sleep.
  await stack.api('DELETE', `/overrides/${raised.id}`);
  await stack.api('DELETE', `/overrides/${woken.id}`);
  for (const shown of [page, pageB]) {
    await expect(shown.getByRole('alert')).toHaveCount(0, { timeout: 10_000 });
    await expect(shown.locator('[data-board-name="Day"]')).toBeVisible();
  }
  await expect(pageC.getByTestId('override')).toHaveCount(0, { timeout: 10_000 });
  await expect(pageC.getByTestId('screen-off')).toBeVisible();
  expect(await stack.api('GET', '/overrides')).toEqual([]);
});
