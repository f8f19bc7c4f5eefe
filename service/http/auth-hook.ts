import type { FastifyInstance, FastifyRequest } from 'fastify';
import { withAccount } from '../accounts/scope';
import { withActor, type Actor } from '../audit/actor';
import type { UserRole } from '../../src/shared/user';
import { withGroups } from '../visibility/groups';
import { checkContentScope } from './content-scope';
import { AREA_WORDS, ROLE_AREAS, ROUTE_AREAS, WRITES } from './route-areas';
import type { Queryable } from '../db/database';
import type { SessionWithUser } from '../repositories/sessions';
import type { StoredToken } from '../repositories/tokens';
import { withBoundDevice, type DeviceView } from '../visibility/scope';
import {
  ROLE_GRANTS,
  SCOPE_GRANTS,
  secretFromHeader,
  type Permission,
  type TokenAuthenticator,
} from './auth';
import { otherDevice } from './device-scope';
import { HttpError } from './errors';
import { checkCsrf, sessionSecret } from './session-cookie';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** What the route needs of the caller's token; `public` needs no token. */
    permission?: Permission | 'public';
    /** Only a `full` token may, though the permission alone grants more scopes (claiming a pairing). */
    fullOnly?: true;
    /**
     * `false`: what the route changes is not recorded in the audit trail (data fed to flows,
     * heartbeats, plays: a stream of values, not a change of how screens are set up).
     */
    audit?: false;
  }
  interface FastifyRequest {
    token: StoredToken | null;
    /** The session of a request signed in by the cookie instead of a token. */
    session: SessionWithUser | null;
  }
}

/** The live session of a cookie's secret, or null (actions/users.ts). */
export type SessionLookup = (secret: string) => Promise<SessionWithUser | null>;

export const UNAUTHORIZED_MESSAGE =
  'a valid token is required: send "Authorization: Bearer <token>" or HTTP Basic with the token as user name';

/**
 * Every route declares its permission; one without is refused, so nothing is open by mistake.
 * `viewOf` tells what a device plays, all that a token bound to it may see (http/device-scope.ts).
 */
export function installAuth(
  app: FastifyInstance,
  auth: TokenAuthenticator,
  sessions: SessionLookup,
  viewOf: (db: Queryable, tag: string) => Promise<DeviceView>,
  /** Where a write of a person kept to some groups finds what it changes (http/content-scope.ts). */
  db: Queryable,
): void {
  app.decorateRequest('token', null);
  app.decorateRequest('session', null);
  app.addHook('onRequest', async (request) => {
    if (request.is404) return;
    const permission = request.routeOptions.config.permission;
    if (permission === 'public' || request.routeOptions.url?.startsWith('/docs')) return;
    // A token wins over the cookie: machines authenticate by token, and are not subject to CSRF.
    const secret = secretFromHeader(request.headers.authorization);
    const cookie = secret ? null : sessionSecret(request);
    if (cookie) {
      const session = await sessions(cookie);
      if (!session) throw new HttpError(401, 'unauthorized', SESSION_EXPIRED_MESSAGE);
      checkCsrf(request);
      authorize(request, ROLE_GRANTS[session.role], session.role === 'admin', aRole(session.role));
      authorizeArea(request, session.role);
      request.session = session;
      return;
    }
    // Too many unknown tokens from this address: AuthRateLimited, answered 429 by http/errors.ts.
    const token = await auth.authenticate(secret, request.ip);
    if (!token) throw new HttpError(401, 'unauthorized', UNAUTHORIZED_MESSAGE);
    authorize(
      request,
      SCOPE_GRANTS[token.scope],
      token.scope === 'full',
      `a token of scope "${token.scope}"`,
    );
    request.token = token;
  });
  // The handler, and everything it calls, acts for the caller's account (accounts/scope.ts) and,
  // with a token bound to a device, sees what that device plays only (visibility/scope.ts).
  // Set here, once the body is read: the body's stream would otherwise run the rest outside it.
  app.addHook('preHandler', (request, _reply, done) => {
    const hidden = otherDevice(request);
    if (hidden) {
      done(hidden);
      return;
    }
    const account = request.token?.account_id ?? request.session?.account_id;
    const tag = request.token?.device_tag;
    const bound = tag ? () => withBoundDevice(tag, (db) => viewOf(db, tag), done) : done;
    const actor = actorOf(request);
    const acting = actor ? () => withActor(actor, bound) : bound;
    const groups = request.session?.role === 'admin' ? [] : (request.session?.groups ?? []);
    const handle = groups.length ? () => withGroups(groups, acting) : acting;
    if (account === undefined) handle();
    else withAccount(account, handle);
  });
  // Runs inside the caller's account and groups, set above.
  app.addHook('preHandler', (request) => checkContentScope(request, db));
}

/** The role as a refusal names it: "an admin", "a viewer". */
const aRole = (role: UserRole) => `${/^[aeiou]/.test(role) ? 'an' : 'a'} ${role}`;

/**
 * 403 unless the route's part of the API (http/route-areas.ts) is one the user's role writes:
 * editors content, publishers what plays. Reads, and admins, pass.
 */
function authorizeArea(request: FastifyRequest, role: UserRole): void {
  if (role === 'admin' || !WRITES.has(request.routeOptions.config.permission ?? 'public')) return;
  const route = `${request.method} ${request.routeOptions.url ?? request.url}`;
  const area = ROUTE_AREAS[route] ?? 'admin';
  if (!ROLE_AREAS[role].includes(area)) {
    throw new HttpError(403, 'forbidden', `${aRole(role)} may not ${route}: ${AREA_WORDS[area]}`);
  }
}

/** Who the audit trail records for a request that may change something, or null (audit/actor.ts). */
function actorOf(request: FastifyRequest): Actor | null {
  if (request.method === 'GET' || request.method === 'HEAD') return null;
  if (request.routeOptions.config.audit === false) return null;
  const address = request.ip ?? null;
  if (request.session) {
    return { kind: 'user', id: request.session.user_id, name: request.session.login, address };
  }
  if (request.token) return { kind: 'token', id: request.token.id, name: request.token.name, address };
  return null;
}

export const SESSION_EXPIRED_MESSAGE =
  'the session has expired or was signed out: sign in again (POST /session)';

/**
 * 403 unless `granted` holds what the route needs (and the caller acts as `full` where only that
 * will do); `who` names the caller in the message.
 */
function authorize(
  request: FastifyRequest,
  granted: ReadonlySet<Permission>,
  full: boolean,
  who: string,
): void {
  const { permission, fullOnly } = request.routeOptions.config;
  if (!permission || permission === 'public' || !granted.has(permission) || (fullOnly && !full)) {
    throw new HttpError(
      403,
      'forbidden',
      `${who} may not ${request.method} ${request.routeOptions.url ?? request.url}`,
    );
  }
}
