import { hostname } from 'node:os';
import { join } from 'node:path';
import type * as ElectronModule from 'electron';
import type { BrowserWindow } from 'electron';
import type { DeviceAgent } from '../agent/agent';
import {
  ConfigError,
  defaultTag,
  resolveConfig,
  settingsSchema,
  type ClientConfig,
  type Credential,
} from '../agent/config';
import { settingsFromEnv } from '../agent/flags';
import { createNodeAgent } from '../agent/node-agent';
import { nodeSystemInfo, realClock } from '../agent/node-edges';
import type { Clock, Fetch, Logger, ServiceBrowser, SystemInfo } from '../agent/ports';
import { installAutostart, removeAutostart, runSystemctl, type AutostartTarget } from './autostart';
import { windowControls } from './capture';
import { MAIN_HELP, parseMainArgs, type MainArgs } from './cli';
import { displayPower, execRunner, type RunCommand } from './display-power';
import { createFileLogger } from './file-logger';
import { isolateSandboxedFrames } from './frame-isolation';
import { wireBridge } from './ipc';
import { httpsOnlyFetch, isLoopback } from './media-guard';
import {
  APP_SCHEME,
  createAppHandler,
  createMediaHandler,
  MEDIA_BASE_URL,
  MEDIA_SCHEME,
  PRIVILEGED_SCHEMES,
  TILE_URL_TEMPLATE,
} from './protocols';
import { restartApp } from './restart';
import { SelfHealing, type HealingLimits } from './self-healing';
import { hardenContents, hardenSession } from './session-security';
import { readShellFlagsSync, ShellSettings } from './settings';
import { TokenStore } from './token-store';
import type { ShellUpdater } from './updater';
import { shellUpdateTarget } from './updater-platform';
import { WEB_PAGE_PARTITION, WebPageViews } from './web-page-view';
import { createKioskWindow } from './window';

export type Electron = Pick<
  typeof ElectronModule,
  | 'app'
  | 'BrowserWindow'
  | 'WebContentsView'
  | 'ipcMain'
  | 'protocol'
  | 'session'
  | 'powerSaveBlocker'
  | 'safeStorage'
>;

/** This process, as the shell sees it; tests give their own. */
export interface ShellProcess {
  argv: string[];
  env: Record<string, string | undefined>;
  platform: NodeJS.Platform;
  /** Electron's process.resourcesPath: where the packaged app's extra resources are. */
  resourcesPath: string;
  stdout(text: string): void;
  stderr(text: string): void;
  /** Edges the tests replace; the real ones by default. */
  system?: SystemInfo;
  fetch?: Fetch;
  /** Looks for services on the network when none is configured (mDNS by default). */
  browser?: ServiceBrowser;
  systemctl?: (args: string[]) => Promise<boolean>;
  /** Runs the display's sleep and wake commands (xset, cec-client); execFile with a timeout by default. */
  displayCommands?: RunCommand;
  /** The self-healing's clock (the agent keeps real time). */
  clock?: Clock;
  healingLimits?: Partial<HealingLimits>;
  /** electron-updater's updater (updater-platform.ts by default): tests give one with the fake app. */
  updater?: () => ShellUpdater;
}

export interface Shell {
  window: BrowserWindow;
  agent: DeviceAgent;
  healing: SelfHealing;
  config: ClientConfig;
  log: Logger;
}

/** Exit status of a configuration error; the systemd unit does not restart on it. */
export const CONFIG_ERROR_EXIT_CODE = 2;
const STOP_TIMEOUT_MS = 3000;

function autostartTarget(electron: Electron, proc: ShellProcess): AutostartTarget {
  const { app } = electron;
  // An AppImage runs from a temporary mount: autostart must name the AppImage file itself.
  const command = app.isPackaged
    ? [proc.env.APPIMAGE || proc.argv[0] || app.getPath('exe')]
    : [proc.argv[0] || app.getPath('exe'), app.getAppPath()];
  return {
    platform: proc.platform,
    home: app.getPath('home'),
    xdgConfigHome: proc.env.XDG_CONFIG_HOME,
    command,
    templatesDir: app.isPackaged
      ? join(proc.resourcesPath, 'linux')
      : join(app.getAppPath(), 'resources', 'linux'),
  };
}

async function runAutostartCommand(electron: Electron, proc: ShellProcess, args: MainArgs): Promise<void> {
  const { app } = electron;
  await app.whenReady();
  const edges = {
    setLoginItemSettings: (settings: { openAtLogin: boolean; path?: string; args?: string[] }) =>
      app.setLoginItemSettings(settings),
    systemctl: proc.systemctl ?? runSystemctl,
  };
  try {
    const target = autostartTarget(electron, proc);
    const done = await (args.installAutostart ? installAutostart : removeAutostart)(target, edges);
    proc.stdout(`${done.join('\n')}\n`);
    app.exit(0);
  } catch (error) {
    proc.stderr(`wallboard: ${(error as Error).message}\n`);
    app.exit(1);
  }
}

/** Flags, the environment, then the stored settings and token; flags given are remembered. */
async function loadConfig(
  args: MainArgs,
  proc: ShellProcess,
  settings: ShellSettings,
  tokens: TokenStore,
  userData: string,
): Promise<ClientConfig> {
  const system = proc.system ?? nodeSystemInfo;
  const stored = await settings.readSettings();
  const config = resolveConfig(
    {
      flags: args.settings,
      env: settingsFromEnv(proc.env),
      stored: {
        ...(typeof stored === 'object' && stored !== null ? stored : {}),
        token: await tokens.read(),
      },
    },
    {
      tag: defaultTag(await system.machineId().catch(() => hostname())),
      name: await system.hostname().catch(() => hostname()),
      cacheDir: join(userData, 'media'),
    },
  );
  const { token, ...rest } = args.settings;
  // Validated by resolveConfig already; parsed again for the numbers.
  await settings.remember(settingsSchema.omit({ token: true }).parse(rest));
  if (token) await tokens.write(token);
  return config;
}

/**
 * The composition root of the Electron main process: one instance, the agent with its real
 * edges, the app and media protocols, the locked-down kiosk window, the bridge over IPC and the
 * self-healing. Returns null when this process only had a command to run (or nothing to do).
 */
export async function startShell(electron: Electron, proc: ShellProcess): Promise<Shell | null> {
  const { app } = electron;
  const args = parseMainArgs(proc.argv.slice(app.isPackaged ? 1 : 2));
  if (args.help) {
    proc.stdout(MAIN_HELP);
    app.exit(0);
    return null;
  }
  electron.protocol.registerSchemesAsPrivileged(PRIVILEGED_SCHEMES);
  isolateSandboxedFrames(app);
  // A second screen's instance on one machine, or a test, keeps its own state (and lock).
  if (proc.env.WALLBOARD_USER_DATA) app.setPath('userData', proc.env.WALLBOARD_USER_DATA);
  const userData = app.getPath('userData');
  const settingsDir = join(userData, 'settings');
  const gpuDisabled = readShellFlagsSync(settingsDir, {
    warn: (message) => proc.stderr(`wallboard: ${message}\n`),
  }).disable_gpu;
  if (gpuDisabled) app.disableHardwareAcceleration();

  if (args.installAutostart || args.removeAutostart) {
    await runAutostartCommand(electron, proc, args);
    return null;
  }
  if (!app.requestSingleInstanceLock()) {
    proc.stderr('wallboard: already running on this screen\n');
    app.exit(0);
    return null;
  }
  await app.whenReady();

  const log = createFileLogger({
    dir: join(userData, 'logs'),
    echo: (line) => proc.stderr(line),
    level: proc.env.WALLBOARD_LOG_LEVEL,
  });
  log.info(`Wallboard ${app.getVersion()} starting${gpuDisabled ? ' without hardware acceleration' : ''}`);
  const settings = new ShellSettings(settingsDir, log);
  // electron-store answers any renderer on a channel of its own (the userData path, the version),
  // outside ipc.ts's sender and payload checks; the shell reads its settings in main only.
  electron.ipcMain.removeAllListeners('electron-store-get-data');
  const tokens = new TokenStore(userData, electron.safeStorage, log, proc.platform);
  let config: ClientConfig;
  try {
    config = await loadConfig(args, proc, settings, tokens, userData);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    log.error(`cannot start: ${error.message}`);
    proc.stderr(`wallboard: ${error.message} (see --help)\n`);
    app.exit(CONFIG_ERROR_EXIT_CODE);
    return null;
  }
  const server = config.server ? new URL(config.server) : null;
  if (server?.protocol === 'http:' && !isLoopback(server)) {
    log.warn(`the service ${server.origin} is reached over plain http: its token travels in clear`);
  }

  // A credential got by pairing is kept as one given on the command line is: the token in the
  // token store, the service and the device tag with the remembered settings.
  const saveCredential = async (credential: Credential) => {
    await tokens.write(credential.token);
    await settings.remember({ server: credential.server, tag: credential.tag });
  };
  // Made with the window, below: no page is asked for before the renderer has loaded.
  let webPages: WebPageViews | null = null;
  const shellUpdates = shellUpdateTarget({
    ...proc,
    isPackaged: app.isPackaged,
    version: app.getVersion(),
    dataDir: join(userData, 'updates'),
    restart: (reason) => restartForUpdate(reason),
    log,
  });
  const { agent, tiles } = createNodeAgent({
    config,
    dataDir: userData,
    mediaBaseUrl: MEDIA_BASE_URL,
    tileUrlTemplate: TILE_URL_TEMPLATE,
    appVersion: app.getVersion(),
    log,
    // The service may be found on the network, and is known to the agent only then.
    fetch: httpsOnlyFetch(
      proc.fetch ?? ((url, init) => globalThis.fetch(url, init)),
      () => agent.serviceUrl(),
      () => agent.getState().settings?.web.http_media === true,
    ),
    system: proc.system ?? nodeSystemInfo,
    saveCredential,
    ...(proc.browser ? { browser: proc.browser } : {}),
    // Web pages may be plain http (intranets): their headers are read with the unguarded fetch.
    pageFetch: proc.fetch ?? ((url, init) => globalThis.fetch(url, init)),
    webPages: { show: (request) => webPages?.show(request) ?? Promise.resolve(false) },
    updateTargets: shellUpdates ? [shellUpdates] : [],
  });

  const appPath = app.getAppPath();
  electron.protocol.handle(APP_SCHEME, createAppHandler(join(appPath, 'dist', 'renderer')));
  electron.protocol.handle(MEDIA_SCHEME, createMediaHandler(config.cacheDir, tiles));
  hardenSession(electron.session.defaultSession, log);
  // A web page's view is guarded by web-page-view.ts, which lets it move within its origin.
  const pageSession = electron.session.fromPartition(WEB_PAGE_PARTITION);
  app.on('web-contents-created', (_event, contents) => {
    if (contents.session !== pageSession) hardenContents(contents, log);
  });

  const { window, load } = createKioskWindow(electron.BrowserWindow, {
    preload: join(appPath, 'dist', 'preload', 'index.cjs'),
    windowed: args.windowed,
    log,
  });
  webPages = new WebPageViews({
    WebContentsView: electron.WebContentsView,
    session: electron.session,
    window,
    clock: realClock,
    log,
  });
  // Held while the screen should be lit; let go in a power window, so that nothing of ours keeps
  // the display awake against the DPMS sleep asked for.
  let blocker: number | null = electron.powerSaveBlocker.start('prevent-display-sleep');
  const release = () => {
    if (blocker !== null) electron.powerSaveBlocker.stop(blocker);
    blocker = null;
  };

  const stopAgent = (): Promise<unknown> =>
    Promise.race([
      agent.stop(),
      new Promise((resolve) => setTimeout(resolve, STOP_TIMEOUT_MS).unref()),
    ]).catch((error: unknown) => log.warn(`stopping the agent: ${String(error)}`));
  const restart = (reason: string, extraArgs: string[] = []): void => {
    log.warn(`restarting the app: ${reason}`);
    void settings
      .addPendingRecovery(`restarted the app: ${reason}`)
      .catch((error: unknown) => log.error(`could not save the recovery: ${String(error)}`))
      .then(stopAgent)
      .finally(() => restartApp({ app, argv: proc.argv, env: proc.env }, extraArgs));
  };
  // An installed update is no recovery: the app restarts, from the AppImage file itself when it
  // runs from one (its mount goes with this process).
  const restartForUpdate = (reason: string): void => {
    log.info(`restarting the app: ${reason}`);
    const appImage = proc.env.APPIMAGE;
    const relaunching = appImage
      ? {
          relaunch: (options?: { args?: string[] }) => app.relaunch({ ...options, execPath: appImage }),
          exit: (code: number) => app.exit(code),
        }
      : app;
    void stopAgent().finally(() => restartApp({ app: relaunching, argv: proc.argv, env: proc.env }));
  };
  const healing = new SelfHealing(
    proc.clock ?? realClock,
    {
      reload: () => {
        if (!window.isDestroyed()) window.webContents.reload();
      },
      crashRenderer: () => {
        if (!window.isDestroyed()) window.webContents.forcefullyCrashRenderer();
      },
      restartApp: restart,
      disableGpu: () => settings.setGpuDisabled(true),
      rendererMemoryBytes: () => {
        if (window.isDestroyed()) return null;
        const pid = window.webContents.getOSProcessId();
        const metric = app.getAppMetrics().find((candidate) => candidate.pid === pid);
        return metric ? metric.memory.workingSetSize * 1024 : null;
      },
      // A heartbeat carries recoveries of at most 255 characters.
      record: (what) => agent.recordRecovery(what.slice(0, 255)),
    },
    log,
    { limits: proc.healingLimits, gpuDisabled },
  );
  // Remote commands: reload and capture this window, restart as the self-healing does; power
  // windows put the display itself to sleep where the machine can.
  const power = displayPower({
    platform: proc.platform,
    env: proc.env,
    run: proc.displayCommands ?? execRunner(),
    log,
  });
  agent.useControls({
    ...windowControls(window, () => restart('a remote restart command')),
    sleepDisplay: () => {
      release();
      return power.sleepDisplay();
    },
    wakeDisplay: async () => {
      await power.wakeDisplay();
      blocker ??= electron.powerSaveBlocker.start('prevent-display-sleep');
    },
  });
  window.webContents.on('render-process-gone', (_event, details) => healing.rendererGone(details.reason));
  window.on('unresponsive', () => healing.unresponsive());
  window.on('responsive', () => healing.responsive());
  app.on('child-process-gone', (_event, details) => healing.childProcessGone(details.type, details.reason));

  const unwire = wireBridge({
    ipcMain: electron.ipcMain,
    window,
    host: agent,
    log,
    onShowingChanged: () => healing.showingChanged(),
  });

  let stopped = false;
  app.on('second-instance', () => {
    if (!window.isDestroyed()) window.focus();
  });
  app.on('window-all-closed', () => app.quit());
  app.on('before-quit', (event) => {
    if (stopped) return;
    event.preventDefault();
    stopped = true;
    healing.stop();
    unwire();
    release();
    void stopAgent().finally(() => app.quit());
  });

  for (const what of await settings.takePendingRecoveries()) agent.recordRecovery(what.slice(0, 255));
  await agent.start();
  healing.start();
  load().catch((error: unknown) => log.error(`could not load the page: ${String(error)}`));
  return { window, agent, healing, config, log };
}
