// `npm start` for now: the renderer exists, the service, the agent and the kiosk shell do not yet
// (issues 3, 4 and 7), so this serves the player page and says so.
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { serveFolder } from './web-player/static-server';

const HELP = `Usage: npm start -- [--port <port>]

Serves the Wallboard player page on http://127.0.0.1:<port>/ (default 8080).
Not built yet: the service, the device agent and the Electron kiosk shell.
`;

const { values } = parseArgs({
  options: { port: { type: 'string', default: '8080' }, help: { type: 'boolean', default: false } },
});
if (values.help) {
  process.stdout.write(HELP);
  process.exit(0);
}
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`--port must be a port number, not "${values.port}"`);
  process.exit(2);
}
const dist = fileURLToPath(new URL('../dist/renderer', import.meta.url));
if (!existsSync(dist)) {
  console.error('dist/renderer is missing: run `npm run build` first');
  process.exit(1);
}
const server = await serveFolder(dist, port);
process.stdout.write(
  `Wallboard player page at ${server.url}\n` +
    'Not built yet: the service, the device agent and the kiosk shell; the page shows that no agent is connected.\n',
);
