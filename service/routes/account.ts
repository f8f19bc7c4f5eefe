import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { accountSchema } from '../../src/shared/account';
import { AccountRepository } from '../accounts/accounts';
import { accountWithUse } from '../accounts/quotas';
import { accountOrDefault } from '../accounts/scope';
import type { ServiceContext } from '../context';

/** The caller's account: what the console names in its header. */
export function accountRoutes(ctx: ServiceContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/account',
      {
        config: { permission: 'read' },
        schema: {
          tags: ['tokens'],
          summary:
            "The caller's account, with what it uses of each quota: every resource it lists and looks up is this account's",
          description:
            'A single-account install has one, `default`. Operators of a hosted service make more with ' +
            '`npm run service -- account create --name <name>` and set its quotas with `account update` ' +
            '(docs/deployment.md); a create past a quota is refused with 403 `quota_exceeded`.',
          response: { 200: accountSchema },
        },
      },
      async () => {
        const account = await new AccountRepository(ctx.db).find(accountOrDefault());
        // A valid caller's account exists: accounts are never deleted.
        if (!account) throw new Error(`the account ${accountOrDefault()} is missing`);
        return accountWithUse(ctx.db, account);
      },
    );
  };
}
