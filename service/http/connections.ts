import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/** How long requests under way get to finish once the app closes, by default. */
export const CLOSE_GRACE_MS = 3000;

/**
 * Bounds `app.close()`. Fastify's close waits for the HTTP server's close, and that waits for
 * every TCP connection to end: fastify drops the idle keep-alive ones, but a request under way
 * (a slow upload, a script run) and a connection kept alive after answering it would hold the
 * close for as long as they last. So, once the app is closing, every answer says
 * `Connection: close`, and whatever connection is still open `graceMs` later is destroyed.
 */
export function boundClose(app: FastifyInstance, graceMs: number = CLOSE_GRACE_MS): void {
  const connections = new Set<Socket>();
  app.server.on('connection', (socket: Socket) => {
    connections.add(socket);
    socket.once('close', () => connections.delete(socket));
  });

  let closing = false;
  let deadline: NodeJS.Timeout | undefined;
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });
  // preClose runs before fastify closes the server, so the deadline starts with the close.
  app.addHook('preClose', async () => {
    closing = true;
    deadline = setTimeout(() => {
      const count = connections.size;
      if (count) app.log.warn(`closing: cutting ${count} connection${count === 1 ? '' : 's'} still open`);
      for (const socket of connections) socket.destroy();
    }, graceMs);
    deadline.unref();
  });
  app.addHook('onClose', async () => clearTimeout(deadline));
}
