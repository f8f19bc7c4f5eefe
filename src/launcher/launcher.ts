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
import type { PortWish } from '../node/port-choice';
import { CONSOLE_BASE } from '../shared/console-page';
import type { ElectronBinary } from './electron-binary';
import type { EmbeddedService } from './embedded-service';
import { KIOSK_GAVE_UP_STATUS } from './kiosk-healing';
import type { WebPlayer } from './web-fallback';

/** The ports tried first when none was given nor used before: the service's usual one, and the web player's. */
export const DEFAULT_PORTS = { service: 8787, player: 8080 };

export const LAUNCH_HELP = `Usage: npm start -- [options]

Runs the Wallboard kiosk: the Electron app where an Electron runtime exists, else the web player
in Chromium's kiosk mode (or at a printed address). With no service configured, an embedded
service with the demo content runs beside it, and the console's address is printed last, with a
one-time link (15 minutes) that signs its admin in. With a service but no token, the screen shows
a pairing code to claim in that service's console; the token it gets is kept for the next start.

Ports not given are the ones used last time, else the defaults; one taken by another program
(a second Wallboard) is swapped for a free one, said, and kept for the next start.

Options:
${agentFlagHelp({ server: 'none: the embedded demo service', token: 'none: the screen pairs by a code' })}
  --windowed             Electron only: a normal window instead of the full-screen kiosk
  --web                  the web player even where Electron exists
  --service-port <port>  the embedded service's port, so the console's (default: the last one,
                         else ${DEFAULT_PORTS.service}; 0 picks a free one)
  --port <port>          the web player's port (default: the last one, else ${DEFAULT_PORTS.player}; 0 picks a
                         free one)
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
  startService(options: {
    dataDir: string;
    deviceTag: string;
    log: Logger;
    port: PortWish;
  }): Promise<EmbeddedService>;
  spawnElectron(
    path: string,
    args: string[],
    env: Record<string, string>,
  ): { exited: Promise<number>; stop(): Promise<void> };
  startWebPlayer(options: {
    config: ReturnType<typeof resolveConfig>;
    dataDir: string;
    rendererDir: string;
    port: PortWish;
    appVersion: string;
    log: Logger;
  }): Promise<WebPlayer>;
  /** Where ports start when none was given nor remembered: DEFAULT_PORTS (tests give free ones). */
  defaultPorts?: { service: number; player: number };
  /**
   * Opens the player in Chromium's kiosk mode, kept there (kiosk-healing.ts): `recovered` hears of
   * each restart, `gaveUp` says when restarting does not help. A reason when it cannot open it.
   */
  openBrowser(
    url: string,
    recovered: (what: string) => void,
  ): Promise<{ stop(): Promise<void>; gaveUp: Promise<string> } | { reason: string }>;
}

/** A port flag's wish: the port given, else the one kept in `dir`/port, else `byDefault`. */
function portWish(given: string | undefined, flag: string, byDefault: number, dir: string): PortWish {
  const wish = { byDefault, memory: join(dir, 'port'), flag };
  if (given === undefined) return wish;
  const port = Number(given);
  if (!/^\d+$/.test(given) || port > 65535)
    throw new ConfigError(`${flag} must be a port number, not "${given}"`);
  return { ...wish, requested: port };
}

/**
 * The console's address, which stays the same from one start to the next (a bookmark keeps
 * working), then the one-time link that signs the demo admin in: a new code at every start, good
 * once, within 15 minutes.
 */
export function consoleLines(service: Pick<EmbeddedService, 'url' | 'consoleLink'>): string[] {
  const address = `Console: ${service.url}${CONSOLE_BASE}`;
  if (!service.consoleLink) return ['', address];
  return [
    '',
    `${address} (the same address at every start)`,
    `Sign in with this one-time link (within 15 minutes): ${service.consoleLink}`,
  ];
}

function parseLaunchArgs(argv: string[]) {
  return parseArgs({
    args: argv,
    options: {
      ...AGENT_FLAG_OPTIONS,
      windowed: { type: 'boolean', default: false },
      web: { type: 'boolean', default: false },
      port: { type: 'string' },
      'service-port': { type: 'string' },
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
  const dataDir = resolve(values['data-dir']);
  const defaults = deps.defaultPorts ?? DEFAULT_PORTS;
  const serviceDir = join(dataDir, 'service');
  const playerDir = join(dataDir, 'player');
  // Both checked before anything starts.
  const servicePort = portWish(values['service-port'], '--service-port', defaults.service, serviceDir);
  const playerPort = portWish(values.port, '--port', defaults.player, playerDir);
  const flags = settingsFromFlags(values);
  const fromEnv = settingsFromEnv(env);
  const tag = flags.tag ?? fromEnv.tag ?? defaultTag(await deps.system.machineId().catch(() => hostname()));

  let service: EmbeddedService | null = null;
  if (!flags.server && !fromEnv.server) {
    service = await deps.startService({
      dataDir: serviceDir,
      deviceTag: tag,
      log: deps.log,
      port: servicePort,
    });
    if (service.portNote) deps.say(`The embedded service: ${service.portNote}`);
    deps.say(`No service configured: the embedded one with the demo content runs at ${service.url}`);
  }
  // Last, once everything runs: the line the person at the terminal looks for, and clicks.
  const sayConsole = () => {
    if (service) for (const line of consoleLines(service)) deps.say(line);
  };
  const stopService = async () => {
    await service?.close();
  };

  try {
    const electron = values.web ? { ok: false as const, reason: '--web was given' } : deps.findElectron();
    if (electron.ok) {
      const args = [deps.root, ...flagsOf(values)];
      if (values.windowed) args.push('--windowed');
      // The demo service by environment, not flags: the app remembers flags, and the demo service is
      // the launcher's, not a setting of the app.
      const extraEnv: Record<string, string> = service
        ? { WALLBOARD_SERVER: service.url, WALLBOARD_TOKEN: service.token, WALLBOARD_TAG: tag }
        : {};
      const child = deps.spawnElectron(electron.path, args, extraEnv);
      sayConsole();
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
      port: playerPort,
      appVersion: deps.appVersion,
      log: deps.log,
    });
    const browser = await deps.openBrowser(player.url, (what) => player.recordRecovery(what));
    const what = credentialOf(config)
      ? `Wallboard web player for "${config.tag}" at ${player.url}`
      : `Wallboard web player at ${player.url}, pairing with ${config.server ?? 'a service on the network'}`;
    if (player.portNote) deps.say(`The web player: ${player.portNote}`);
    deps.say(
      'reason' in browser
        ? `${what} (not opened: ${browser.reason})`
        : `${what}, open in Chromium's kiosk mode`,
    );
    sayConsole();
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
