// The floor of bench/latency: a bare socket.io message from this process to another on the same
// machine. Run as a child of bench/latency.ts (bundled, bench/spawned.ts); prints its port, then
// emits stamped messages.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';

const server = createServer();
const io = new Server(server);
io.on('connection', (socket) => {
  socket.on('send', (count: number) => {
    let sent = 0;
    const next = () => {
      socket.emit('stamp', performance.timeOrigin + performance.now());
      sent += 1;
      if (sent < count) setTimeout(next, 5);
    };
    next();
  });
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${(server.address() as AddressInfo).port}\n`);
});
