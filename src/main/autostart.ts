import { execFile } from 'node:child_process';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

export const UNIT_NAME = 'wallboard.service';
const DESKTOP_NAME = 'wallboard.desktop';

export interface AutostartTarget {
  platform: NodeJS.Platform;
  /** The user's home; XDG_CONFIG_HOME, when set, wins for the Linux files. */
  home: string;
  xdgConfigHome?: string;
  /** The program and arguments that start the app (an AppImage's path, not its mount point). */
  command: string[];
  /** Where wallboard.desktop and wallboard.service (with their @APP@ placeholder) are. */
  templatesDir: string;
}

export interface AutostartEdges {
  /** Electron's app.setLoginItemSettings, for Windows and macOS. */
  setLoginItemSettings(settings: { openAtLogin: boolean; path?: string; args?: string[] }): void;
  /** Runs `systemctl --user <args>`; false when it fails or there is no systemd. */
  systemctl(args: string[]): Promise<boolean>;
}

export function autostartFiles(target: Pick<AutostartTarget, 'home' | 'xdgConfigHome'>): {
  desktop: string;
  unit: string;
} {
  const config = target.xdgConfigHome || join(target.home, '.config');
  return {
    desktop: join(config, 'autostart', DESKTOP_NAME),
    unit: join(config, 'systemd', 'user', UNIT_NAME),
  };
}

/** One argument of a desktop entry's Exec key (Desktop Entry Specification, "The Exec key"). */
export function desktopArg(arg: string): string {
  const escaped = arg.replace(/%/g, '%%');
  if (!/[\s"'\\><~|&;$*?#()`]/.test(escaped) && escaped !== '') return escaped;
  const quoted = `"${escaped.replace(/(["`$\\])/g, '\\$1')}"`;
  // The string-value escape of the key comes on top of the quoting rule: each backslash doubles.
  return quoted.replace(/\\/g, '\\\\');
}

/** One argument of a systemd ExecStart line (systemd.syntax(7), systemd.service(5)). */
export function systemdArg(arg: string): string {
  const escaped = arg.replace(/%/g, '%%').replace(/\$/g, '$$$$');
  if (!/[\s"'\\;]/.test(escaped) && escaped !== '') return escaped;
  return `"${escaped.replace(/(["\\])/g, '\\$1')}"`;
}

/** The two Linux files, from the templates shipped in resources/linux. */
export async function renderLinuxFiles(target: AutostartTarget): Promise<{ desktop: string; unit: string }> {
  const [desktop, unit] = await Promise.all([
    readFile(join(target.templatesDir, DESKTOP_NAME), 'utf8'),
    readFile(join(target.templatesDir, UNIT_NAME), 'utf8'),
  ]);
  return {
    desktop: desktop.replaceAll('@APP@', () => target.command.map(desktopArg).join(' ')),
    unit: unit.replaceAll('@APP@', () => target.command.map(systemdArg).join(' ')),
  };
}

/**
 * Starts the app when the user logs in. Windows and macOS: the login item. Linux: an XDG
 * autostart entry, and a systemd user unit that restarts the app when it fails (the entry starts
 * the unit where systemd runs the session, else the app itself). The files are written even where
 * `systemctl --user` is not available, for a later session that has it. Returns what was done.
 */
export async function installAutostart(target: AutostartTarget, edges: AutostartEdges): Promise<string[]> {
  if (target.platform !== 'linux') {
    const [path, ...args] = target.command;
    edges.setLoginItemSettings({ openAtLogin: true, ...(path ? { path, args } : {}) });
    return ['the app now starts at login (login item)'];
  }
  const files = autostartFiles(target);
  const rendered = await renderLinuxFiles(target);
  const done: string[] = [];
  for (const [file, text] of [
    [files.desktop, rendered.desktop],
    [files.unit, rendered.unit],
  ] as const) {
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, text, { mode: 0o644 });
    done.push(`wrote ${file}`);
  }
  const enabled =
    (await edges.systemctl(['daemon-reload'])) && (await edges.systemctl(['enable', UNIT_NAME]));
  done.push(
    enabled
      ? `enabled the systemd user unit ${UNIT_NAME}`
      : `could not enable ${UNIT_NAME} (no systemd user session?); the autostart entry starts the app`,
  );
  return done;
}

export async function removeAutostart(target: AutostartTarget, edges: AutostartEdges): Promise<string[]> {
  if (target.platform !== 'linux') {
    edges.setLoginItemSettings({ openAtLogin: false });
    return ['the app no longer starts at login'];
  }
  const files = autostartFiles(target);
  const done: string[] = [];
  if (await edges.systemctl(['disable', UNIT_NAME])) done.push(`disabled ${UNIT_NAME}`);
  for (const file of [files.desktop, files.unit]) {
    await rm(file, { force: true });
    done.push(`removed ${file}`);
  }
  await edges.systemctl(['daemon-reload']);
  return done;
}

/** `systemctl --user`, given up after 15 s. */
export function runSystemctl(args: string[]): Promise<boolean> {
  return new Promise((resolve) => {
    execFile('systemctl', ['--user', ...args], { timeout: 15_000 }, (error) => resolve(error === null));
  });
}
