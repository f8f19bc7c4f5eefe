// The tests' browser: Debian's Chromium, never a downloaded one, with the kiosk's flags that keep
// it off the network (this machine has none), and the two it needs to run as root in CI.
import { chromiumPath, CHROMIUM_ISOLATION_ARGS, CHROMIUM_QUIET_ARGS } from './src/launcher/chromium-kiosk.ts';

export const CHROMIUM_PATH = chromiumPath(process.env);

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  ...CHROMIUM_QUIET_ARGS,
  ...CHROMIUM_ISOLATION_ARGS,
];
