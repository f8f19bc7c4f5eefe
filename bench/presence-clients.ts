// The idle screens of bench/presence, in a process of their own so that their pongs are not
// counted in the server's CPU: N socket.io clients on WebSocket, opened evenly over `spread` ms
// (as a fleet's screens come up at any time: the server's pings to them are spread over the
// interval, so that a window of any length sees their true rate), each saying hello as device
// `<prefix>-<n>` when a prefix is given (the service's devices), then doing nothing. No
// reconnection: a socket the server drops is counted, not replaced. Over its IPC channel it sends
// `{ready: n}` once every socket is open (and said hello), and answers 'report' with
// `{disconnects: n}`.
// Usage: node bench/presence-clients.ts --url <url> --count <n> --token <secret> [--spread <ms>]
//   [--prefix <tag>]
import { parseArgs } from 'node:util';
import { io as connect, type Socket } from 'socket.io-client';

const { values } = parseArgs({
  options: {
    url: { type: 'string' },
    count: { type: 'string', default: '2000' },
    token: { type: 'string', default: '' },
    prefix: { type: 'string' },
    spread: { type: 'string', default: '0' },
  },
});
const { url, token, prefix } = values;
if (!url || !process.send) throw new Error('--url is required, and an IPC channel to the bench');
const count = Number(values.count);
const spreadMs = Number(values.spread);
let disconnects = 0;

function open(index: number): Promise<Socket> {
  const socket = connect(url as string, {
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    auth: { token },
  });
  socket.on('disconnect', () => (disconnects += 1));
  return new Promise((resolve, reject) => {
    socket.once('connect_error', reject);
    socket.once('connect', () => {
      if (prefix === undefined) return resolve(socket);
      socket
        .emitWithAck('hello', { device_tag: `${prefix}-${index}`, last_event_id: null })
        .then(() => resolve(socket), reject);
    });
  });
}

await Promise.all(
  Array.from({ length: count }, async (_, index) => {
    await new Promise((resolve) => setTimeout(resolve, (index * spreadMs) / count));
    await open(index);
  }),
);
process.send({ ready: count });
process.on('message', (message) => {
  if (message === 'report') process.send?.({ disconnects });
});
// The bench gone (or done): so are its screens.
process.once('disconnect', () => process.exit(0));
