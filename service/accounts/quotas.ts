import { sql } from 'kysely';
import type { Account, Quota, QuotaName } from '../../src/shared/account';
import type { Queryable } from '../db/database';
import { lockRows } from '../db/dialect';
import { quotaExceeded, type DomainError } from '../domain/errors';
import { QUOTA_COLUMN_NAMES, limitsOf, type QuotaLimits, type StoredAccount } from './accounts';
import { accountOrDefault } from './scope';

/**
 * Quotas per account: the most media bytes and files, scripts, devices and users an account may
 * hold, so that one account of a hosted service cannot fill the disk or the store for the others.
 * Each create checks its quota in its own write transaction, after locking the account's row
 * (PostgreSQL: `for update`; SQLite has one writer), so two creates at once are counted one after
 * the other and cannot both take the last place. A refusal is a DomainError of kind `quota`
 * (403 quota_exceeded); nothing is written.
 */

const MB = 1024 * 1024;

/** The tables counted by the quotas of one row each. */
const COUNTED = { scripts: 'scripts', devices: 'devices', users: 'users' } as const;
type CountedQuota = keyof typeof COUNTED;

const NOUNS: Record<CountedQuota, string> = { scripts: 'scripts', devices: 'devices', users: 'users' };

/** Bytes as the operator gave them (--media-mb): in MB, to two places at most. */
export function megabytes(bytes: number): string {
  return `${Math.round((bytes / MB) * 100) / 100} MB`;
}

const ASK = 'delete some first, or ask the service operator for a larger quota';

/** The account's limits, its row locked until the transaction ends. */
async function lockLimits(tx: Queryable, accountId: string): Promise<QuotaLimits> {
  const row = await lockRows(
    tx.kind,
    tx.kysely.selectFrom('accounts').select(QUOTA_COLUMN_NAMES).where('id', '=', accountId),
  ).executeTakeFirst();
  // An account no longer there (never: accounts are not deleted) limits nothing.
  return row
    ? limitsOf(row)
    : { media_bytes: null, media_files: null, scripts: null, devices: null, users: null };
}

async function countOf(
  db: Queryable,
  table: 'scripts' | 'devices' | 'users',
  accountId: string,
): Promise<number> {
  // The account plugin adds the current account too; said here for work outside any (the default's).
  const row = await db.kysely
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

async function mediaUse(db: Queryable, accountId: string): Promise<{ files: number; bytes: number }> {
  const row = await db.kysely
    .selectFrom('media')
    .select((eb) => [
      eb.fn.countAll<number | string>().as('files'),
      // sum() of a bigint is numeric on PostgreSQL, read as text: hence Number below.
      sql<number | string>`coalesce(sum(${sql.ref('bytes')}), 0)`.as('bytes'),
    ])
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  // Player releases are kept in the same storage: their bytes count as media bytes, not as files,
  // from the row written with the quota's check (one being uploaded included).
  const releases = await db.kysely
    .selectFrom('releases')
    .select(sql<number | string>`coalesce(sum(${sql.ref('bytes')}), 0)`.as('bytes'))
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();
  return { files: Number(row.files), bytes: Number(row.bytes) + Number(releases.bytes) };
}

const refusal = (quota: QuotaName, message: string): DomainError =>
  quotaExceeded(message, [{ path: `quotas.${quota}`, message }]);

/**
 * Inside the transaction that is about to insert one script, device or user of the current
 * account: refuses when the account holds its quota of them already.
 */
export async function holdQuota(tx: Queryable, quota: CountedQuota): Promise<void> {
  const accountId = accountOrDefault();
  const limit = (await lockLimits(tx, accountId))[quota];
  if (limit === null) return;
  const used = await countOf(tx, COUNTED[quota], accountId);
  if (used >= limit) {
    throw refusal(quota, `this account's ${NOUNS[quota]} quota is ${limit}; ${used} used: ${ASK}`);
  }
}

/** The refusal of a medium of `bytes` (at least), or null when it fits. */
function mediaRefusal(
  limits: QuotaLimits,
  use: { files: number; bytes: number },
  bytes: number,
): DomainError | null {
  if (limits.media_files !== null && use.files >= limits.media_files) {
    return refusal(
      'media_files',
      `this account's media quota is ${limits.media_files} files; ${use.files} used: ${ASK}`,
    );
  }
  if (limits.media_bytes !== null && use.bytes + bytes > limits.media_bytes) {
    const left = Math.max(0, limits.media_bytes - use.bytes);
    return refusal(
      'media_bytes',
      `this account's media quota is ${megabytes(limits.media_bytes)}; ${megabytes(use.bytes)} used, and the upload is larger than the ${megabytes(left)} left: ${ASK}`,
    );
  }
  return null;
}

/** Inside the transaction that is about to keep a medium of `bytes`: refuses it past the quotas. */
export async function holdMediaQuota(tx: Queryable, bytes: number, newFile = true): Promise<void> {
  const accountId = accountOrDefault();
  const limits = await lockLimits(tx, accountId);
  if (limits.media_bytes === null && limits.media_files === null) return;
  // A replaced file (newFile false) adds bytes, not a file: only the bytes are counted.
  const counted = newFile ? limits : { ...limits, media_files: null };
  const refused = mediaRefusal(counted, await mediaUse(tx, accountId), bytes);
  if (refused) throw refused;
}

/**
 * Before an upload is received: the most bytes it may have and still fit (null: no quota), so
 * that the body is not written past it, and the refusal of an upload larger than that. Read
 * without a lock; holdMediaQuota decides once the upload is whole. `newFile` false: bytes that
 * count as no medium (a release's), held to the bytes quota alone.
 */
export async function mediaRoom(
  db: Queryable,
  newFile = true,
): Promise<{ bytes: number | null; refuse(): DomainError }> {
  const accountId = accountOrDefault();
  const account = await db.kysely
    .selectFrom('accounts')
    .select(QUOTA_COLUMN_NAMES)
    .where('id', '=', accountId)
    .executeTakeFirst();
  const stored = account ? limitsOf(account) : null;
  const limits = stored && !newFile ? { ...stored, media_files: null } : stored;
  if (!limits || (limits.media_bytes === null && limits.media_files === null)) {
    return { bytes: null, refuse: () => refusal('media_bytes', 'the media quota is exceeded') };
  }
  const use = await mediaUse(db, accountId);
  const full = limits.media_files !== null && use.files >= limits.media_files;
  const bytes = full ? 0 : limits.media_bytes === null ? null : Math.max(0, limits.media_bytes - use.bytes);
  return {
    bytes,
    refuse: () =>
      mediaRefusal(limits, use, (bytes ?? 0) + 1) ?? refusal('media_bytes', 'the media quota is exceeded'),
  };
}

/** The account with what it uses of each quota: GET /account. */
export async function accountWithUse(db: Queryable, account: StoredAccount): Promise<Account> {
  const [media, scripts, devices, users] = await Promise.all([
    mediaUse(db, account.id),
    countOf(db, 'scripts', account.id),
    countOf(db, 'devices', account.id),
    countOf(db, 'users', account.id),
  ]);
  const quota = (used: number, limit: number | null): Quota => ({ used, limit });
  const { limits } = account;
  return {
    id: account.id,
    name: account.name,
    created_at: account.created_at,
    quotas: {
      media_bytes: quota(media.bytes, limits.media_bytes),
      media_files: quota(media.files, limits.media_files),
      scripts: quota(scripts, limits.scripts),
      devices: quota(devices, limits.devices),
      users: quota(users, limits.users),
    },
  };
}
