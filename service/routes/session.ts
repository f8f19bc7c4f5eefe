import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '../../src/shared/api-error';
import { userSchema } from '../../src/shared/user';
import { signInWithCode } from '../actions/sign-in-codes';
import { sessionOf, signIn, signOut } from '../actions/users';
import type { ServiceContext } from '../context';
import { SESSION_EXPIRED_MESSAGE } from '../http/auth-hook';
import { HttpError, RateLimited } from '../http/errors';
import { KeyedLimiter, type Rate } from '../http/rate-limit';
import { checkCsrf, clearSessionCookie, sessionSecret, setSessionCookie } from '../http/session-cookie';

/** Failed sign-ins one client address may make: 10 at once, then one every 6 s. */
export const SIGN_IN_ADDRESS_RATE: Rate = { burst: 10, perSecond: 1 / 6 };
/** Failed sign-ins for one login, from anywhere: 5 at once, then one a minute. */
export const SIGN_IN_LOGIN_RATE: Rate = { burst: 5, perSecond: 1 / 60 };
const LIMITED_KEYS = 10_000;

/** One answer for an unknown login and a wrong password: it does not tell which logins exist. */
const WRONG = 'wrong login or password';
const WRONG_CODE =
  'this sign-in code is unknown, used or expired (a code works once, within 15 minutes): ask for a new link';

const signInSchema = z.union([
  z.strictObject({
    login: z.string().min(1).max(200),
    password: z.string().min(1).max(1024),
  }),
  // A one-time code from a sign-in link (actions/sign-in-codes.ts).
  z.strictObject({ code: z.string().min(1).max(200) }),
]);

export function sessionRoutes(ctx: ServiceContext): FastifyPluginAsyncZod {
  const byAddress = new KeyedLimiter(SIGN_IN_ADDRESS_RATE, LIMITED_KEYS);
  const byLogin = new KeyedLimiter(SIGN_IN_LOGIN_RATE, LIMITED_KEYS);
  return async (app) => {
    app.post(
      '/session',
      {
        config: { permission: 'public' },
        schema: {
          tags: ['session'],
          summary:
            'Signs a user in by login and password, or by the one-time code of a sign-in link: sets the httpOnly, SameSite=Strict session cookie `wb_session` (docs/api/users.md)',
          body: signInSchema,
          response: { 200: userSchema, 429: apiErrorSchema },
        },
      },
      async (request, reply) => {
        const { body } = request;
        // A code names no login: it counts against the address alone.
        const loginKey = 'login' in body ? body.login.toLowerCase() : null;
        const wait = Math.max(
          byAddress.blockedFor(request.ip),
          loginKey === null ? 0 : byLogin.blockedFor(loginKey),
        );
        if (wait > 0) throw new RateLimited(wait, `too many failed sign-ins; try again in ${wait} s`);
        const signedIn =
          'code' in body
            ? await signInWithCode(ctx, body.code)
            : await signIn(ctx, body.login, body.password);
        if (!signedIn) {
          byAddress.spend(request.ip);
          if (loginKey !== null) byLogin.spend(loginKey);
          throw new HttpError(401, 'unauthorized', loginKey === null ? WRONG_CODE : WRONG);
        }
        setSessionCookie(request, reply, signedIn.secret, signedIn.maxAgeSeconds);
        return signedIn.user;
      },
    );

    app.get(
      '/session',
      {
        config: { permission: 'public' },
        schema: {
          tags: ['session'],
          summary: 'The signed-in user of the session cookie; 401 without a live session',
          response: { 200: userSchema },
        },
      },
      async (request) => {
        const secret = sessionSecret(request);
        const session = secret ? await sessionOf(ctx, secret) : null;
        if (!session) throw new HttpError(401, 'unauthorized', SESSION_EXPIRED_MESSAGE);
        return { id: session.user_id, login: session.login, role: session.role };
      },
    );

    app.delete(
      '/session',
      {
        config: { permission: 'public' },
        schema: {
          tags: ['session'],
          summary: 'Signs out: deletes the session and clears its cookie (needs the CSRF header)',
        },
      },
      async (request, reply) => {
        const secret = sessionSecret(request);
        if (secret) {
          checkCsrf(request);
          await signOut(ctx, secret);
        }
        clearSessionCookie(request, reply);
        return reply.status(204).send();
      },
    );
  };
}
