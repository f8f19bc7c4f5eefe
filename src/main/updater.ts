import { renameSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { CancellationToken, type UpdateCheckResult, type UpdateInfo } from 'electron-updater';
import type { ReleaseOffer } from '../shared/release';
import type { Logger } from '../agent/ports';
import { verifyFile } from '../agent/update-files';
import {
  UpdateRefused,
  type InstallResult,
  type ReleaseSource,
  type UpdateTarget,
} from '../agent/update-ports';

/**
 * What the shell uses of electron-updater's updater (AppImageUpdater, NsisUpdater, MacUpdater):
 * the real one in the app (updater-platform.ts), one built with the fake Electron's app in tests.
 */
export interface ShellUpdater {
  autoDownload: boolean;
  autoInstallOnAppQuit: boolean;
  allowDowngrade: boolean;
  disableDifferentialDownload: boolean;
  disableWebInstaller: boolean;
  logger: Logger | null;
  /** electron-updater's own settings file (it names its cache folder); the shell writes its own. */
  updateConfigPath: string | null;
  setFeedURL(url: string): void;
  addAuthHeader(token: string): void;
  checkForUpdates(): Promise<UpdateCheckResult | null>;
  downloadUpdate(cancellationToken?: CancellationToken): Promise<string[]>;
  quitAndInstall(isSilent?: boolean, isForceRunAfter?: boolean): void;
  /** BaseUpdater's: installs the downloaded file without quitting (the AppImage's way here). */
  install?(isSilent?: boolean, isForceRunAfter?: boolean): boolean;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'appimage-filename-updated', listener: (path: string) => void): unknown;
  off(event: 'error', listener: (error: Error) => void): unknown;
}

export interface ShellUpdateOptions {
  /** Makes electron-updater's updater, on the first offer (nothing of it runs before). */
  createUpdater: () => ShellUpdater;
  /** The version that runs (app.getVersion()). */
  version: string;
  platform: NodeJS.Platform;
  /** The processor (process.arch): on Linux, which feed electron-updater reads. */
  arch?: string;
  /** Where the shell keeps electron-updater's settings file (userData). */
  dataDir: string;
  /** The AppImage this process runs from (process.env.APPIMAGE), on Linux. */
  appImage?: string;
  /** Ends this process so that the installed version starts (the shell's restart: systemd or relaunch). */
  restart(reason: string): void;
  log: Logger;
}

/** The folder electron-updater keeps its downloads in, under the system's cache folder. */
export const UPDATER_CACHE_DIR_NAME = 'wallboard-updater';

/**
 * The feed electron-updater reads on this platform and processor, as its generic provider names
 * it: `latest.yml` on Windows, `latest-mac.yml`, `latest-linux.yml` (x64) or `latest-linux-<arch>.yml`.
 */
export function feedNameFor(platform: NodeJS.Platform, arch: string): string {
  if (platform === 'linux') return `latest-linux${arch === 'x64' ? '' : `-${arch}`}.yml`;
  return platform === 'darwin' ? 'latest-mac.yml' : 'latest.yml';
}

/** electron-updater's error codes that say the release is wrong, not the moment. */
const REFUSING_CODES = new Set([
  'ERR_CHECKSUM_MISMATCH',
  'ERR_UPDATER_CHANNEL_FILE_NOT_FOUND',
  'ERR_UPDATER_INVALID_UPDATE_INFO',
  'ERR_UPDATER_INVALID_VERSION',
  'ERR_UPDATER_NO_CHECKSUM',
  'ERR_UPDATER_NO_FILES_PROVIDED',
]);

/**
 * The Electron shell's update target (docs/electron.md, "Updates"): electron-updater's generic
 * provider, pointed at the offer's `base_url` with the device token in an Authorization header,
 * reads the feed (`latest-linux.yml`, `latest.yml`, `latest-mac.yml`), downloads the installer
 * and verifies it by the sha512 the feed gives. Never on its own: no automatic download, no
 * install on quit, downgrades allowed (a rollback is an offer of a lower version), no
 * differential download (every byte comes whole and is checked whole). The feed must offer the
 * version the service offers, with the files the service lists (same sha512 and size), and the
 * downloaded file is verified once more against the service's list before anything installs it.
 */
export class ShellUpdateTarget implements UpdateTarget {
  readonly kind = 'shell';
  private updater: ShellUpdater | null = null;
  private downloaded: { version: string; file: string } | null = null;

  constructor(private readonly options: ShellUpdateOptions) {}

  currentVersion(): string {
    return this.options.version;
  }

  async download(offer: ReleaseOffer, source: ReleaseSource, signal: AbortSignal): Promise<void> {
    this.downloaded = null;
    // A release built for other platforms is refused before a byte is asked for: said once, in
    // words, rather than as the 404 electron-updater would meet.
    const arch = this.options.arch ?? process.arch;
    const feed = feedNameFor(this.options.platform, arch);
    if (!offer.files.some((file) => basename(file.name) === feed)) {
      throw new UpdateRefused(
        `release ${offer.version} has no ${feed}: it was not built for ${this.options.platform} on ${arch}`,
      );
    }
    const updater = await this.updaterFor(source);
    const check = await refusals(() => updater.checkForUpdates());
    if (!check) {
      throw new UpdateRefused(
        'electron-updater does not run here (not a packaged AppImage, NSIS or dmg build)',
      );
    }
    const info = check.updateInfo;
    if (info.version !== offer.version) {
      throw new UpdateRefused(`the feed offers ${info.version}, the service offers ${offer.version}`);
    }
    if (!check.isUpdateAvailable) {
      throw new UpdateRefused(
        `electron-updater takes ${info.version} for no update from ${this.options.version}`,
      );
    }
    feedMatchesOffer(info, offer);
    const cancel = new CancellationToken();
    const abort = () => cancel.cancel();
    signal.addEventListener('abort', abort, { once: true });
    let files: string[];
    try {
      files = await refusals(() => updater.downloadUpdate(cancel));
    } finally {
      signal.removeEventListener('abort', abort);
    }
    // Verified by electron-updater against the feed; verified again against the service's list.
    for (const file of files) {
      const listed = offer.files.find((candidate) => basename(candidate.name) === basename(file));
      if (!listed)
        throw new UpdateRefused(
          `electron-updater downloaded ${basename(file)}, which the release does not list`,
        );
      await verifyFile(file, listed);
    }
    const [installer] = files;
    if (!installer) throw new UpdateRefused('electron-updater downloaded nothing');
    this.downloaded = { version: offer.version, file: installer };
    this.options.log.info(`shell ${offer.version} downloaded and verified: ${installer}`);
  }

  /**
   * On Windows and macOS, electron-updater's quitAndInstall: the installer (silent) replaces the
   * app and starts it again. On Linux, the AppImage is replaced in place (install without the
   * run its quitAndInstall would start beside this still running process, which the single
   * instance lock would turn away, and which systemd would kill with this one), under the name
   * it had (autostart and the systemd unit name that file), and the shell restarts itself.
   */
  async install(offer: ReleaseOffer): Promise<InstallResult> {
    const updater = this.updater;
    if (!updater || this.downloaded?.version !== offer.version) {
      throw new Error(`shell ${offer.version} is not downloaded`);
    }
    const errors: Error[] = [];
    const heard = (error: Error) => errors.push(error);
    updater.on('error', heard);
    try {
      if (this.options.platform === 'linux') {
        this.installAppImage(updater);
        if (errors.length === 0) this.options.restart(`installing the shell ${offer.version}`);
      } else {
        updater.quitAndInstall(true, true);
        // quitAndInstall reports a failure as an `error` event, before it quits on the next turn.
        await new Promise((resolve) => setImmediate(resolve));
      }
    } finally {
      updater.off('error', heard);
    }
    const [error] = errors;
    if (error) throw new Error(`the installer did not run: ${error.message}`);
    return 'restarting';
  }

  private installAppImage(updater: ShellUpdater): void {
    const appImage = this.options.appImage;
    if (!appImage || !updater.install)
      throw new Error('this shell does not run from an AppImage: it cannot replace itself');
    let moved: string | null = null;
    updater.on('appimage-filename-updated', (path) => (moved = path));
    if (!updater.install(true, false)) throw new Error('electron-updater did not install the AppImage');
    // A versioned file name gets the new version's: it goes back under the name the system starts.
    if (moved !== null && moved !== appImage) renameSync(moved, appImage);
  }

  /** The updater, set up for this source: our feed, our token, never on its own. */
  private async updaterFor(source: ReleaseSource): Promise<ShellUpdater> {
    const updater = (this.updater ??= this.options.createUpdater());
    updater.autoDownload = false;
    updater.autoInstallOnAppQuit = false;
    updater.allowDowngrade = true;
    updater.disableDifferentialDownload = true;
    updater.disableWebInstaller = true;
    updater.logger = this.options.log;
    // A packaged app has no app-update.yml of electron-builder's unless it was built with a publish
    // setting; electron-updater reads it for its cache folder's name, so the shell writes its own.
    const config = join(this.options.dataDir, 'app-update.yml');
    await mkdir(this.options.dataDir, { recursive: true });
    await writeFile(
      config,
      `provider: generic\nurl: ${JSON.stringify(source.baseUrl)}\nupdaterCacheDirName: ${UPDATER_CACHE_DIR_NAME}\n`,
    );
    updater.updateConfigPath = config;
    updater.setFeedURL(source.baseUrl);
    updater.addAuthHeader(`Bearer ${source.token}`);
    return updater;
  }
}

/** Every file the feed names is one the service lists for the release, with the same sha512 and size. */
function feedMatchesOffer(info: UpdateInfo, offer: ReleaseOffer): void {
  for (const file of info.files) {
    const listed = offer.files.find(
      (candidate) => candidate.name === file.url || basename(candidate.name) === basename(file.url),
    );
    if (!listed) throw new UpdateRefused(`the feed names ${file.url}, which the release does not list`);
    if (listed.sha512 !== file.sha512 || (file.size !== undefined && listed.size !== file.size)) {
      throw new UpdateRefused(`the feed's ${file.url} is not the release's (its sha512 or size differs)`);
    }
  }
}

/** electron-updater's refusals of the release as UpdateRefused; the rest (the network) as they are. */
async function refusals<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const status = (error as { statusCode?: unknown }).statusCode;
    const message = (error as Error).message.split('\n')[0] ?? String(error);
    if ((typeof code === 'string' && REFUSING_CODES.has(code)) || status === 404) {
      throw new UpdateRefused(`electron-updater: ${message}`);
    }
    throw error;
  }
}
