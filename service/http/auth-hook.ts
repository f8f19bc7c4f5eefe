import type { FastifyInstance } from 'fastify';
import type { StoredToken } from '../repositories/tokens';
import { AuthRateLimited, grants, secretFromHeader, type Permission, type TokenAuthenticator } from './auth';
import { errorBody, HttpError } from './errors';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** What the route needs of the caller's token; `public` needs no token. */
    permission?: Permission | 'public';
    /** Only a `full` token may, though the permission alone grants more scopes (claiming a pairing). */
    fullOnly?: true;
  }
  interface FastifyRequest {
    token: StoredToken | null;
  }
}

export const UNAUTHORIZED_MESSAGE =
  'a valid token is required: send "Authorization: Bearer <token>" or HTTP Basic with the token as user name';

/** Every route declares its permission; one without is refused, so nothing is open by mistake. */
export function installAuth(app: FastifyInstance, auth: TokenAuthenticator): void {
  app.decorateRequest('token', null);
  app.addHook('onRequest', async (request, reply) => {
    if (request.is404) return;
    const permission = request.routeOptions.config.permission;
    if (permission === 'public' || request.routeOptions.url?.startsWith('/docs')) return;
    let token;
    try {
      token = await auth.authenticate(secretFromHeader(request.headers.authorization), request.ip);
    } catch (error) {
      if (!(error instanceof AuthRateLimited)) throw error;
      return reply
        .status(429)
        .header('retry-after', String(error.retryAfterSeconds))
        .send(errorBody('rate_limited', error.message));
    }
    if (!token) throw new HttpError(401, 'unauthorized', UNAUTHORIZED_MESSAGE);
    const { fullOnly } = request.routeOptions.config;
    if (!permission || !grants(token.scope, permission) || (fullOnly && token.scope !== 'full')) {
      throw new HttpError(
        403,
        'forbidden',
        `a token of scope "${token.scope}" may not ${request.method} ${request.routeOptions.url ?? request.url}`,
      );
    }
    request.token = token;
  });
}
