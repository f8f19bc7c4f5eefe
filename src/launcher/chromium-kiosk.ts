import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import si from 'systeminformation';
import { FRAME_ISOLATION_FEATURE } from '../shared/custom-frame';
import type { KioskExit, KioskRun } from './kiosk-healing';

/** The screen's size in pixels. */
export interface ScreenSize {
  width: number;
  height: number;
}

/** Debian's Chromium, unless CHROMIUM_PATH names another. */
export function chromiumPath(env: Record<string, string | undefined>): string {
  return env.CHROMIUM_PATH ?? '/usr/bin/chromium';
}

/**
 * What keeps Chromium from reaching for the network on its own (a screen may have none) and lets
 * media play unattended. The tests' browser (chromium.ts) uses the same flags.
 */
export const CHROMIUM_QUIET_ARGS = [
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--autoplay-policy=no-user-gesture-required',
];

/**
 * Where the kiosk window goes. `--kiosk` asks the window manager for full screen; without one
 * (a bare X server started for the screen) nothing answers and Chromium opens a window of its
 * default size in a corner. So the window is also placed over the whole screen. Chromium shrinks
 * a window of exactly the screen's size by a pixel each way (it leaves such a window to a window
 * manager to make full screen), so the window asks for one row more than the screen has: the
 * screen is covered, and the page's last pixel row is below its edge.
 */
/** Custom widgets' frames in processes of their own (src/shared/custom-frame.ts). */
export const CHROMIUM_ISOLATION_ARGS = [`--enable-features=${FRAME_ISOLATION_FEATURE}`];

export function windowArgs(screen: ScreenSize | null): string[] {
  if (!screen) return [];
  return ['--window-position=0,0', `--window-size=${screen.width},${screen.height + 1}`];
}

export function chromiumKioskArgs(
  url: string,
  userDataDir: string,
  runningAsRoot: boolean,
  screen: ScreenSize | null = null,
): string[] {
  return [
    ...CHROMIUM_QUIET_ARGS,
    ...CHROMIUM_ISOLATION_ARGS,
    // Chromium refuses to start as root with its sandbox on; a kiosk should not run as root anyway.
    ...(runningAsRoot ? ['--no-sandbox'] : []),
    `--user-data-dir=${userDataDir}`,
    '--no-default-browser-check',
    '--noerrdialogs',
    '--disable-session-crashed-bubble',
    '--disable-infobars',
    // No keyring prompt on a screen nobody types at: the profile is thrown away anyway.
    '--password-store=basic',
    '--kiosk',
    ...windowArgs(screen),
    `--app=${url}`,
  ];
}

const execFileText = promisify(execFile);

/** The ways to learn the screen's size, first answer wins: injected by the tests. */
export interface ScreenSources {
  /** systeminformation's displays (it asks xrandr). */
  displays(): Promise<{ main: boolean; currentResX: number | null; currentResY: number | null }[]>;
  /** What `xdpyinfo` prints, or a failure when it is not installed. */
  xdpyinfo(): Promise<string>;
}

const systemScreenSources: ScreenSources = {
  displays: async () => (await si.graphics()).displays,
  xdpyinfo: async () => (await execFileText('xdpyinfo', [], { timeout: 5000 })).stdout,
};

/**
 * The size of the screen the kiosk shows on: the main display systeminformation finds (through
 * xrandr), else the `dimensions` xdpyinfo prints for the X screen; null when neither can say
 * (Wayland, or an X server without those tools), and the kiosk then relies on `--kiosk` alone.
 */
export async function screenSize(sources: ScreenSources = systemScreenSources): Promise<ScreenSize | null> {
  const displays = await sources.displays().catch(() => []);
  const display = displays.find((candidate) => candidate.main) ?? displays[0];
  if (display?.currentResX && display.currentResY) {
    return { width: display.currentResX, height: display.currentResY };
  }
  const info = await sources.xdpyinfo().catch(() => '');
  const match = /dimensions:\s+(\d+)x(\d+) pixels/.exec(info);
  return match ? { width: Number(match[1]), height: Number(match[2]) } : null;
}

/** Chromium can be shown: it is installed and there is a display to show it on. */
export function chromiumAvailable(
  env: Record<string, string | undefined>,
  exists: (path: string) => boolean = existsSync,
): { ok: true; path: string } | { ok: false; reason: string } {
  const path = chromiumPath(env);
  if (!exists(path)) return { ok: false, reason: `no Chromium at ${path}` };
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY)
    return { ok: false, reason: 'no display (DISPLAY and WAYLAND_DISPLAY are unset)' };
  return { ok: true, path };
}

export interface KioskBrowser extends KioskRun {
  child: ChildProcess;
}

/**
 * Opens `url` full-screen (over `screen`, when its size is known) in a throw-away Chromium
 * profile; the profile goes when it exits.
 */
export async function openChromiumKiosk(
  path: string,
  url: string,
  screen: ScreenSize | null = null,
): Promise<KioskBrowser> {
  const profile = await mkdtemp(join(tmpdir(), 'wallboard-chromium-'));
  const child = spawn(path, chromiumKioskArgs(url, profile, process.getuid?.() === 0, screen), {
    stdio: 'ignore',
  });
  const exited = new Promise<KioskExit>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
    child.once('error', (error) => resolve({ code: null, signal: null, error: error.message }));
  });
  // Chromium's helper processes may still write into the profile as the browser exits: removing
  // it is tried again a few times, and a profile left in the temporary folder is no failure.
  const dropProfile = () =>
    rm(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 }).catch(() => undefined);
  void exited.then(dropProfile);
  return {
    child,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      await dropProfile();
    },
  };
}
