import type { Queryable } from '../database';
import { dropPostgresConstraint, remakeSqliteTable, uniquePerAccount } from './accounts';

/**
 * Version 14: users' logins are unique within an account, no longer in the whole store. With one
 * login per store, an account's admin creating a user learnt from the refusal that another account
 * had that login; now each account has its own, and signing in finds the user by login and
 * password (actions/users.ts). On SQLite the table is made again without its column's constraint,
 * so this runs with the foreign keys off (sessions and sign-in codes name users).
 */
export async function accountLogins(db: Queryable): Promise<void> {
  if (db.kind === 'postgres') {
    await dropPostgresConstraint(db, 'users', 'login_key', 'u');
  } else {
    await remakeSqliteTable(db, 'users', (create) => {
      const pattern = /("login_key" text not null) unique/i;
      if (!pattern.test(create)) throw new Error(`migration 14: "${create}" is not the table it should be`);
      return create.replace(pattern, '$1');
    });
  }
  await uniquePerAccount(db, 'users', 'login_key');
}
