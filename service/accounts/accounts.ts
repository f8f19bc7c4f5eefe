import type { Selectable } from 'kysely';
import { QUOTA_NAMES, type QuotaName } from '../../src/shared/account';
import type { Database, Queryable } from '../db/database';
import type { AccountsTable } from '../db/schema';
import { isUniqueViolation } from '../db/constraint-errors';
import { newId } from '../ids';
import { DEFAULT_ACCOUNT_ID, accountOrDefault, withAccount } from './scope';

/** The default account's channel keeps the id it had before accounts: boards and flows name it. */
const DEFAULT_CHANNEL_ID = 'ch_default';

/**
 * The channel of the current account (scope.ts) that flows and boards made without one belong
 * to, and that notifications without one go to. Each account has its own, made with it.
 */
export function defaultChannelId(accountId = accountOrDefault()): string {
  return accountId === DEFAULT_ACCOUNT_ID ? DEFAULT_CHANNEL_ID : `ch_default_${accountId}`;
}

/** Makes sure the account's default channel exists (at every start, for the default account). */
export async function ensureDefaultChannel(db: Queryable, accountId = DEFAULT_ACCOUNT_ID): Promise<void> {
  await withAccount(accountId, () =>
    db.kysely
      .insertInto('channels')
      .values({
        id: defaultChannelId(accountId),
        type: 'default',
        name: 'Default',
        tag: 'default',
        parent_channel_id: null,
      })
      .onConflict((conflict) => conflict.doNothing())
      .execute(),
  );
}

/** The most an account may hold of each quota (accounts/quotas.ts); null is no limit. */
export type QuotaLimits = Record<QuotaName, number | null>;

/** An account as the store keeps it; GET /account adds what it uses (quotas.ts `accountWithUse`). */
export interface StoredAccount {
  id: string;
  name: string;
  created_at: string;
  limits: QuotaLimits;
}

/** What `account update` changes: the name, and the quotas named (null lifts one). */
export interface AccountChange {
  name?: string;
  limits?: Partial<QuotaLimits>;
}

const QUOTA_COLUMNS = {
  media_bytes: 'quota_media_bytes',
  media_files: 'quota_media_files',
  scripts: 'quota_scripts',
  devices: 'quota_devices',
  users: 'quota_users',
} as const satisfies Record<QuotaName, keyof AccountsTable>;

/** The columns of the quotas named in `limits`, for an insert or an update. */
function quotaColumns(
  limits: Partial<QuotaLimits>,
): Partial<Record<(typeof QUOTA_COLUMNS)[QuotaName], number | null>> {
  return Object.fromEntries(
    QUOTA_NAMES.filter((name) => limits[name] !== undefined).map((name) => [
      QUOTA_COLUMNS[name],
      limits[name],
    ]),
  );
}

type AccountRow = Selectable<AccountsTable>;

/** The limits of a row of `accounts` (both stores give the numbers back as numbers: postgres.ts). */
export function limitsOf(row: Pick<AccountRow, (typeof QUOTA_COLUMNS)[QuotaName]>): QuotaLimits {
  return Object.fromEntries(
    QUOTA_NAMES.map((name) => {
      const value = row[QUOTA_COLUMNS[name]];
      return [name, value === null ? null : Number(value)];
    }),
  ) as QuotaLimits;
}

export const QUOTA_COLUMN_NAMES = Object.values(QUOTA_COLUMNS);

function fromRow(row: AccountRow): StoredAccount {
  return {
    id: row.id,
    name: row.name,
    created_at: new Date(row.created_at).toISOString(),
    limits: limitsOf(row),
  };
}

/** The accounts of the service: operators of a hosted service make them (`account create`). */
export class AccountRepository {
  constructor(private readonly db: Queryable & Pick<Database, 'transaction'>) {}

  /** A new account with its default channel; throws AccountNameTaken for a name in use. */
  async create(name: string, limits: Partial<QuotaLimits> = {}): Promise<StoredAccount> {
    const id = newId('acc');
    try {
      await this.db.transaction(async (tx) => {
        await tx.kysely
          .insertInto('accounts')
          .values({ id, name, ...quotaColumns(limits) })
          .execute();
        await ensureDefaultChannel(tx, id);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new AccountNameTaken(name);
      throw error;
    }
    return (await this.find(id)) as StoredAccount;
  }

  /** Null when there is no such account; throws AccountNameTaken for a name in use. */
  async update(id: string, change: AccountChange): Promise<StoredAccount | null> {
    const set = {
      ...(change.name === undefined ? {} : { name: change.name }),
      ...quotaColumns(change.limits ?? {}),
    };
    if (Object.keys(set).length > 0) {
      try {
        await this.db.kysely.updateTable('accounts').set(set).where('id', '=', id).execute();
      } catch (error) {
        if (isUniqueViolation(error) && change.name !== undefined) throw new AccountNameTaken(change.name);
        throw error;
      }
    }
    return this.find(id);
  }

  async find(id: string): Promise<StoredAccount | null> {
    const row = await this.db.kysely
      .selectFrom('accounts')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? fromRow(row) : null;
  }

  async list(): Promise<StoredAccount[]> {
    const rows = await this.db.kysely.selectFrom('accounts').selectAll().orderBy('created_at').execute();
    return rows.map(fromRow);
  }
}

export class AccountNameTaken extends Error {
  constructor(name: string) {
    super(`an account named "${name}" already exists`);
  }
}
