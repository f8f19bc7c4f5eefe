// `npm start`: a plain Node launcher (not Electron), see launcher.ts for what it decides.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { closeOnSignals } from '../node/close-on-signals';
import { ConfigError } from '../agent/config';
import { consoleLogger, nodeSystemInfo, realClock } from '../agent/node-edges';
import { chromiumAvailable, openChromiumKiosk, screenSize } from './chromium-kiosk';
import { findElectronBinary } from './electron-binary';
import { startEmbeddedService } from './embedded-service';
import { healingKiosk } from './kiosk-healing';
import { runLauncher } from './launcher';
import { startWebPlayer } from './web-fallback';
import { healthTimeoutMs } from '../web-player/web-update-target';

// Two folders up is the repository both from this file and from its bundle, dist/launcher/launch.mjs,
// which `npm start` runs.
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const RENDERER_DIR = fileURLToPath(new URL('../../dist/renderer', import.meta.url));
const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

async function main(): Promise<number> {
  if (!existsSync(RENDERER_DIR)) throw new ConfigError('dist/renderer is missing: run `npm run build` first');
  const log = consoleLogger('npm start');
  const running = await runLauncher(process.argv.slice(2), process.env, {
    root: ROOT,
    rendererDir: RENDERER_DIR,
    appVersion: version,
    log,
    system: nodeSystemInfo,
    say: (line) => process.stdout.write(`${line}\n`),
    findElectron: () => findElectronBinary(ROOT, process.env),
    startService: startEmbeddedService,
    spawnElectron(path, args, env) {
      const child = spawn(path, args, { stdio: 'inherit', env: { ...process.env, ...env } });
      const exited = once(child, 'exit').then(([code]) => (typeof code === 'number' ? code : 1));
      return {
        exited,
        async stop() {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          await exited;
        },
      };
    },
    startWebPlayer: (options) =>
      startWebPlayer({ ...options, healthTimeoutMs: healthTimeoutMs(process.env) }),
    async openBrowser(url, recovered) {
      const chromium = chromiumAvailable(process.env);
      if (!chromium.ok) return { reason: chromium.reason };
      // Asked once: the screen of a kiosk does not change while it runs.
      const screen = await screenSize();
      if (!screen)
        log.warn(
          'the screen size is unknown (neither xrandr nor xdpyinfo answered): the kiosk window needs a window manager to fill the screen',
        );
      return healingKiosk({
        open: () => openChromiumKiosk(chromium.path, url, screen),
        clock: realClock,
        log,
        recovered,
      });
    },
  });
  if (!running) return 0;
  // The service's own stop path: the player, then the embedded service and its store, with the
  // same deadline and second-signal exit.
  closeOnSignals(() => running.stop(), log);
  return running.done;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`wallboard: ${(error as Error).message}`);
    process.exit(error instanceof ConfigError ? 2 : 1);
  },
);
