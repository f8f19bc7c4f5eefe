import { accountOrDefault } from '../accounts/scope';
import type { Queryable } from '../db/database';
import { lockRows } from '../db/dialect';
import { quotaExceeded } from '../domain/errors';

/** Enabled scripts of the account. */
export async function countEnabled(db: Queryable, accountId: string): Promise<number> {
  // The account plugin adds the current account too; said here for work outside any.
  const row = await db.kysely
    .selectFrom('scripts')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('enabled', '=', true)
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * Inside the transaction that is about to enable a script of the current account (create it
 * enabled, or enable it): refuses when the account has `limit` enabled already
 * (`--scripts-enabled-per-account`), 403 quota_exceeded naming the limit; nothing is written. The
 * account's row is locked first (PostgreSQL; SQLite has one writer), so two enablings at once are
 * counted one after the other and cannot both take the last place.
 */
export async function holdEnabledPlace(tx: Queryable, limit: number): Promise<void> {
  const accountId = accountOrDefault();
  await lockRows(
    tx.kind,
    tx.kysely.selectFrom('accounts').select('id').where('id', '=', accountId),
  ).executeTakeFirst();
  const enabled = await countEnabled(tx, accountId);
  if (enabled < limit) return;
  const message =
    `this account may have at most ${limit} scripts enabled at once (the limit of enabled scripts ` +
    `per account) and has ${enabled}: disable one first, or save this one disabled`;
  throw quotaExceeded(message, [{ path: 'body.enabled', message }]);
}
