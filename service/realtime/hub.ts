import type { FastifyInstance } from 'fastify';
import { Server, type Socket } from 'socket.io';
import {
  helloSchema,
  type ClientToServerEvents,
  type HelloAck,
  type RealtimeEvent,
  type ServerToClientEvents,
} from '../../src/shared/events';
import { describeIssues } from '../../src/shared/issues';
import type { ServiceContext } from '../context';
import { grants, secretFromHeader } from '../http/auth';
import { UNAUTHORIZED_MESSAGE } from '../http/auth-hook';
import { EventRepository } from '../repositories/events';
import { roomsOfDevice } from './subscriptions';

interface SocketData {
  secret: string;
  deviceTag: string | null;
  rooms: Set<string>;
}

type DeviceSocket = Socket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;
export type Hub = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

/** More missed events than this and the device is told to resync instead. */
const REPLAY_LIMIT = 1000;
const STRUCTURAL: ReadonlySet<RealtimeEvent['type']> = new Set([
  'device.changed',
  'playlist.changed',
  'board.changed',
]);

function secretOf(socket: DeviceSocket): string | null {
  const auth = socket.handshake.auth as { token?: unknown };
  if (typeof auth.token === 'string' && auth.token) return auth.token;
  return secretFromHeader(socket.handshake.headers.authorization);
}

/**
 * socket.io on the app's HTTP server. The token is checked at every connection (socket.io
 * reconnects with a new handshake, so reconnections are checked too) and again at every hello.
 */
export function attachRealtime(app: FastifyInstance, ctx: ServiceContext): Hub {
  let closing = false;
  const io: Hub = new Server(app.server, {
    serveClient: false,
    cors: { origin: false },
    // A device reconnecting while the app closes is turned away, not kept open to hold the close.
    allowRequest: (_request, answer) => answer(closing ? 'the service is stopping' : null, !closing),
  });
  const log = new EventRepository(ctx.db);

  io.use(async (socket, next) => {
    const secret = secretOf(socket);
    const token = await ctx.auth.authenticate(secret).catch(() => null);
    if (!secret || !token || !grants(token.scope, 'read')) return next(new Error(UNAUTHORIZED_MESSAGE));
    socket.data = { secret, deviceTag: null, rooms: new Set() };
    next();
  });

  async function subscribe(socket: DeviceSocket, tag: string): Promise<void> {
    const wanted = new Set(await roomsOfDevice(ctx.db, tag));
    for (const room of socket.data.rooms) if (!wanted.has(room)) void socket.leave(room);
    for (const room of wanted) if (!socket.data.rooms.has(room)) void socket.join(room);
    socket.data.rooms = wanted;
  }

  async function replay(after: number | null, roomList: string[]): Promise<Omit<HelloAck, 'error'>> {
    const last = await log.lastId();
    const first = await log.firstId();
    const lost = after === null || after > last || (first !== null && after < first - 1);
    if (lost) return { resync: true, events: [], last_event_id: last };
    const events = await log.since(after, roomList, REPLAY_LIMIT);
    if (events.length === REPLAY_LIMIT) return { resync: true, events: [], last_event_id: last };
    return { resync: false, events, last_event_id: Math.max(last, after) };
  }

  io.on('connection', (socket: DeviceSocket) => {
    socket.on('hello', async (raw, ack) => {
      if (typeof ack !== 'function') return;
      const refuse = (error: string) => ack({ resync: true, events: [], last_event_id: 0, error });
      try {
        const parsed = helloSchema.safeParse(raw);
        if (!parsed.success) return refuse(`invalid hello: ${describeIssues(parsed.error)}`);
        if (!(await ctx.auth.authenticate(socket.data.secret))) {
          refuse(UNAUTHORIZED_MESSAGE);
          socket.disconnect(true);
          return;
        }
        socket.data.deviceTag = parsed.data.device_tag;
        await subscribe(socket, parsed.data.device_tag);
        ack(await replay(parsed.data.last_event_id, [...socket.data.rooms]));
      } catch (error) {
        app.log.error({ err: error }, 'hello failed');
        refuse('the service could not answer the hello; try again');
      }
    });
  });

  // A change of what a device shows moves it to other rooms.
  async function resubscribe(roomList: readonly string[]): Promise<void> {
    const sockets = await io.in([...roomList]).fetchSockets();
    for (const remote of sockets) {
      const socket = io.sockets.sockets.get(remote.id);
      if (socket?.data.deviceTag) await subscribe(socket, socket.data.deviceTag);
    }
  }

  ctx.events.addSink((event, roomList) => {
    if (roomList.length === 0) return;
    io.to([...roomList]).emit('event', event);
    if (STRUCTURAL.has(event.type)) {
      resubscribe(roomList).catch((error: unknown) => app.log.error({ err: error }, 'resubscribe failed'));
    }
  });

  // Before fastify closes the HTTP server, whose close waits for every connection to end: the
  // devices' WebSockets would otherwise stay open (socket.io pings keep them alive) and the
  // close would never finish. Closing the engine ends them as a lost transport, not with
  // socket.io's "server disconnect", so devices reconnect by themselves, to whatever service
  // listens next.
  app.addHook('preClose', async () => {
    closing = true;
    io.engine.close();
  });
  app.addHook('onClose', async () => {
    await io.close();
  });
  return io;
}
