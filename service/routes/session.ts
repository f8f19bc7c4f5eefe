import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '../../src/shared/api-error';
import { userSchema } from '../../src/shared/user';
import { signInWithCode } from '../actions/sign-in-codes';
import { recordFailedSignIn, recordSignIn, recordSignOut } from '../audit/sign-ins';
import { sessionOf, signIn, signOut } from '../actions/users';
import type { ServiceContext } from '../context';
import { conflict } from '../domain/errors';
import { SESSION_EXPIRED_MESSAGE } from '../http/auth-hook';
import { HttpError, RateLimited } from '../http/errors';
import { clientNetwork, KeyedLimiter, type Rate } from '../http/rate-limit';
import { checkCsrf, clearSessionCookie, sessionSecret, setSessionCookie } from '../http/session-cookie';

// Failed sign-ins are counted three ways (docs/api/users.md). None of them counts a login from
// everywhere towards a refusal: wrong passwords sent from elsewhere must never keep the owner out.

/** Failed sign-ins one client address (an IPv6 /64) may make, whatever the logins: 10 at once, then one every 6 s. */
export const SIGN_IN_ADDRESS_RATE: Rate = { burst: 10, perSecond: 1 / 6 };
/** Failed sign-ins at one login from one client address: 5 at once, then one a minute. */
export const SIGN_IN_LOGIN_ADDRESS_RATE: Rate = { burst: 5, perSecond: 1 / 60 };
/**
 * Failed sign-ins at one login from everywhere before its wrong passwords are answered slowly:
 * 10 at once, then one a minute. Past it a failure is still answered, `SIGN_IN_SLOW_DOWN_MS` late.
 */
export const SIGN_IN_LOGIN_RATE: Rate = { burst: 10, perSecond: 1 / 60 };
/** How late a wrong password is answered for a login guessed at from many addresses. */
export const SIGN_IN_SLOW_DOWN_MS = 2_000;
const LIMITED_KEYS = 10_000;

/** One answer for an unknown login and a wrong password: it does not tell which logins exist. */
const WRONG = 'wrong login or password';
const WRONG_CODE =
  'this sign-in code is unknown, used or expired (a code works once, within 15 minutes): ask for a new link';

const signInSchema = z.union([
  z.strictObject({
    login: z.string().min(1).max(200),
    password: z.string().min(1).max(1024),
    /** The account's id, when one login and password open users of several accounts. */
    account: z.string().min(1).max(200).optional(),
  }),
  // A one-time code from a sign-in link (actions/sign-in-codes.ts).
  z.strictObject({ code: z.string().min(1).max(200) }),
]);

export function sessionRoutes(ctx: ServiceContext): FastifyPluginAsyncZod {
  const byAddress = new KeyedLimiter(SIGN_IN_ADDRESS_RATE, LIMITED_KEYS);
  const byLoginAndAddress = new KeyedLimiter(SIGN_IN_LOGIN_ADDRESS_RATE, LIMITED_KEYS);
  const byLogin = new KeyedLimiter(SIGN_IN_LOGIN_RATE, LIMITED_KEYS);
  /** Waits on the service's clock, so that tests move time instead of sleeping. */
  const slowDown = () =>
    new Promise<void>((resolve) => {
      ctx.clock.setTimeout(resolve, SIGN_IN_SLOW_DOWN_MS);
    });
  return async (app) => {
    app.post(
      '/session',
      {
        config: { permission: 'public' },
        schema: {
          tags: ['session'],
          summary:
            'Signs a user in by login and password (and `account` where they open several), or by the one-time code of a sign-in link: sets the httpOnly, SameSite=Strict session cookie `wb_session` (docs/api/users.md)',
          body: signInSchema,
          response: { 200: userSchema, 409: apiErrorSchema, 429: apiErrorSchema },
        },
      },
      async (request, reply) => {
        const { body } = request;
        const address = clientNetwork(request.ip);
        // A code names no login: it counts against the address alone.
        const loginKey = 'login' in body ? body.login.toLowerCase() : null;
        const pairKey = loginKey === null ? null : `${loginKey}\n${address}`;
        const wait = Math.max(
          byAddress.blockedFor(address),
          pairKey === null ? 0 : byLoginAndAddress.blockedFor(pairKey),
        );
        if (wait > 0) throw new RateLimited(wait, `too many failed sign-ins; try again in ${wait} s`);
        const signedIn =
          'code' in body
            ? await signInWithCode(ctx, body.code)
            : await signIn(ctx, body.login, body.password, body.account);
        if (signedIn && 'ambiguous' in signedIn) {
          // Told only to whoever knows the password of every one of them.
          const accounts = signedIn.ambiguous.join(', ');
          throw conflict(
            `this login and password open several accounts: give "account", one of ${accounts}`,
            [{ path: 'account', message: `one of ${accounts}` }],
          );
        }
        if (!signedIn) {
          byAddress.spend(address);
          if (loginKey !== null && pairKey !== null) {
            byLoginAndAddress.spend(pairKey);
            const guessedEverywhere = byLogin.blockedFor(loginKey) > 0;
            byLogin.spend(loginKey);
            if (guessedEverywhere) await slowDown();
          }
          await recordFailedSignIn(ctx.db, 'login' in body ? body.login : null, request.ip, ctx.clock.now());
          throw new HttpError(401, 'unauthorized', loginKey === null ? WRONG_CODE : WRONG);
        }
        // The owner, back at the right password, starts afresh from where it typed it wrong.
        if (pairKey !== null) byLoginAndAddress.forget(pairKey);
        const method = 'code' in body ? 'code' : 'password';
        await recordSignIn(ctx.db, signedIn, method, request.ip, ctx.clock.now());
        setSessionCookie(request, reply, signedIn.secret, signedIn.maxAgeSeconds);
        // The user as its schema names it: answers leave unchecked in production (http/answers.ts).
        const { id, login, role, groups, sso } = signedIn.user;
        return { id, login, role, groups, sso };
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
        const { user_id: id, login, role, groups, sso } = session;
        return { id, login, role, groups, sso };
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
          await recordSignOut(ctx.db, secret, request.ip, ctx.clock.now());
          await signOut(ctx, secret);
        }
        clearSessionCookie(request, reply);
        return reply.status(204).send();
      },
    );
  };
}
