import type { Socket } from 'socket.io';
import type { ClientToServerEvents, ServerToClientEvents } from '../../src/shared/events';
import type { WatchAck } from '../../src/shared/notices';
import { sessionOf } from '../actions/users';
import type { ServiceContext } from '../context';
import { SESSION_EXPIRED_MESSAGE, UNAUTHORIZED_MESSAGE } from '../http/auth-hook';
import { SESSION_COOKIE } from '../http/session-cookie';
import type { SessionWithUser } from '../repositories/sessions';
import type { NoticeSink } from './changes';
import type { SessionEnd } from './session-ends';

/**
 * The rooms of the sockets that said `watch`, consoles, never devices: every console's, where the
 * notices of the service's own upkeep go (without ids), and its account's, where its notices go.
 */
export const OPERATORS_ROOM = 'operators';
export const operatorsRoom = (account: string) => `operators:${account}`;
/** The rooms of the sockets signed in by a session, and by any session of a user. */
const sessionRoom = (id: string) => `session:${id}`;
const userRoom = (id: string) => `user:${id}`;

/** A console signed in by the session cookie: the session, and its secret to check it again. */
export interface SocketSession {
  id: string;
  userId: string;
  secret: string;
}

/** What this file needs of a socket's data (realtime/hub.ts keeps the rest). */
export interface OperatorData {
  /** The account of the token or the session's user. */
  account: string;
  /** The token's secret, null for a socket signed in by the cookie. */
  secret: string | null;
  session: SocketSession | null;
  deviceTag: string | null;
  watching: boolean;
}

type OperatorSocket = Socket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, OperatorData>;

/** The session cookie's secret of a handshake, or null. */
export function sessionCookieOf(
  cookieHeader: string | undefined,
  parse: (header: string) => object,
): string | null {
  if (!cookieHeader) return null;
  const value = (parse(cookieHeader) as Record<string, string | undefined>)[SESSION_COOKIE];
  return value ? value : null;
}

/**
 * Why a handshake signed in by the cookie comes from another site, or null. SameSite=Strict
 * already keeps other sites from sending the cookie; a WebSocket is not subject to CORS, so its
 * `Origin`, when the browser sends one, must be this service's own (as writes' is, http/session-cookie.ts).
 */
export function foreignOrigin(headers: { origin?: string; host?: string }, secure: boolean): string | null {
  const { origin, host } = headers;
  if (origin === undefined) return null;
  return origin === `${secure ? 'https' : 'http'}://${host}`
    ? null
    : `must come from this origin, not ${origin}`;
}

/** The socket's session again, as of now: null once it was signed out or expired. */
async function liveSession(ctx: ServiceContext, session: SocketSession): Promise<SessionWithUser | null> {
  const found = await sessionOf(ctx, session.secret);
  return found && found.id === session.id ? found : null;
}

/**
 * The consoles' side of the hub: a socket that says `watch` joins the `operators` room and hears
 * a `notice` for every change an action told the change pipeline (realtime/changes.ts), on any
 * node. Sockets signed in by a session are cut when it ends.
 */
export function attachOperators(
  ctx: ServiceContext,
  emitNotice: NoticeSink,
  /** Cuts this node's sockets in `room`. */
  cut: (room: string) => void,
): {
  track(socket: OperatorSocket): void;
  watch(socket: OperatorSocket, ack: (answer: WatchAck) => void): Promise<void>;
  stop(): void;
} {
  const stops = [
    // Every change committed on any node reaches every node's consoles over the bus, parsed
    // where it enters from another node (cluster/bus-messages.ts).
    ctx.changes.onNotice((notice, account) =>
      ctx.node.bus.publish('operators.notice', { notice, account: account ?? null }),
    ),
    ctx.node.bus.subscribe('operators.notice', ({ notice, account }) =>
      emitNotice(notice, account ?? undefined),
    ),
    // Every node hears of the end (realtime/session-ends.ts) and cuts its own sockets.
    ctx.sessionEnds.listen((end: SessionEnd) =>
      cut('sessionId' in end ? sessionRoom(end.sessionId) : userRoom(end.userId)),
    ),
  ];

  return {
    track(socket) {
      const { session } = socket.data;
      if (session) void socket.join([sessionRoom(session.id), userRoom(session.userId)]);
    },

    async watch(socket, ack) {
      const refuse = (error: string, disconnect = false) => {
        ack({ ok: false, error });
        if (disconnect) socket.disconnect(true);
      };
      if (socket.data.deviceTag !== null) {
        return refuse('this socket said hello as a device; a console connects a socket of its own to watch');
      }
      const { session, secret } = socket.data;
      if (session) {
        if (!(await liveSession(ctx, session))) return refuse(SESSION_EXPIRED_MESSAGE, true);
      } else {
        const token = await ctx.auth.authenticate(secret);
        if (!token) return refuse(UNAUTHORIZED_MESSAGE, true);
        if (token.device_tag) {
          return refuse(`this token is bound to device ${token.device_tag}: it may not watch the service`);
        }
      }
      if (!socket.connected) return;
      socket.data.watching = true;
      await socket.join([OPERATORS_ROOM, operatorsRoom(socket.data.account)]);
      ack({ ok: true });
    },

    stop() {
      for (const stop of stops) stop();
    },
  };
}
