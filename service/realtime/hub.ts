import proxyAddr from '@fastify/proxy-addr';
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
import { acrossAccounts, withAccount } from '../accounts/scope';
import { sessionOf } from '../actions/users';
import type { ServiceContext } from '../context';
import { AuthRateLimited, grants, secretFromHeader } from '../http/auth';
import { SESSION_EXPIRED_MESSAGE, UNAUTHORIZED_MESSAGE } from '../http/auth-hook';
import { TokenBucket, type Rate } from '../http/rate-limit';
import { EventRepository } from '../repositories/events';
import { PING_INTERVAL_MS, PING_TIMEOUT_MS, SocketPresence } from './presence';
import {
  attachOperators,
  foreignOrigin,
  OPERATORS_ROOM,
  operatorsRoom,
  scopedOperatorsRoom,
  tellScoped,
  sessionCookieOf,
  type SocketSession,
} from './operators';
import { connectNodes, type InterServerEvents } from './cluster';
import { OrderedDelivery } from './delivery';
import { Gate, replay } from './replay';
import { answerClockPings } from './clock';
import { Subscriber } from './subscriber';
import { roomsOfDevices } from './subscriptions';

interface SocketData {
  /** The account of the token or the session's user: the socket hears of its resources only. */
  account: string;
  /** The token's secret and id; null for a console signed in by the session cookie. */
  secret: string | null;
  tokenId: string | null;
  session: SocketSession | null;
  /** Said `watch`: a console in the operators room (realtime/operators.ts). */
  watching: boolean;
  deviceTag: string | null;
  rooms: Set<string>;
  hellos: TokenBucket;
  /** Hellos refused for coming too fast since the last one answered. */
  refused: number;
}

type DeviceSocket = Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;
export type Hub = Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;

/**
 * Hellos one socket may send. A device says hello once per connection and retries a refused one
 * after half a second or more, doubling: far under this. Each hello costs queries, so a socket
 * must not be able to keep the store busy with them.
 */
export const HELLO_RATE: Rate = { burst: 5, perSecond: 1 };
/** Hellos refused in a row after which the socket is disconnected. */
export const HELLO_REFUSALS = 10;
/** Replays under way at once (see Gate). */
const REPLAYS_AT_ONCE = 4;

/** The room of a token's sockets (none of the rooms of what devices show). */
const tokenRoom = (id: string) => `token:${id}`;

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

/** A refusal socket.io hands the client as `connect_error`, with `data` beside the message. */
function refusal(message: string, data?: object): Error {
  return Object.assign(new Error(message), data ? { data } : {});
}

/**
 * socket.io on the app's HTTP server. The token is checked at every connection (socket.io
 * reconnects with a new handshake, so reconnections are checked too) and again at every hello;
 * deleting a token disconnects its sockets at once.
 */
export function attachRealtime(app: FastifyInstance, ctx: ServiceContext): Hub {
  let closing = false;
  const io: Hub = new Server(app.server, {
    serveClient: false,
    cors: { origin: false },
    // A silent connection (power cut) is dropped within 12 s: presence follows the sockets.
    pingInterval: PING_INTERVAL_MS,
    pingTimeout: PING_TIMEOUT_MS,
    // A device reconnecting while the app closes is turned away, not kept open to hold the close.
    allowRequest: (_request, answer) => answer(closing ? 'the service is stopping' : null, !closing),
  });
  const log = new EventRepository(ctx.db);
  const replays = new Gate(REPLAYS_AT_ONCE);
  const subscriber = new Subscriber<DeviceSocket>(
    (tags) => roomsOfDevices(ctx.db, tags),
    (error) => app.log.error({ err: error }, 'resubscribe failed'),
  );
  const delivery = new OrderedDelivery({
    // Every account's events: each goes to its own rooms.
    read: (after, limit, mark) => acrossAccounts(() => log.after(after, limit, mark)),
    settle: (mark) => log.settle(mark),
    deliver: ({ event, rooms }) => {
      if (rooms.length === 0) return;
      io.local.to([...rooms]).emit('event', event);
      // A change of what a device shows moves its socket to other rooms; the sockets of every
      // event of the same tick (and of those arriving while a batch runs) are moved together.
      // What screens' tokens were found to see may have changed with it.
      if (STRUCTURAL.has(event.type)) {
        subscriber.resubscribe(socketsIn(rooms));
        ctx.seenMedia.forget();
      }
    },
    later: (run, ms) => ctx.clock.setTimeout(run, ms),
    onError: (error) => app.log.error({ err: error }, 'could not read the events to push from the log'),
  });
  // Several nodes on one PostgreSQL hear each other (realtime/cluster.ts). Whenever this node
  // listens again, the events it may have missed are read from the log, and its known tokens
  // from the store (one may have been deleted meanwhile).
  const nodes = ctx.db.url
    ? connectNodes(io, ctx, ctx.db.url, () => {
        delivery.catchUp();
        ctx.auth.forgetKnown();
      })
    : null;
  const presence = new SocketPresence(ctx);
  // A notice of the service's own upkeep (no account) tells every console what to look at again, not which.
  const operators = attachOperators(
    ctx,
    // Every node hears every notice over the bus: each tells its own sockets.
    (notice, account) => {
      if (account === undefined) {
        io.local.to(OPERATORS_ROOM).emit('notice', { resource: notice.resource });
        return;
      }
      io.local.to(operatorsRoom(account)).emit('notice', notice);
      // Most accounts have no console kept to groups: nothing more to do for each notice then.
      const scoped = scopedOperatorsRoom(account);
      if (!io.sockets.adapter.rooms.has(scoped)) return;
      void io.local
        .in(scoped)
        .fetchSockets()
        .then((sockets) => tellScoped(ctx, sockets, notice, account))
        .catch((error: unknown) => app.log.error({ err: error }, 'a notice could not be told'));
    },
    (room) => io.local.in(room).disconnectSockets(true),
  );
  const fresh = (
    account: string,
  ): Pick<SocketData, 'account' | 'deviceTag' | 'rooms' | 'hellos' | 'refused' | 'watching'> => ({
    account,
    deviceTag: null,
    rooms: new Set(),
    hellos: new TokenBucket(HELLO_RATE),
    refused: 0,
    watching: false,
  });

  /** A console's browser: no token, but the session cookie (docs/api.md, Realtime for operators). */
  async function signedIn(socket: DeviceSocket, cookie: string): Promise<Error | null> {
    const foreign = foreignOrigin(socket.handshake.headers, socket.handshake.secure);
    if (foreign) return refusal(`a socket signed in by the session cookie ${foreign}`);
    const session = await sessionOf(ctx, cookie);
    if (!session) return refusal(SESSION_EXPIRED_MESSAGE);
    const groups = session.role === 'admin' ? [] : session.groups;
    const own = { id: session.id, userId: session.user_id, secret: cookie, groups };
    socket.data = { ...fresh(session.account_id), secret: null, tokenId: null, session: own };
    return null;
  }

  // Behind trusted proxies (--trust-proxy), the client's address as they forward it.
  const trusted = ctx.config.trustProxy ? proxyAddr.compile(ctx.config.trustProxy) : null;
  const clientAddress = (socket: DeviceSocket) =>
    trusted ? proxyAddr(socket.request, trusted) : socket.handshake.address;

  io.use(async (socket, next) => {
    const secret = secretOf(socket);
    const cookie = secret ? null : sessionCookieOf(socket.handshake.headers.cookie, app.parseCookie);
    if (cookie) {
      return signedIn(socket, cookie).then(
        (refused) => next(refused ?? undefined),
        (error: unknown) => {
          app.log.error({ err: error }, 'a socket could not be signed in');
          next(refusal(SESSION_EXPIRED_MESSAGE));
        },
      );
    }
    let token;
    try {
      token = await ctx.auth.authenticate(secret, clientAddress(socket));
    } catch (error) {
      if (error instanceof AuthRateLimited) {
        return next(refusal(error.message, { code: 'rate_limited', retry_after: error.retryAfterSeconds }));
      }
      app.log.error({ err: error }, 'a socket could not be authenticated');
      token = null;
    }
    if (!secret || !token || !grants(token.scope, 'read')) return next(refusal(UNAUTHORIZED_MESSAGE));
    socket.data = { ...fresh(token.account_id), secret, tokenId: token.id, session: null };
    next();
  });

  // A deleted token's sockets stop hearing anything at once, not at their next reconnection. Every
  // node hears of the deletion (http/auth.ts) and cuts its own.
  const stopRevoking = ctx.auth.onRevoked((id) => io.local.in(tokenRoom(id)).disconnectSockets(true));

  async function answerHello(socket: DeviceSocket, raw: unknown, ack: (answer: HelloAck) => void) {
    const refuse = (error: string) => ack({ resync: true, events: [], last_event_id: 0, error });
    const parsed = helloSchema.safeParse(raw);
    if (!parsed.success) return refuse(`invalid hello: ${describeIssues(parsed.error)}`);
    if (socket.data.session || socket.data.watching) {
      return refuse('hello is for devices: a console says watch, and a socket is one or the other');
    }
    const token = await ctx.auth.authenticate(socket.data.secret);
    if (!token) {
      refuse(UNAUTHORIZED_MESSAGE);
      socket.disconnect(true);
      return;
    }
    // A device's own token listens as that device only (docs/api.md, device-bound tokens).
    if (token.device_tag && token.device_tag !== parsed.data.device_tag) {
      return refuse(
        `this token is bound to device ${token.device_tag}; it may say hello as that device only`,
      );
    }
    socket.data.deviceTag = parsed.data.device_tag;
    // A socket gone while its token was checked has already left presence: it must not come back.
    if (socket.connected) presence.hello(socket.id, socket.data.account, parsed.data.device_tag);
    await subscriber.update([socket]);
    ack(
      await replays.run(() =>
        replay(
          log,
          parsed.data.last_event_id,
          [...socket.data.rooms],
          delivery.position,
          ctx.clock.now().getTime(),
        ),
      ),
    );
  }

  io.on('connection', (socket: DeviceSocket) => {
    // Deleted between the handshake's check and now.
    const { tokenId } = socket.data;
    if (tokenId !== null && ctx.auth.isRevoked(tokenId)) return void socket.disconnect(true);
    if (tokenId !== null) void socket.join(tokenRoom(tokenId));
    operators.track(socket);
    socket.on('watch', (ack) => {
      if (typeof ack !== 'function') return;
      // A watch costs a query too: it shares the hellos' allowance.
      if (!socket.data.hellos.take()) {
        return ack({
          ok: false,
          error: `too many watches: at most ${HELLO_RATE.burst} at once; watch again later`,
        });
      }
      withAccount(socket.data.account, () => operators.watch(socket, ack)).catch((error: unknown) => {
        app.log.error({ err: error }, 'watch failed');
        ack({ ok: false, error: 'the service could not answer the watch; try again' });
      });
    });
    socket.on('disconnect', (reason) => presence.gone(socket.id, reason === 'ping timeout'));
    // Devices of a sync group read the service's clock (docs/sync.md).
    answerClockPings(socket, () => ctx.clock.now());
    socket.on('hello', (raw, ack) => {
      // Counted before anything else, so even a flood without acknowledgements is cut off.
      if (!socket.data.hellos.take()) {
        socket.data.refused += 1;
        if (typeof ack === 'function') {
          ack({
            resync: true,
            events: [],
            last_event_id: 0,
            error: `too many hellos: at most ${HELLO_RATE.burst} at once and ${HELLO_RATE.perSecond} a second after; say hello again later`,
          });
        }
        if (socket.data.refused >= HELLO_REFUSALS) socket.disconnect(true);
        return;
      }
      socket.data.refused = 0;
      if (typeof ack !== 'function') return;
      // As the socket's account: its rooms, replay and presence are that account's.
      withAccount(socket.data.account, () => answerHello(socket, raw, ack)).catch((error: unknown) => {
        app.log.error({ err: error }, 'hello failed');
        ack({
          resync: true,
          events: [],
          last_event_id: 0,
          error: 'the service could not answer the hello; try again',
        });
      });
    });
  });

  /** The sockets of this process in any of `roomList`. */
  function socketsIn(roomList: readonly string[]): DeviceSocket[] {
    const ids = new Set<string>();
    for (const room of roomList) for (const id of io.sockets.adapter.rooms.get(room) ?? []) ids.add(id);
    return [...ids].flatMap((id) => io.sockets.sockets.get(id) ?? []);
  }

  // Every node's events, committed anywhere, reach this node through the bus, and go to its own
  // sockets in the order of their ids (realtime/delivery.ts).
  const stopTelling = ctx.changes.onEvent((event, roomList) =>
    ctx.node.bus.publish('realtime.event', { event, rooms: [...roomList] }),
  );
  const stopHearing = ctx.node.bus.subscribe('realtime.event', (logged) => delivery.heard(logged));
  app.addHook('onReady', async () => {
    // A node is ready (it listens, its /health says so) once its adapter hears the other nodes.
    await nodes?.listening();
    const { last, settled } = await acrossAccounts(() => log.settledLastId());
    if (!settled)
      app.log.warn(
        "a transaction of the store stayed in flight through this node's start (a session idle in a transaction?): an event it logs reaches devices at their next reconnection",
      );
    delivery.start(last);
  });

  // Before fastify closes the HTTP server, whose close waits for every connection to end: the
  // devices' WebSockets would otherwise stay open (socket.io pings keep them alive) and the
  // close would never finish. Closing the engine ends them as a lost transport, not with
  // socket.io's "server disconnect", so devices reconnect by themselves, to whatever service
  // listens next.
  app.addHook('preClose', async () => {
    closing = true;
    presence.close();
    io.engine.close();
  });
  app.addHook('onClose', async () => {
    stopRevoking();
    stopTelling();
    stopHearing();
    delivery.stop();
    operators.stop();
    await nodes?.settle();
    await io.close();
    await nodes?.close();
  });
  return io;
}
