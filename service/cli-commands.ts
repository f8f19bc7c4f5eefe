// The command line's `user …` and `account …` commands, read into what user-commands.ts and
// account-commands.ts carry out (cli-options.ts reads the rest of the command line).
import type { QuotaLimits } from './accounts/accounts';
import { quotaLimits } from './accounts/quota-options';
import { userRoleSchema, type UserRole } from '../src/shared/user';

/** Where a command finds the service's store: its data folder, or PostgreSQL. */
export interface StoreChoice {
  databaseUrl?: string;
  dataDir: string;
}

/** `user …`: service/user-commands.ts. */
export type UserCommand = { kind: 'user'; store: StoreChoice } & (
  | {
      action: 'create';
      login: string;
      role: UserRole;
      passwordStdin: boolean;
      accountId?: string;
    }
  | { action: 'list' }
  /** `accountId`: the account whose user it is, needed when the login is in several. */
  | { action: 'delete'; login: string; accountId?: string }
  | { action: 'password'; login: string; passwordStdin: boolean; accountId?: string }
  /** `origin`: where the link points, the service's --host and --port. */
  | { action: 'link'; login: string; origin: string; accountId?: string }
);

/** `account …`: service/account-commands.ts. */
export type AccountCommand = { kind: 'account'; store: StoreChoice } & (
  | { action: 'create'; name: string; limits: Partial<QuotaLimits> }
  | { action: 'update'; id: string; name?: string; limits: Partial<QuotaLimits> }
  | { action: 'list' }
);

const ACCOUNT_USAGE =
  'the account command is "account create --name <name> [quotas]", "account update <id> [--name <name>] [quotas]" or "account list"';

export function accountCommand(
  store: StoreChoice,
  args: string[],
  values: { name: string } & Partial<Record<string, string | boolean>>,
): AccountCommand {
  const [action, id, ...rest] = args;
  if (rest.length) throw new Error(ACCOUNT_USAGE);
  if (action === 'list' && id === undefined) return { kind: 'account', store, action };
  const name = values.name.trim();
  if (action === 'create' && id === undefined) {
    if (!name) throw new Error('account create needs --name <name>');
    return { kind: 'account', store, action, name, limits: quotaLimits(values) };
  }
  if (action !== 'update' || id === undefined) throw new Error(ACCOUNT_USAGE);
  const limits = quotaLimits(values);
  if (!name && Object.keys(limits).length === 0) {
    throw new Error(
      'account update needs --name or a quota (--media-mb, --media-files, --scripts, --devices, --users)',
    );
  }
  return { kind: 'account', store, action, id, ...(name ? { name } : {}), limits };
}

/** `--account <id>`, for the commands that make something in an account. */
export const inAccount = (account: string | undefined) =>
  account === undefined ? {} : { accountId: account };

const USER_USAGE =
  'the user command is "user create --role <role> --login <login>", "user list", "user delete <login>", "user password <login>" or "user link <login>"';

export function userCommand(
  store: StoreChoice,
  args: string[],
  values: {
    role?: string;
    login?: string;
    account?: string;
    'password-stdin': boolean;
    host: string;
    port: string;
  },
): UserCommand {
  const [action, login, ...rest] = args;
  if (rest.length) throw new Error(USER_USAGE);
  const passwordStdin = values['password-stdin'];
  if (action === 'create' && login === undefined) {
    const role = userRoleSchema.safeParse(values.role);
    if (!role.success) throw new Error('--role must be admin, editor, publisher or viewer');
    if (!values.login) throw new Error('user create needs --login <name or email>');
    return {
      kind: 'user',
      store,
      action,
      login: values.login,
      role: role.data,
      passwordStdin,
      ...inAccount(values.account),
    };
  }
  if (action === 'list' && login === undefined) return { kind: 'user', store, action };
  if (action === 'delete' && login !== undefined) {
    return { kind: 'user', store, action, login, ...inAccount(values.account) };
  }
  if (action === 'password' && login !== undefined) {
    return { kind: 'user', store, action, login, passwordStdin, ...inAccount(values.account) };
  }
  if (action === 'link' && login !== undefined) {
    const host = values.host.includes(':') ? `[${values.host}]` : values.host;
    const origin = `http://${host}:${values.port}`;
    return { kind: 'user', store, action, login, origin, ...inAccount(values.account) };
  }
  throw new Error(USER_USAGE);
}
