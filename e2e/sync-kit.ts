import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from '@playwright/test';
import { ClockEstimator } from '../src/shared/sync-clock';
import { aroundLoop } from '../src/shared/sync-timeline';
import type { Stack } from './stack';

/**
 * What the sync group's e2e spec and bench share (docs/sync.md): several real web players on one
 * real service, each page in Chromium with its clock offset by Playwright's clock emulation, one
 * of them behind a link that delays every byte, and each switch stamped on a common clock.
 */

const WEB_PLAYER = fileURLToPath(new URL('../dist/web-player/main.mjs', import.meta.url));

/** A TCP proxy on loopback that delays every chunk by `ms` each way: a slow link, order kept. */
export async function delayingProxy(
  target: URL,
  ms: number,
): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const delayed = (from: Socket, to: Socket) => {
    from.on('data', (chunk) => setTimeout(() => to.writable && to.write(chunk), ms));
    from.on('end', () => setTimeout(() => to.end(), ms));
    from.on('error', () => to.destroy());
  };
  const server: Server = createServer((client) => {
    const upstream = createConnection({ host: target.hostname, port: Number(target.port) });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    }
    delayed(client, upstream);
    delayed(upstream, client);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the proxy has no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    async close() {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, 'close').catch(() => undefined);
    },
  };
}

export interface Screen {
  tag: string;
  /** The page's clock less the true one, as set by Playwright (ms). */
  offsetMs: number;
  page: Page;
  process: ChildProcess;
  output: string;
}

export interface ScreenSpec {
  tag: string;
  offsetMs: number;
  /** The service's address this screen's agent uses (a delaying proxy's, say). */
  server: string;
}

/** Starts a web player for each spec (its own process, data folder and token) and its page. */
export async function startScreens(
  stack: Stack,
  browser: Browser,
  specs: readonly ScreenSpec[],
  viewport = { width: 640, height: 360 },
): Promise<Screen[]> {
  const screens: Screen[] = [];
  for (const spec of specs) {
    const { token } = await stack.api<{ token: string }>('POST', '/account/tokens', {
      scope: 'affiliated',
      name: `screen ${spec.tag}`,
    });
    const child = spawn(
      process.execPath,
      [
        ...[WEB_PLAYER, '--server', spec.server, '--token', token, '--tag', spec.tag, '--name', spec.tag],
        ...['--port', '0', '--data-dir', join(stack.dir, `device-${spec.tag}`)],
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const screen = { tag: spec.tag, offsetMs: spec.offsetMs, process: child, output: '' } as Screen;
    const url = await new Promise<string>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        screen.output += chunk.toString();
        const match = / at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(screen.output);
        if (match?.[1]) resolve(match[1]);
      };
      child.stdout?.on('data', onData);
      child.stderr?.on('data', onData);
      child.once('exit', (code) =>
        reject(new Error(`web player ${spec.tag} exited with ${code}: ${screen.output}`)),
      );
    });
    const page = await browser.newPage({ viewport });
    // The page's wall clock runs `offsetMs` off the true one, as a screen's unsynchronised clock does.
    await page.clock.install({ time: Date.now() + spec.offsetMs });
    // tsx compiles this file with esbuild's keepNames, which wraps named functions in `__name()`:
    // the page needs the helper for the functions this file hands it.
    await page.addInitScript({ content: 'globalThis.__name = (target) => target;' });
    await page.addInitScript(recordSwitchesInPage);
    await page.goto(url);
    screen.page = page;
    screens.push(screen);
  }
  return screens;
}

/** Until the screen's agent has registered its device with the service (a slow link takes a while). */
export async function registered(stack: Stack, tag: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (
      await stack.api('GET', `/devices/${tag}`).then(
        () => true,
        () => false,
      )
    )
      return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`device ${tag} did not register within ${ms} ms`);
}

/** A playlist of two boards (each one value widget), 1 s each: a switch every second. */
export async function twoBoardPlaylist(stack: Stack): Promise<{ id: string }> {
  const boardOf = async (tag: string) =>
    (
      await stack.api<{ id: string }>('POST', '/boards/import', {
        name: tag,
        widgets: [
          { flow: { tag, data: { value: 1 } }, variant: 'value', column: 0, row: 0, width: 8, height: 6 },
        ],
      })
    ).id;
  return stack.api<{ id: string }>('POST', '/playlists', {
    name: 'Sync',
    items: [
      { type: 'board', board_id: await boardOf('sync-a'), duration: 1 },
      { type: 'board', board_id: await boardOf('sync-b'), duration: 1 },
    ],
  });
}

export async function stopScreens(screens: readonly Screen[]): Promise<void> {
  for (const screen of screens) {
    await screen.page.close().catch(() => undefined);
    const child = screen.process;
    if (child.exitCode !== null || child.signalCode !== null) continue;
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await exited;
  }
}

/**
 * In each page: every change of what is on screen, with the page's own `Date.now()` at the
 * commit (a MutationObserver runs right after it, in the same task).
 */
function recordSwitchesInPage(): void {
  const switches: { showing: string; at: number }[] = [];
  Object.assign(window, { syncSwitches: switches });
  let last = '';
  const look = () => {
    const showing =
      document.querySelector('[data-testid="player-current"]')?.getAttribute('data-showing') ?? 'waiting';
    if (showing === last) return;
    last = showing;
    switches.push({ showing, at: Date.now() });
  };
  new MutationObserver(look).observe(document, { subtree: true, childList: true, attributes: true });
}

/**
 * How far the page's clock is from the bench's, measured (not assumed): round trips of
 * `page.evaluate(Date.now)`, filtered by the shortest as the product does. Within about a
 * millisecond on loopback.
 */
export async function measuredOffset(page: Page, rounds = 12): Promise<number> {
  const estimator = new ClockEstimator(rounds);
  for (let round = 0; round < rounds; round++) {
    const sent = Date.now();
    const remote = await page.evaluate(() => Date.now());
    estimator.add({ sent, remote, received: Date.now() });
  }
  return estimator.estimate()?.offsetMs ?? 0;
}

/** Every switch a page recorded, on the bench's clock. */
export async function switchesOf(screen: Screen, offset: number): Promise<{ showing: string; at: number }[]> {
  const recorded = await screen.page.evaluate(
    () => (window as unknown as { syncSwitches: { showing: string; at: number }[] }).syncSwitches,
  );
  return recorded.map((entry) => ({ showing: entry.showing, at: entry.at - offset }));
}

/**
 * The spread of each switch across screens: for each switch of the first screen after `from`,
 * the same switch (same item, the nearest in time) of every other; max minus min, in ms.
 */
export function switchSpreads(
  perScreen: readonly { showing: string; at: number }[][],
  from: number,
  count: number,
): number[] {
  const [first, ...others] = perScreen.map((switches) =>
    switches.filter((entry) => entry.at >= from && entry.showing !== 'waiting'),
  );
  const spreads: number[] = [];
  for (const entry of (first ?? []).slice(0, count)) {
    const times = [entry.at];
    for (const other of others) {
      const same = other.filter((candidate) => candidate.showing === entry.showing);
      if (same.length === 0) return spreads;
      const nearest = same.reduce((best, candidate) =>
        Math.abs(candidate.at - entry.at) < Math.abs(best.at - entry.at) ? candidate : best,
      );
      times.push(nearest.at);
    }
    spreads.push(Math.max(...times) - Math.min(...times));
  }
  return spreads;
}

/**
 * How far the video on `page`'s screen is from a timeline that started at `epochMs` on the
 * bench's clock (positive: ahead), in ms, with the video's length; null while none plays. Five reads
 * on successive frames, each `currentTime` beside the page's `Date.now()` (whole ms under the
 * clock emulation), put on the bench's clock by `offset`: their median.
 */
export async function videoError(
  page: Page,
  offset: number,
  epochMs: number,
): Promise<{ errorMs: number; lengthMs: number } | null> {
  const reads = await page.evaluate(
    () =>
      new Promise<{ at: number; position: number; length: number }[]>((resolve) => {
        const found: { at: number; position: number; length: number }[] = [];
        const read = () => {
          const video = document.querySelector<HTMLVideoElement>('[data-testid="player-current"] video');
          if (video && Number.isFinite(video.duration) && video.duration > 0)
            found.push({ at: Date.now(), position: video.currentTime, length: video.duration });
          if (found.length >= 5 || !video) resolve(found);
          else requestAnimationFrame(read);
        };
        requestAnimationFrame(read);
      }),
  );
  const errors = reads.map(({ at, position, length }) =>
    aroundLoop(position * 1000 - (at - offset - epochMs), length * 1000),
  );
  const lengthMs = (reads[0]?.length ?? 0) * 1000;
  if (errors.length === 0) return null;
  errors.sort((a, b) => a - b);
  return { errorMs: errors[Math.floor(errors.length / 2)] ?? 0, lengthMs };
}
