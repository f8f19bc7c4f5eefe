import { parseArgs } from 'node:util';
import { agentFlagHelp, AGENT_FLAG_OPTIONS, settingsFromFlags } from '../agent/flags';

export const MAIN_HELP = `Usage: wallboard [options]

The Wallboard kiosk: plays this screen's playlist full-screen, and starts again by itself.

Options (each also from the environment, or remembered from an earlier start):
${agentFlagHelp({
  token: 'kept encrypted where the system has a secret store, never shown to the page',
  'cache-dir': 'default <user data>/media',
})}
  --windowed             a normal window instead of the full-screen kiosk (development)
  --install-autostart    start the app at login (and under systemd on Linux), then exit
  --remove-autostart     undo --install-autostart, then exit
  -h, --help             show this help

Settings given as flags are remembered for the next start (the token in the secret store), so
the autostart entry needs none. WALLBOARD_USER_DATA moves the app's own folder (settings, token,
state, media cache, logs) elsewhere.
`;

/** The agent settings a command line may give, as strings to validate (src/agent/config.ts). */
export type FlagSettings = ReturnType<typeof settingsFromFlags>;

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
      ...AGENT_FLAG_OPTIONS,
      windowed: { type: 'boolean' },
      'install-autostart': { type: 'boolean' },
      'remove-autostart': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  return {
    settings: settingsFromFlags(values),
    windowed: values.windowed === true,
    installAutostart: values['install-autostart'] === true,
    removeAutostart: values['remove-autostart'] === true,
    help: values.help === true,
  };
}
