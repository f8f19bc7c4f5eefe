// `npm run start:web`: the device agent headless, and the player page for any browser.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { closeOnSignals } from '../node/close-on-signals';
import { listenOnChosenPort } from '../node/port-choice';
import { ConfigError, credentialOf } from '../agent/config';
import { agentFlagHelp, AGENT_FLAG_OPTIONS, settingsFromFlags } from '../agent/flags';
import { consoleLogger } from '../agent/node-edges';
import { createNodeAgent, defaultDataDir, loadAgentConfig } from '../agent/node-agent';
import { startWebPlayerServer, WEB_TILE_URL_TEMPLATE, type WebPlayerServer } from './web-player-server';
import { healthTimeoutMs, HEALTH_TIMEOUT_ENV, openWebReleases } from './web-update-target';

/** The player's port when none is given nor used before. */
const DEFAULT_PORT = 8080;

const HELP = `Usage: npm run start:web -- [--server <url>] [--token <token>] [options]

Runs the Wallboard device agent without Electron and serves the player to any browser at
http://127.0.0.1:<port>/. Without a token the page shows a pairing code to claim in the
service's console (or with POST /pairings/claim); the token it then gets is kept in the settings
file. Without a service it looks for one on the local network (mDNS).

Options (each also from the environment or <data-dir>/settings/settings.json):
${agentFlagHelp({
  token: 'scope affiliated is enough; none: the screen pairs by a code',
  server: 'none: found on the local network',
  'cache-dir': 'default <data-dir>/media',
})}
  --data-dir <dir>       state and settings (default $XDG_DATA_HOME/wallboard or ~/.local/share/wallboard)
  --port <port>          the player's port (default: the last one used, else ${DEFAULT_PORT}; one taken
                         by another program, a second player, is swapped for a free one and
                         said; 0 picks a free one)
  --host <address>       the player's address (default 127.0.0.1)
  -h, --help             show this help

${HEALTH_TIMEOUT_ENV}=<seconds> in the environment: how long a new version of the player has to
show something before the page goes back to the one it showed (default 180).
`;

const APP_VERSION = '0.1.0';
// The same folder from this file and from its bundle, dist/web-player/main.mjs (what
// `npm run start:web` runs): both are two folders below the repository.
const RENDERER_DIR = fileURLToPath(new URL('../../dist/renderer', import.meta.url));

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      ...AGENT_FLAG_OPTIONS,
      'data-dir': { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string', default: '127.0.0.1' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(HELP);
    return;
  }
  const port = values.port === undefined ? undefined : Number(values.port);
  if (values.port !== undefined && (!/^\d+$/.test(values.port) || Number(values.port) > 65535))
    throw new ConfigError(`--port must be a port number, not "${values.port}"`);
  if (!existsSync(RENDERER_DIR)) throw new ConfigError('dist/renderer is missing: run `npm run build` first');
  const dataDir = values['data-dir'] ?? defaultDataDir();
  const config = await loadAgentConfig(settingsFromFlags(values), dataDir);
  const log = consoleLogger('web-player');
  const { releases, target } = await openWebReleases({
    dataDir,
    rendererDir: RENDERER_DIR,
    appVersion: APP_VERSION,
    log,
    healthTimeoutMs: healthTimeoutMs(process.env),
  });
  const { agent, tiles } = createNodeAgent({
    config,
    dataDir,
    mediaBaseUrl: '/media/',
    tileUrlTemplate: WEB_TILE_URL_TEMPLATE,
    appVersion: APP_VERSION,
    log,
    updateTargets: [target],
  });
  await agent.start();
  // A second player on this machine (`npm start` holds 8080) takes another port rather than failing.
  const started: { server?: WebPlayerServer } = {};
  const { note } = await listenOnChosenPort(
    { requested: port, byDefault: DEFAULT_PORT, memory: join(dataDir, 'port'), flag: '--port' },
    async (wanted) => {
      started.server = await startWebPlayerServer({
        host: agent,
        rendererDir: RENDERER_DIR,
        releases,
        mediaDir: config.cacheDir,
        tiles,
        port: wanted,
        hostname: values.host,
        log,
      });
      return Number(new URL(started.server.url).port);
    },
  );
  const { server } = started;
  if (!server) throw new Error('the web player did not start');
  if (note) process.stdout.write(`${note}\n`);
  // Scripts and tests that start the player on port 0 read the address from this line.
  process.stdout.write(
    credentialOf(config)
      ? `Wallboard web player for device "${config.tag}" at ${server.url}\n`
      : `Wallboard web player at ${server.url}, pairing: its code shows there (and in the log)\n`,
  );
  closeOnSignals(async () => {
    await server.close();
    await agent.stop();
  }, log);
}

main().catch((error: unknown) => {
  const known = error instanceof ConfigError;
  console.error(`wallboard web player: ${(error as Error).message}`);
  process.exit(known ? 2 : 1);
});
