import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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

export function chromiumKioskArgs(url: string, userDataDir: string, runningAsRoot: boolean): string[] {
  return [
    ...CHROMIUM_QUIET_ARGS,
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
    `--app=${url}`,
  ];
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

export interface KioskBrowser {
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Opens `url` full-screen in a throw-away Chromium profile; the profile goes when it stops. */
export async function openChromiumKiosk(path: string, url: string): Promise<KioskBrowser> {
  const profile = await mkdtemp(join(tmpdir(), 'wallboard-chromium-'));
  const child = spawn(path, chromiumKioskArgs(url, profile, process.getuid?.() === 0), {
    stdio: 'ignore',
  });
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.once('error', () => resolve());
  });
  void exited.then(() => rm(profile, { recursive: true, force: true }));
  return {
    child,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      await rm(profile, { recursive: true, force: true });
    },
  };
}
