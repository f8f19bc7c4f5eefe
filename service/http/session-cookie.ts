import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from './errors';

/** The cookie a signed-in browser sends (docs/api/users.md). */
export const SESSION_COOKIE = 'wb_session';

/** The header every state-changing request signed in by the cookie must carry. */
export const CSRF_HEADER = 'x-wallboard-csrf';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * httpOnly (scripts cannot read it), SameSite=Strict (no other site's page sends it), and Secure
 * when the request itself came over https. The service trusts no proxy headers, so behind a TLS
 * proxy the cookie goes without Secure: the browser still sends it only back to this origin.
 */
function cookieOptions(request: FastifyRequest) {
  return {
    httpOnly: true,
    sameSite: 'strict' as const,
    path: '/',
    secure: request.protocol === 'https',
  };
}

export function setSessionCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  secret: string,
  maxAgeSeconds: number,
): void {
  reply.setCookie(SESSION_COOKIE, secret, { ...cookieOptions(request), maxAge: maxAgeSeconds });
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, cookieOptions(request));
}

export function sessionSecret(request: FastifyRequest): string | null {
  return request.cookies[SESSION_COOKIE] || null;
}

/**
 * Cross-site request forgery, for requests signed in by the cookie. SameSite=Strict already keeps
 * other sites' requests from carrying it; on top of that a state-changing request must carry
 * `x-wallboard-csrf` (a cross-site form cannot set a header, and script on another origin cannot
 * without a CORS preflight, which this service never grants), and its `Origin` and
 * `Sec-Fetch-Site`, when the browser sends them, must say it came from this origin.
 */
export function checkCsrf(request: FastifyRequest): void {
  if (!STATE_CHANGING.has(request.method)) return;
  const refuse = (why: string) => {
    throw new HttpError(
      403,
      'csrf',
      `a ${request.method} signed in by the session cookie ${why}; see docs/api/users.md`,
    );
  };
  if (request.headers[CSRF_HEADER] === undefined) refuse(`must carry the header "${CSRF_HEADER}: 1"`);
  const origin = request.headers.origin;
  if (origin !== undefined && origin !== `${request.protocol}://${request.host}`) {
    refuse(`must come from this origin, not ${origin}`);
  }
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin')
    refuse(`must come from this origin (Sec-Fetch-Site: ${site})`);
}
