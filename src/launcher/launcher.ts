import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, credentialOf, defaultTag, resolveConfig } from '../agent/config';
import {
  agentFlagHelp,
  AGENT_FLAG_OPTIONS,
  flagsOf,
  settingsFromEnv,
  settingsFromFlags,
} from '../agent/flags';
import { readStoredSettings } from '../agent/node-agent';
import type { Logger, SystemInfo } from '../agent/ports';
import type { ElectronBinary } from './electron-binary';
import type { EmbeddedService } from './embedded-service';
import { KIOSK_GAVE_UP_STATUS } from './kiosk-healing';
import type { WebPlayer } from './web-fallback';

export const LAUNCH_HELP = `Usage: npm start -- [options]

Runs the Wallboard kiosk: the Electron app where an Electron runtime exists, else the web player
in Chromium's kiosk mode (or at a printed address). With no service configured, an embedded
service with the demo content runs beside it, and a one-time link (15 minutes) that signs its
admin in to the console is printed. With a service but no token, the screen shows a pairing code
to claim in that service's console; the token it gets is kept for the next start.

Options:
${agentFlagHelp({ server: 'none: the embedded demo service', token: 'none: the screen pairs by a code' })}
  --windowed             Electron only: a normal window instead of the full-screen kiosk
  --web                  the web player even where Electron exists
  --port <port>          the web player's port (default 8080; 0 picks a free one)
  --data-dir <dir>       the embedded service's store and the web player's state
                         (default .wallboard-data/npm-start)
  -h, --help             show this help
`;

export interface Running {
  /** Where the web player is, when it is the one running. */
  url?: string;
  /** Resolves with the exit status once the kiosk has ended. */
  done: Promise<number>;
  stop(): Promise<void>;
}

export interface LauncherDeps {
  root: string;
  rendererDir: string;
  appVersion: string;
  log: Logger;
  system: SystemInfo;
  /** One line for the person who typed `npm start`. */
  say(line: string): void;
  findElectron(): ElectronBinary;
  startService(options: { dataDir: string; deviceTag: string; log: Logger }): Promise<EmbeddedService>;
  spawnElectron(
    path: string,
    args: string[],
    env: Record<string, string>,
  ): { exited: Promise<number>; stop(): Promise<void> };
  startWebPlayer(options: {
    config: ReturnType<typeof resolveConfig>;
    dataDir: string;
    rendererDir: string;
    port: number;
    appVersion: string;
    log: Logger;
  }): Promise<WebPlayer>;
  /**
   * Opens the player in Chromium's kiosk mode, kept there (kiosk-healing.ts): `recovered` hears of
   * each restart, `gaveUp` says when restarting does not help. A reason when it cannot open it.
   */
  openBrowser(
    url: string,
    recovered: (what: string) => void,
  ): Promise<{ stop(): Promise<void>; gaveUp: Promise<string> } | { reason: string }>;
}

function parseLaunchArgs(argv: string[]) {
  return parseArgs({
    args: argv,
    options: {
      ...AGENT_FLAG_OPTIONS,
      windowed: { type: 'boolean', default: false },
      web: { type: 'boolean', default: false },
      port: { type: 'string', default: '8080' },
      'data-dir': { type: 'string', default: join('.wallboard-data', 'npm-start') },
      help: { type: 'boolean', short: 'h', default: false },
    },
  }).values;
}

/**
 * `npm start`: decides what runs. The embedded demo service when no service is configured; then
 * Electron when its binary is there, else the web player (said in one line), shown in Chromium's
 * kiosk mode when Chromium and a display exist. Returns null after --help.
 */
export async function runLauncher(
  argv: string[],
  env: Record<string, string | undefined>,
  deps: LauncherDeps,
): Promise<Running | null> {
  const values = parseLaunchArgs(argv);
  if (values.help) {
    deps.say(LAUNCH_HELP.trimEnd());
    return null;
  }
  const port = Number(values.port);
  if (!/^\d+$/.test(values.port) || port > 65535)
    throw new ConfigError(`--port must be a port number, not "${values.port}"`);
  const dataDir = resolve(values['data-dir']);
  const flags = settingsFromFlags(values);
  const fromEnv = settingsFromEnv(env);
  const tag = flags.tag ?? fromEnv.tag ?? defaultTag(await deps.system.machineId().catch(() => hostname()));

  let service: EmbeddedService | null = null;
  if (!flags.server && !fromEnv.server) {
    service = await deps.startService({ dataDir: join(dataDir, 'service'), deviceTag: tag, log: deps.log });
    deps.say(`No service configured: the embedded one with the demo content runs at ${service.url}`);
    // Printed on every start: a code works once, within 15 minutes.
    if (service.consoleLink) deps.say(`Console: ${service.consoleLink}`);
  }
  const stopService = async () => {
    await service?.close();
  };

  try {
    const electron = values.web ? { ok: false as const, reason: '--web was given' } : deps.findElectron();
    if (electron.ok) {
      const args = [deps.root, ...flagsOf(values)];
      if (values.windowed) args.push('--windowed');
      // The demo service by environment, not flags: the app remembers flags, and this one's port changes.
      const extraEnv: Record<string, string> = service
        ? { WALLBOARD_SERVER: service.url, WALLBOARD_TOKEN: service.token, WALLBOARD_TAG: tag }
        : {};
      const child = deps.spawnElectron(electron.path, args, extraEnv);
      const done = child.exited.finally(stopService);
      return {
        done,
        async stop() {
          await child.stop();
          await done;
        },
      };
    }

    deps.say(`No Electron runtime on this machine (${electron.reason}): serving the web player instead.`);
    const playerDir = join(dataDir, 'player');
    const config = resolveConfig(
      {
        flags,
        env: service ? { ...fromEnv, server: service.url, token: service.token } : fromEnv,
        // What pairing kept for the service given (the demo service's token comes with it).
        stored: service ? undefined : await readStoredSettings(playerDir),
      },
      {
        tag,
        name: await deps.system.hostname().catch(() => hostname()),
        cacheDir: join(dataDir, 'player', 'media'),
      },
    );
    const player = await deps.startWebPlayer({
      config,
      dataDir: playerDir,
      rendererDir: deps.rendererDir,
      port,
      appVersion: deps.appVersion,
      log: deps.log,
    });
    const browser = await deps.openBrowser(player.url, (what) => player.recordRecovery(what));
    const what = credentialOf(config)
      ? `Wallboard web player for "${config.tag}" at ${player.url}`
      : `Wallboard web player at ${player.url}, pairing with ${config.server ?? 'a service on the network'}`;
    deps.say(
      'reason' in browser
        ? `${what} (not opened: ${browser.reason})`
        : `${what}, open in Chromium's kiosk mode`,
    );
    let ended: () => void = () => undefined;
    const stopped = new Promise<void>((resolveStopped) => (ended = resolveStopped));
    // Stopped: 0. A kiosk browser that keeps failing: a failure status, for systemd to restart us.
    const ending = stopped.then(() => 0);
    const status =
      'reason' in browser ? ending : Promise.race([browser.gaveUp.then(() => KIOSK_GAVE_UP_STATUS), ending]);
    const done = status.then(async (code) => {
      if (!('reason' in browser)) await browser.stop();
      await player.close();
      await stopService();
      return code;
    });
    return {
      url: player.url,
      done,
      async stop() {
        ended();
        await done;
      },
    };
  } catch (error) {
    await stopService();
    throw error;
  }
}
