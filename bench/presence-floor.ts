// A floor of bench/presence: a bare socket.io server on Node's HTTP server, with socket.io's own
// heartbeat defaults or the ping settings it is given, and nothing else; what a user would run
// instead. Plain Node runs it (its types stripped), socket.io from node_modules. Prints
// "listening on <url>"; SIGTERM ends it.
// Usage: node bench/presence-floor.ts [--ping-interval <ms>] [--ping-timeout <ms>]
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { Server } from 'socket.io';

const { values } = parseArgs({
  options: { 'ping-interval': { type: 'string' }, 'ping-timeout': { type: 'string' } },
});
const interval = values['ping-interval'];
const timeout = values['ping-timeout'];

const server = createServer();
new Server(server, {
  serveClient: false,
  ...(interval === undefined ? {} : { pingInterval: Number(interval) }),
  ...(timeout === undefined ? {} : { pingTimeout: Number(timeout) }),
});
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`listening on http://127.0.0.1:${port}\n`);
});
process.once('SIGTERM', () => process.exit(0));
