// `npm run service -- account …`: the accounts of a hosted service, made from the shell (there
// is no one to make the first user of a new account over HTTP).
import { AccountNameTaken, AccountRepository } from './accounts/accounts';
import { describeLimits } from './accounts/quota-options';
import type { AccountCommand } from './cli-commands';
import type { Database } from './db/database';

/** Carries out the command; what to print on stdout. */
export async function runAccountCommand(command: AccountCommand, db: Database): Promise<string> {
  const accounts = new AccountRepository(db);
  if (command.action === 'list') {
    return (await accounts.list())
      .map((account) => `${account.id}\t${account.name}\t${describeLimits(account.limits)}\n`)
      .join('');
  }
  try {
    if (command.action === 'create') {
      const account = await accounts.create(command.name, command.limits);
      return `${account.id}\n`;
    }
    const account = await accounts.update(command.id, { name: command.name, limits: command.limits });
    if (!account) throw new Error(`there is no account ${command.id}; "account list" lists them`);
    // A quota lowered below what the account holds refuses new creates only: nothing is deleted.
    return `${account.id}\t${account.name}\t${describeLimits(account.limits)}\n`;
  } catch (error) {
    if (error instanceof AccountNameTaken) throw new Error(error.message, { cause: error });
    throw error;
  }
}

/** Throws, saying so, when `--account` names no account. */
export async function checkAccount(db: Database, accountId: string | undefined): Promise<void> {
  if (accountId === undefined || (await new AccountRepository(db).find(accountId))) return;
  throw new Error(`there is no account ${accountId}; "account list" lists them`);
}
