import type { Socket } from 'socket.io';
import type { ClientToServerEvents, ServerToClientEvents } from '../../src/shared/events';
import type { OperatorNotice, OperatorResource, WatchAck } from '../../src/shared/notices';
import { withAccount } from '../accounts/scope';
import { DeviceRepository } from '../repositories/devices';
import { GroupRepository } from '../repositories/groups';
import { withGroups } from '../visibility/groups';
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
  /** The screen groups the user is kept to; empty: the whole account (src/shared/user.ts). */
  groups: readonly string[];
}

/** The room of an account's consoles kept to some screen groups: each hears what its groups allow. */
export const scopedOperatorsRoom = (account: string) => `operators:${account}:scoped`;

/** Notices whose id is a screen's tag or a group's id, by which is to be looked for. */
const SCREEN_NOTICES: Partial<Record<OperatorResource, 'device' | 'group'>> = {
  devices: 'device',
  screenshots: 'device',
  groups: 'group',
};
/** Notices whose id is of something that hangs from a screen: told without it, the lists are kept. */
const SCREEN_THINGS: ReadonlySet<OperatorResource> = new Set(['commands', 'plays', 'overrides']);

/** What a socket of `sockets` needs here: its session, and how to tell it. */
interface Told {
  data: Pick<OperatorData, 'session'>;
  emit(event: 'notice', notice: OperatorNotice): unknown;
}

/**
 * Tells `notice` to the consoles of `account` kept to some screen groups: of a screen or group
 * only those whose groups see it hear (the store's own answer, visibility/group-plugin.ts); of
 * what hangs from a screen they hear without the id. Everything else as any console does.
 */
export async function tellScoped(
  ctx: ServiceContext,
  sockets: readonly Told[],
  notice: OperatorNotice,
  account: string,
): Promise<void> {
  const kind = SCREEN_NOTICES[notice.resource];
  const { id } = notice;
  for (const socket of sockets) {
    const groups = socket.data.session?.groups ?? [];
    if (id === undefined || (!kind && !SCREEN_THINGS.has(notice.resource))) {
      socket.emit('notice', notice);
    } else if (!kind) {
      socket.emit('notice', { resource: notice.resource });
    } else {
      const seen = await withAccount(account, () =>
        withGroups(groups, () =>
          kind === 'device'
            ? new DeviceRepository(ctx.db).findByTag(id)
            : new GroupRepository(ctx.db).find(id),
        ),
      );
      if (seen) socket.emit('notice', notice);
    }
  }
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
      const { account } = socket.data;
      const own = session?.groups.length ? scopedOperatorsRoom(account) : operatorsRoom(account);
      await socket.join([OPERATORS_ROOM, own]);
      ack({ ok: true });
    },

    stop() {
      for (const stop of stops) stop();
    },
  };
}
