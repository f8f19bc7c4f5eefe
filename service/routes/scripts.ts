import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idSchema } from '../../src/shared/common';
import {
  scriptCreateSchema,
  scriptRunSchema,
  scriptSchema,
  scriptUpdateSchema,
  scriptUsageSchema,
  type ScriptUsage,
} from '../../src/shared/script';
import { accountOrDefault } from '../accounts/scope';
import { createScript, deleteScript, runScript, updateScript } from '../actions/scripts';
import type { ServiceContext } from '../context';
import { notFound } from '../domain/errors';
import { RateLimited } from '../http/errors';
import { resourceRoutes } from '../http/resource-routes';
import { ScriptRepository } from '../repositories/scripts';
import { countEnabled } from '../scripts/enabled-cap';
import { ScriptTimeSpent } from '../scripts/runner';

const idParams = z.object({ id: idSchema });

const scriptNotFound = (id: string) => notFound(`script ${id}`);

/** What both of the scripts' tables share: GET /scripts/usage is registered between them, after the list. */
const scriptTable = {
  path: '/scripts',
  tag: 'scripts',
  noun: 'script',
  params: idParams,
  item: scriptSchema,
} as const;

export function scriptRoutes(ctx: ServiceContext): FastifyPluginAsyncZod {
  const scripts = new ScriptRepository(ctx.db);

  return async (app) => {
    resourceRoutes(app, {
      ...scriptTable,
      list: {
        summary: 'Lists all scripts, oldest first',
        permission: 'scripts:read',
        read: () => scripts.list(),
      },
    });

    app.get(
      '/scripts/usage',
      {
        config: { permission: 'scripts:read' },
        schema: {
          tags: ['scripts'],
          summary: "The account's script time this hour and its enabled scripts, with their limits",
          response: { 200: scriptUsageSchema },
        },
      },
      async (): Promise<ScriptUsage> => {
        const account = accountOrDefault();
        const time = ctx.jobs.scriptUsage(account);
        return {
          script_time: {
            // Tenths of a second: enough for an operator, and stable in a test.
            used_seconds: Math.round(time.spentMs / 100) / 10,
            limit_seconds: time.limitMs / 1000,
            refused_runs: time.refused,
          },
          enabled_scripts: {
            used: await countEnabled(ctx.db, account),
            limit: ctx.config.scriptsEnabledPerAccount,
          },
        };
      },
    );

    resourceRoutes(app, {
      ...scriptTable,
      get: { summary: 'Returns one script by id', permission: 'scripts:read', read: (id) => scripts.get(id) },
      create: {
        summary: 'Creates a script; an enabled one runs at once, then on its interval',
        permission: 'write',
        body: scriptCreateSchema,
        run: (body) => createScript(ctx, body),
      },
      update: {
        summary: 'Updates a script; an enabled one runs again at once',
        permission: 'write',
        body: scriptUpdateSchema,
        run: (id, body) => updateScript(ctx, id, body),
      },
      delete: {
        summary: 'Deletes a script and its runs; its flow is no longer fed',
        permission: 'delete',
        run: (id) => deleteScript(ctx, id),
      },
    });

    app.post(
      '/scripts/:id/run',
      {
        config: { permission: 'write' },
        schema: {
          tags: ['scripts'],
          summary:
            "Runs the script now (enabled or not) and answers the run once it is over; 429 when the account's script time for the hour is spent",
          params: idParams,
          response: { 200: scriptRunSchema },
        },
      },
      async (request) => {
        try {
          const run = await runScript(ctx, request.params.id);
          if (!run) throw scriptNotFound(request.params.id);
          return run;
        } catch (error) {
          if (error instanceof ScriptTimeSpent) throw new RateLimited(error.retryAfterSeconds, error.message);
          throw error;
        }
      },
    );

    app.get(
      '/scripts/:id/runs',
      {
        config: { permission: 'scripts:read' },
        schema: {
          tags: ['scripts'],
          summary: 'The last runs of the script (at most 50 are kept), newest first',
          params: idParams,
          response: { 200: z.array(scriptRunSchema) },
        },
      },
      async (request) => {
        if (!(await scripts.get(request.params.id))) throw scriptNotFound(request.params.id);
        return scripts.listRuns(request.params.id);
      },
    );
  };
}
