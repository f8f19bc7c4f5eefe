import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idSchema } from '../../src/shared/common';
import {
  scriptCreateSchema,
  scriptRunSchema,
  scriptSchema,
  scriptUpdateSchema,
} from '../../src/shared/script';
import type { ServiceContext } from '../context';
import { HttpError } from '../http/errors';
import { ScriptRepository } from '../repositories/scripts';
import { createScript, deleteScript, updateScript } from '../scripts/manage';
import { RunnerStopped, ScriptRunner } from '../scripts/runner';
import { ScriptScheduler } from '../scripts/scheduler';

const idParams = z.object({ id: idSchema });

const notFound = (id: string) => HttpError.notFound(`script ${id}`);

export function scriptRoutes(ctx: ServiceContext): FastifyPluginAsyncZod {
  const scripts = new ScriptRepository(ctx.db);

  return async (app) => {
    const onError = (error: unknown) => app.log.error({ err: error }, 'script run failed');
    const runner = new ScriptRunner(ctx, { onError });
    const scheduler = new ScriptScheduler(ctx, runner, onError);
    app.addHook('onReady', async () => {
      await scheduler.start();
    });
    // Stopped before the server closes: a manual run under way is then answered 503 at once
    // instead of holding the close for up to its script's timeout. The store stays open until
    // onClose, so the runs being aborted finish before it closes.
    let stopped: Promise<void> | null = null;
    const stop = () => {
      scheduler.stop();
      return (stopped ??= runner.close());
    };
    app.addHook('preClose', async () => {
      // Not awaited here (the server's close goes on meanwhile); a failure surfaces in onClose.
      stop().catch(() => undefined);
    });
    app.addHook('onClose', async () => {
      await stop();
    });

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
        if (!script) throw notFound(request.params.id);
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
      async (request, reply) => {
        const script = await createScript(ctx, request.body);
        await scheduler.sync();
        return reply.status(201).send(script);
      },
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
        if (!script) throw notFound(request.params.id);
        await scheduler.sync();
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
        if (!(await deleteScript(ctx, request.params.id))) throw notFound(request.params.id);
        await scheduler.sync();
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/scripts/:id/run',
      {
        config: { permission: 'write' },
        schema: {
          tags: ['scripts'],
          summary: 'Runs the script now (enabled or not) and answers the run once it is over',
          params: idParams,
          response: { 200: scriptRunSchema },
        },
      },
      async (request) => {
        const { id } = request.params;
        if (!(await scripts.get(id))) throw notFound(id);
        let run;
        try {
          run = await runner.run(id, 'manual');
        } catch (error) {
          if (error instanceof RunnerStopped) throw new HttpError(503, 'unavailable', error.message);
          throw error;
        }
        if (!run) throw notFound(id);
        return run;
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
        if (!(await scripts.get(request.params.id))) throw notFound(request.params.id);
        return scripts.listRuns(request.params.id);
      },
    );
  };
}
