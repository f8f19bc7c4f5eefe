import { parseArgs } from 'node:util';

export const MAIN_HELP = `Usage: wallboard [options]

The Wallboard kiosk: plays this screen's playlist full-screen, and starts again by itself.

Options (each also from the environment, or remembered from an earlier start):
  --server <url>         the Wallboard service (WALLBOARD_SERVER)
  --token <token>        a token of the service (WALLBOARD_TOKEN); kept encrypted where the
                         system has a secret store, never shown to the page
  --tag <tag>            this screen's device tag (WALLBOARD_TAG; default from the machine id)
  --name <name>          this screen's name (WALLBOARD_NAME; default the host name)
  --heartbeat <seconds>  seconds between heartbeats (WALLBOARD_HEARTBEAT; default 30)
  --cache-dir <dir>      the media cache (WALLBOARD_CACHE_DIR; default <user data>/media)
  --windowed             a normal window instead of the full-screen kiosk (development)
  --install-autostart    start the app at login (and under systemd on Linux), then exit
  --remove-autostart     undo --install-autostart, then exit
  -h, --help             show this help

Settings given as flags are remembered for the next start (the token in the secret store), so
the autostart entry needs none. WALLBOARD_USER_DATA moves the app's own folder (settings, token,
state, media cache, logs) elsewhere.
`;

/** The agent settings a command line may give; names as in src/agent/config.ts. */
export interface FlagSettings {
  server?: string;
  token?: string;
  tag?: string;
  name?: string;
  heartbeatSeconds?: string;
  cacheDir?: string;
}

export interface MainArgs {
  settings: FlagSettings;
  windowed: boolean;
  installAutostart: boolean;
  removeAutostart: boolean;
  help: boolean;
}

/**
 * The shell's own flags. Not strict: Chromium's switches (--disable-gpu after a GPU fallback,
 * --no-sandbox, ...) share the command line and are Chromium's business.
 */
export function parseMainArgs(args: string[]): MainArgs {
  const { values } = parseArgs({
    args,
    strict: false,
    allowPositionals: true,
    options: {
      server: { type: 'string' },
      token: { type: 'string' },
      tag: { type: 'string' },
      name: { type: 'string' },
      heartbeat: { type: 'string' },
      'cache-dir': { type: 'string' },
      windowed: { type: 'boolean' },
      'install-autostart': { type: 'boolean' },
      'remove-autostart': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
  return {
    settings: {
      server: text(values.server),
      token: text(values.token),
      tag: text(values.tag),
      name: text(values.name),
      heartbeatSeconds: text(values.heartbeat),
      cacheDir: text(values['cache-dir']),
    },
    windowed: values.windowed === true,
    installAutostart: values['install-autostart'] === true,
    removeAutostart: values['remove-autostart'] === true,
    help: values.help === true,
  };
}
