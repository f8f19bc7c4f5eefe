import { randomBytes } from 'node:crypto';
import type { ServiceContext } from '../context';
import type { Queryable } from '../db/database';
import { hashSecret } from '../http/auth';
import { SignInCodeRepository } from '../repositories/sign-in-codes';
import { UserRepository } from '../repositories/users';
import { openSession, userByLogin, type SignedIn } from './users';

/**
 * One-time sign-in codes: a link that signs a user in once (`npm start` prints one for its demo
 * admin, `npm run service -- user link <login>` for anyone). A code lives 15 minutes, works once,
 * and only its hash is stored. The link carries it in the fragment (`#code=`), which browsers
 * never send: it reaches no server log and no Referer, and the console posts it to /session.
 */
export const SIGN_IN_CODE_TTL_MS = 15 * 60_000;

/** The console's page that reads the fragment and signs in with it. */
export const SIGN_IN_PATH = '/console/sign-in';

/** A new code for `login`'s user; not found when there is none, invalid when several accounts have one. */
export async function createSignInCode(db: Queryable, login: string, now: Date): Promise<string> {
  const user = await userByLogin(db, login);
  const code = `wbc_${randomBytes(32).toString('base64url')}`;
  await new SignInCodeRepository(db).create({
    userId: user.id,
    codeHash: hashSecret(code),
    now,
    expiresAt: new Date(now.getTime() + SIGN_IN_CODE_TTL_MS),
  });
  return code;
}

/** The sign-in link of `code` on the service at `origin` (`http://127.0.0.1:8787`). */
export function signInLink(origin: string, code: string): string {
  return `${origin}${SIGN_IN_PATH}#code=${code}`;
}

/** A new session for the code's user, or null (unknown, used, or expired code: all alike). */
export async function signInWithCode(ctx: ServiceContext, code: string): Promise<SignedIn | null> {
  const userId = await new SignInCodeRepository(ctx.db).take(hashSecret(code), ctx.clock.now());
  const user = userId ? await new UserRepository(ctx.db).findById(userId) : null;
  return user ? openSession(ctx, user) : null;
}
