import { AsyncLocalStorage } from 'node:async_hooks';

/** The account of a single-account install, and of everything made before accounts existed. */
export const DEFAULT_ACCOUNT_ID = 'default';

const scope = new AsyncLocalStorage<string>();

/**
 * The account the work under way acts for: set for each request by the auth hook (the token's or
 * the user's account), for each socket's handlers by the hub, and by a job for each row it acts
 * on. Every query of the store in that work sees and writes that account's rows only
 * (account-plugin.ts). Undefined outside any: the service's own upkeep (pruning, the sweep's
 * search for silent screens) which sees every account, and whose writes go to the default one.
 */
export function currentAccount(): string | undefined {
  return scope.getStore();
}

/** The current account, the default one outside any (a single-account install's). */
export function accountOrDefault(): string {
  return scope.getStore() ?? DEFAULT_ACCOUNT_ID;
}

/** Runs `work` as account `accountId`: its queries, events and notices are that account's. */
export function withAccount<T>(accountId: string, work: () => T): T {
  return scope.run(accountId, work);
}

/** Runs `work` outside any account, seeing every account's rows (the store's own upkeep). */
export function acrossAccounts<T>(work: () => T): T {
  return scope.exit(work);
}

/**
 * `work`, bound to the account of the caller: run later from elsewhere (a batch of the store's
 * group commit), it still acts for the account that asked.
 */
export function boundToAccount<A extends unknown[], R>(work: (...args: A) => R): (...args: A) => R {
  return AsyncLocalStorage.bind(work);
}
