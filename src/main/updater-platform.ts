import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { AppImageUpdater, MacUpdater, NsisUpdater } from 'electron-updater';
import type { Logger } from '../agent/ports';
import { ShellUpdateTarget, type ShellUpdater } from './updater';

/**
 * Why this shell cannot update itself, or null when it can: only a packaged build replaces itself
 * (an AppImage on Linux, the NSIS install on Windows, the dmg's app on macOS). A deb or rpm is the
 * system's package manager's to update (electron-updater's way needs a password prompt).
 */
export function whyNoShellUpdates(proc: {
  isPackaged: boolean;
  platform: NodeJS.Platform;
  env: Record<string, string | undefined>;
  resourcesPath: string;
}): string | null {
  if (!proc.isPackaged) return 'not a packaged build';
  if (proc.platform === 'linux') {
    if (existsSync(join(proc.resourcesPath, 'package-type')))
      return 'a system package (deb or rpm): its package manager updates it';
    if (!proc.env.APPIMAGE) return 'not run from an AppImage';
    return null;
  }
  return proc.platform === 'win32' || proc.platform === 'darwin' ? null : `no updater for ${proc.platform}`;
}

/** electron-updater's updater for this platform, with Electron's own app and network (made once). */
export function platformUpdater(platform: NodeJS.Platform): ShellUpdater {
  if (platform === 'win32') return new NsisUpdater();
  if (platform === 'darwin') return new MacUpdater();
  return new AppImageUpdater();
}

/** The shell's update target, or null where the shell cannot replace itself (said in the log). */
export function shellUpdateTarget(options: {
  isPackaged: boolean;
  platform: NodeJS.Platform;
  env: Record<string, string | undefined>;
  resourcesPath: string;
  version: string;
  /** Where electron-updater's settings file goes (userData/updates). */
  dataDir: string;
  /** electron-updater's updater; by default this platform's (tests give one with the fake app). */
  updater?: () => ShellUpdater;
  restart(reason: string): void;
  log: Logger;
}): ShellUpdateTarget | null {
  const why = whyNoShellUpdates(options);
  if (why) {
    options.log.info(`the shell does not update itself here: ${why}`);
    return null;
  }
  return new ShellUpdateTarget({
    createUpdater: options.updater ?? (() => platformUpdater(options.platform)),
    version: options.version,
    platform: options.platform,
    dataDir: options.dataDir,
    appImage: options.env.APPIMAGE,
    restart: options.restart,
    log: options.log,
  });
}
