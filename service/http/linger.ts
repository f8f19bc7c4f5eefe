import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

/** How much of a body answered before it was read (a 413) is still read and thrown away. */
export interface LingerBounds {
  /** The longest it is read after the answer; then the connection is cut. */
  ms: number;
  /** The most bytes read after the answer; then the connection is cut. */
  bytes: number;
}

/** Like nginx's lingering close: long enough for a client to finish a large upload on a LAN. */
export const LINGER: LingerBounds = { ms: 10_000, bytes: 32 * 1024 * 1024 };

/** Reads and discards the rest of `request`'s body, cutting its connection past `bounds`. */
function drain(request: IncomingMessage, bounds: LingerBounds): void {
  const { socket } = request;
  let read = 0;
  const cut = () => socket.destroy();
  const timer = setTimeout(cut, bounds.ms);
  timer.unref();
  const stop = () => clearTimeout(timer);
  request.on('data', (chunk: Buffer) => {
    read += chunk.length;
    if (read > bounds.bytes) cut();
  });
  request.once('end', stop);
  socket.once('close', stop);
  request.resume();
}

/**
 * An answer sent before its request's body was all received (a body over the limit, a route not
 * found) is followed by the rest of that body, read and thrown away for at most `bounds`.
 *
 * Fastify answers a body it refuses with `Connection: close`, and Node then closes the socket as
 * soon as the answer is written; the client, still sending, gets a reset instead of the answer
 * (undici's fetch says EPIPE, not 413), as the reset makes its kernel drop the answer unread.
 * Reading on lets every client finish sending and read the answer; the connection stays usable
 * once the body has ended, and a client that would send for ever is cut at the bound.
 *
 * Install it before `boundClose`, whose `Connection: close` while the app closes must stay.
 */
export function lingerOnUnreadBodies(app: FastifyInstance, bounds: LingerBounds = LINGER): void {
  app.addHook('onSend', async (request, reply) => {
    // `complete` is false only on a real connection whose body has not all arrived (inject has none).
    if (request.raw.complete !== false) return;
    if (reply.getHeader('connection') === 'close') reply.removeHeader('connection');
    drain(request.raw, bounds);
  });
}
