import { DEFAULT_ACCOUNT_ID, withAccount } from '../accounts/scope';
import { recordAudit } from '../audit/record';
import type { Queryable } from '../db/database';
import type { SsoRefused } from './sign-in';

/**
 * Records a refused sign-in through the provider in the audit trail (docs/audit.md), as the
 * password sign-ins' failures are: in the account signing in, or the default one when the return
 * matched no flow (a forged, replayed or late one: no account is known then). `after` says it was
 * single sign-on and why.
 */
export function recordSsoFailure(
  db: Queryable,
  refused: SsoRefused,
  address: string | null,
  at: Date,
): Promise<void> {
  const account = refused.who.account ?? DEFAULT_ACCOUNT_ID;
  return withAccount(account, () =>
    recordAudit(db, {
      actor: { kind: 'user', id: '', name: refused.who.name ?? '(single sign-on)', address },
      account,
      resource: 'session',
      resourceId: null,
      action: 'sign-in-failed',
      after: { method: 'sso', reason: refused.reason },
      at,
    }),
  );
}
