import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it, vi } from 'vitest';
import { realClock } from '../agent/node-edges';
import {
  chromiumAvailable,
  chromiumKioskArgs,
  chromiumPath,
  openChromiumKiosk,
  screenSize,
  windowArgs,
  type KioskBrowser,
} from './chromium-kiosk';
import { healingKiosk, type HealingKiosk } from './kiosk-healing';

const CHROMIUM_PATH = '/usr/bin/chromium';

it('opens the player in kiosk mode with a throw-away profile and no network chatter', () => {
  const args = chromiumKioskArgs('http://127.0.0.1:8080/', '/tmp/profile', false);
  expect(args).toContain('--kiosk');
  expect(args).toContain('--app=http://127.0.0.1:8080/');
  expect(args).toContain('--user-data-dir=/tmp/profile');
  expect(args).toContain('--disable-background-networking');
  expect(args).toContain('--disable-component-update');
  expect(args).toContain('--autoplay-policy=no-user-gesture-required');
  // A custom widget's frame that hangs must not take the board with it.
  expect(args).toContain('--enable-features=IsolateSandboxedIframes');
  expect(args.filter((arg) => arg.startsWith('--enable-features='))).toHaveLength(1);
  expect(args).not.toContain('--no-sandbox');
  expect(args).not.toContain('--disable-gpu');
  expect(chromiumKioskArgs('http://x/', '/tmp/p', true)).toContain('--no-sandbox');
});

it('needs Chromium and a display', () => {
  const installed = (path: string) => path === CHROMIUM_PATH;
  expect(chromiumAvailable({ DISPLAY: ':0' }, installed)).toEqual({ ok: true, path: CHROMIUM_PATH });
  expect(chromiumAvailable({ WAYLAND_DISPLAY: 'wayland-0' }, installed).ok).toBe(true);
  expect(chromiumAvailable({ CHROMIUM_PATH: '/opt/c' }, (path) => path === '/opt/c')).toEqual({
    ok: false,
    reason: expect.stringMatching(/no display/),
  });
  expect(chromiumAvailable({}, installed)).toEqual({
    ok: false,
    reason: expect.stringMatching(/no display/),
  });
  expect(chromiumAvailable({ DISPLAY: ':0' }, () => false)).toEqual({
    ok: false,
    reason: `no Chromium at ${CHROMIUM_PATH}`,
  });
});

it('places the window over the whole screen, one row taller than it, when its size is known', () => {
  expect(windowArgs(null)).toEqual([]);
  expect(windowArgs({ width: 1920, height: 1080 })).toEqual([
    '--window-position=0,0',
    '--window-size=1920,1081',
  ]);
  const args = chromiumKioskArgs('http://x/', '/tmp/p', false, { width: 1280, height: 720 });
  expect(args).toContain('--window-size=1280,721');
  expect(args).toContain('--kiosk');
  // The page comes last, after every flag.
  expect(args.at(-1)).toBe('--app=http://x/');
});

describe('the screen size', () => {
  const none = { displays: async () => [], xdpyinfo: () => Promise.reject(new Error('not installed')) };

  it("is the main display's from systeminformation, else the first one's", async () => {
    const displays = [
      { main: false, currentResX: 1280, currentResY: 1024 },
      { main: true, currentResX: 3840, currentResY: 2160 },
    ];
    expect(await screenSize({ ...none, displays: async () => displays })).toEqual({
      width: 3840,
      height: 2160,
    });
    expect(await screenSize({ ...none, displays: async () => displays.slice(0, 1) })).toEqual({
      width: 1280,
      height: 1024,
    });
  });

  it("is xdpyinfo's when systeminformation finds no display (no xrandr), else unknown", async () => {
    const xdpyinfo = async () => 'screen #0:\n  dimensions:    1280x720 pixels (325x183 millimeters)\n';
    expect(await screenSize({ ...none, xdpyinfo })).toEqual({ width: 1280, height: 720 });
    expect(await screenSize({ displays: () => Promise.reject(new Error('no graphics')), xdpyinfo })).toEqual({
      width: 1280,
      height: 720,
    });
    expect(await screenSize(none)).toBeNull();
  });
});

/** The first program of that name on PATH, or null. */
function onPath(name: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && existsSync(join(dir, name))) return join(dir, name);
  }
  return null;
}

/** A virtual X screen of its own, on a display number the server picks (-displayfd). */
async function startXvfb(xvfb: string): Promise<{ display: string; stop(): Promise<void> }> {
  const child = spawn(xvfb, ['-displayfd', '3', '-screen', '0', '1280x720x24', '-nolisten', 'tcp'], {
    stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
  });
  const number = await new Promise<string>((resolve, reject) => {
    let text = '';
    child.stdio[3]?.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes('\n')) resolve(text.trim());
    });
    child.once('exit', (code) => reject(new Error(`Xvfb exited with ${code}`)));
  });
  return {
    display: `:${number}`,
    async stop() {
      child.kill('SIGTERM');
      if (child.exitCode === null) await once(child, 'exit');
    },
  };
}

/** The geometry of the top-level window titled `title`, as xwininfo reports it (`1280x721+0+0`). */
async function windowGeometry(display: string, title: string): Promise<string | null> {
  const { stdout } = await promisify(execFile)('xwininfo', ['-root', '-tree'], {
    env: { ...process.env, DISPLAY: display },
  });
  const line = stdout.split('\n').find((candidate) => candidate.includes(`"${title}"`));
  return /\s(\d+x\d+[+-]\d+[+-]\d+)\s/.exec(line ?? '')?.[1] ?? null;
}

describe('the real Chromium under a bare X server (no window manager)', () => {
  it('fills the screen, and is started again when killed', async ({ skip }) => {
    const chromium = chromiumPath(process.env);
    const xvfb = onPath('Xvfb');
    const xwininfo = onPath('xwininfo');
    skip(!existsSync(chromium), `no Chromium at ${chromium}`);
    skip(!xvfb, 'no display can be started: Xvfb is not installed (apt-get install xvfb)');
    skip(!xwininfo, 'the window cannot be inspected: xwininfo is not installed (apt-get install x11-utils)');
    const x = await startXvfb(xvfb as string);
    const previousDisplay = process.env.DISPLAY;
    // The browser inherits the environment: it shows on this test's own screen.
    process.env.DISPLAY = x.display;
    const runs: KioskBrowser[] = [];
    const recoveries: string[] = [];
    const page = `data:text/html,<title>kiosk</title><script>setInterval(()=>document.title='kiosk '+innerWidth+'x'+innerHeight,100)</script>`;
    let kiosk: HealingKiosk | null = null;
    try {
      const screen = await screenSize();
      expect(screen).toEqual({ width: 1280, height: 720 });
      kiosk = await healingKiosk({
        open: async () => {
          const run = await openChromiumKiosk(chromium, page, screen);
          runs.push(run);
          return run;
        },
        clock: realClock,
        log: { info: () => undefined, warn: () => undefined, error: () => undefined },
        recovered: (what) => recoveries.push(what),
      });
      const shown = { timeout: 30_000, interval: 200 };
      // The page sees the window's size: the screen's width, and one row more than its height.
      await vi.waitFor(
        async () => expect(await windowGeometry(x.display, 'kiosk 1280x721')).toBe('1280x721+0+0'),
        shown,
      );

      const first = runs[0]?.child;
      first?.kill('SIGKILL');
      await vi.waitFor(
        () => expect(recoveries).toEqual(['kiosk browser restarted after it was killed by SIGKILL']),
        shown,
      );
      expect(first?.signalCode).toBe('SIGKILL');
      expect(runs).toHaveLength(2);
      await vi.waitFor(
        async () => expect(await windowGeometry(x.display, 'kiosk 1280x721')).toBe('1280x721+0+0'),
        shown,
      );
      expect(runs[1]?.child.exitCode).toBeNull();
    } finally {
      await kiosk?.stop();
      if (previousDisplay === undefined) delete process.env.DISPLAY;
      else process.env.DISPLAY = previousDisplay;
      await x.stop();
    }
  }, 90_000);
});
