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
import { ScriptRepository } from '../repositories/scripts';
import { countEnabled } from '../scripts/enabled-cap';
import { ScriptTimeSpent } from '../scripts/runner';

const idParams = z.object({ id: idSchema });

const scriptNotFound = (id: string) => notFound(`script ${id}`);

export function scriptRoutes(ctx: ServiceContext): FastifyPluginAsyncZod {
  const scripts = new ScriptRepository(ctx.db);

  return async (app) => {
    app.get(
      '/scripts',
      {
        config: { permission: 'scripts:read' },
        schema: {
          tags: ['scripts'],
          summary: 'Lists all scripts, oldest first',
          response: { 200: z.array(scriptSchema) },
        },
      },
      async () => scripts.list(),
    );

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
        const time = ctx.jobs.scripts.usage(account);
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

    app.get(
      '/scripts/:id',
      {
        config: { permission: 'scripts:read' },
        schema: {
          tags: ['scripts'],
          summary: 'Returns one script by id',
          params: idParams,
          response: { 200: scriptSchema },
        },
      },
      async (request) => {
        const script = await scripts.get(request.params.id);
        if (!script) throw scriptNotFound(request.params.id);
        return script;
      },
    );

    app.post(
      '/scripts',
      {
        config: { permission: 'write' },
        schema: {
          tags: ['scripts'],
          summary: 'Creates a script; an enabled one runs at once, then on its interval',
          body: scriptCreateSchema,
          response: { 201: scriptSchema },
        },
      },
      async (request, reply) => reply.status(201).send(await createScript(ctx, request.body)),
    );

    app.patch(
      '/scripts/:id',
      {
        config: { permission: 'write' },
        schema: {
          tags: ['scripts'],
          summary: 'Updates a script; an enabled one runs again at once',
          params: idParams,
          body: scriptUpdateSchema,
          response: { 200: scriptSchema },
        },
      },
      async (request) => {
        const script = await updateScript(ctx, request.params.id, request.body);
        if (!script) throw scriptNotFound(request.params.id);
        return script;
      },
    );

    app.delete(
      '/scripts/:id',
      {
        config: { permission: 'delete' },
        schema: {
          tags: ['scripts'],
          summary: 'Deletes a script and its runs; its flow is no longer fed',
          params: idParams,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        if (!(await deleteScript(ctx, request.params.id))) throw scriptNotFound(request.params.id);
        return reply.status(204).send(null);
      },
    );

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
