// Sign-ins, failed sign-ins and sign-outs in the audit trail (docs/audit.md): a session is no
// account's table and no actor runs a sign-in, so the session routes record them here.
import { DEFAULT_ACCOUNT_ID } from '../accounts/scope';
import type { SignedIn } from '../actions/users';
import type { Queryable } from '../db/database';
import { hashSecret } from '../http/auth';
import { SessionRepository } from '../repositories/sessions';
import { UserRepository } from '../repositories/users';
import { recordAudit } from './record';

/** How a session was opened: by password, by a sign-in link's code, by single sign-on. */
export type SignInMethod = 'password' | 'code' | 'sso';

/** Records the sign-in that just opened a session, as its user, in the user's account. */
export async function recordSignIn(
  db: Queryable,
  signedIn: SignedIn,
  method: SignInMethod,
  address: string | null,
  at: Date,
): Promise<void> {
  const { user, accountId } = signedIn;
  await recordAudit(db, {
    actor: { kind: 'user', id: user.id, name: user.login, address },
    account: accountId,
    resource: 'session',
    resourceId: user.id,
    action: 'sign-in',
    after: { method },
    at,
  });
}

/** Records a sign-out (before its session is ended) of the session whose cookie holds `secret`. */
export async function recordSignOut(
  db: Queryable,
  secret: string,
  address: string | null,
  at: Date,
): Promise<void> {
  const session = await new SessionRepository(db).findByHash(hashSecret(secret));
  if (!session) return;
  await recordAudit(db, {
    actor: { kind: 'user', id: session.user_id, name: session.login, address },
    account: session.account_id,
    resource: 'session',
    resourceId: session.user_id,
    action: 'sign-out',
    at,
  });
}

/**
 * Records a failed sign-in at `login` (null: a sign-in link's code) in each account holding a
 * user of that login, so that its admins see who is tried; in the default account when none does.
 * Called outside any account, where the users of every account are seen.
 */
export async function recordFailedSignIn(
  db: Queryable,
  login: string | null,
  address: string | null,
  at: Date,
): Promise<void> {
  const users = login === null ? [] : await new UserRepository(db).findAllByLogin(login);
  const targets = users.length
    ? users.map((user) => ({ id: user.id, account: user.account_id }))
    : [{ id: null, account: DEFAULT_ACCOUNT_ID }];
  for (const target of targets) {
    await recordAudit(db, {
      actor: { kind: 'user', id: target.id ?? '', name: login ?? '(a sign-in link)', address },
      account: target.account,
      resource: 'session',
      resourceId: target.id,
      action: 'sign-in-failed',
      at,
    });
  }
}
