import type { Account } from '../../src/shared/account';
import type { Database, Queryable } from '../db/database';
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

/** The accounts of the service: operators of a hosted service make them (`account create`). */
export class AccountRepository {
  constructor(private readonly db: Queryable & Pick<Database, 'transaction'>) {}

  /** A new account with its default channel; throws AccountNameTaken for a name in use. */
  async create(name: string): Promise<Account> {
    const id = newId('acc');
    try {
      await this.db.transaction(async (tx) => {
        await tx.kysely.insertInto('accounts').values({ id, name }).execute();
        await ensureDefaultChannel(tx, id);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new AccountNameTaken(name);
      throw error;
    }
    return (await this.find(id)) as Account;
  }

  async find(id: string): Promise<Account | null> {
    const row = await this.db.kysely
      .selectFrom('accounts')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? { ...row, created_at: new Date(row.created_at).toISOString() } : null;
  }

  async list(): Promise<Account[]> {
    const rows = await this.db.kysely.selectFrom('accounts').selectAll().orderBy('created_at').execute();
    return rows.map((row) => ({ ...row, created_at: new Date(row.created_at).toISOString() }));
  }
}

export class AccountNameTaken extends Error {
  constructor(name: string) {
    super(`an account named "${name}" already exists`);
  }
}
