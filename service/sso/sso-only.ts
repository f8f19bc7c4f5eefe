import { acrossAccounts } from '../accounts/scope';
import type { Queryable } from '../db/database';
import { HttpError } from '../http/errors';

export const SSO_ONLY_MESSAGE =
  'this account signs in by single sign-on only: use "Sign in with single sign-on" (an operator can still make a one-time sign-in link with `user link` on the service machine)';

/**
 * Of the users a password opened, those whose account still takes passwords. When the password
 * opens only users of accounts that take single sign-on alone, the answer says so: only whoever
 * knows the password learns it. Sign-in links (the command line's `user link`) are not passwords
 * and still sign in: the break-glass of an account whose provider is down or misconfigured.
 */
export async function withPasswordsAllowed<T extends { account_id: string }>(
  db: Queryable,
  opened: T[],
): Promise<T[]> {
  if (!opened.length) return opened;
  const rows = await acrossAccounts(() =>
    db.kysely
      .selectFrom('account_sso')
      .select('account_id')
      .where(
        'account_id',
        'in',
        opened.map((user) => user.account_id),
      )
      .where('sso_only', '=', true)
      .execute(),
  );
  const ssoOnly = new Set(rows.map((row) => row.account_id));
  const allowed = opened.filter((user) => !ssoOnly.has(user.account_id));
  if (!allowed.length) throw new HttpError(403, 'sso_only', SSO_ONLY_MESSAGE);
  return allowed;
}
