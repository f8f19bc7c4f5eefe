// The Electron main process (bundled to dist/main/index.cjs by tools/electron-bundles.ts).
import * as electron from 'electron';
import { startShell } from './shell';

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
