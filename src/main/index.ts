// The Electron main process (bundled to dist/main/index.cjs by tools/electron-bundles.ts).
import * as electron from 'electron';
import { startShell } from './shell';

// Electron quits gracefully on these signals by itself, but electron-store's `atomically` hooks
// them as soon as it is loaded (when-exit) and, once its cleanup has run, raises the signal again.
// A handler of ours keeps both from ending the process: the first signal starts Electron's quit
// (before-quit stops the agent, which tells the service the screen goes offline); the rest,
// when-exit's own included, are ignored, so they cannot cut that stop short.
let quitting = false;
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
  process.on(signal, () => {
    if (quitting) return;
    quitting = true;
    electron.app.quit();
  });
}

startShell(electron, {
  argv: process.argv,
  env: process.env,
  platform: process.platform,
  resourcesPath: process.resourcesPath,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
}).catch((error: unknown) => {
  console.error(`wallboard: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  electron.app.exit(1);
});
