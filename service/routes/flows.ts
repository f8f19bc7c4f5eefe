import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idSchema } from '../../src/shared/common';
import { flowCreateSchema, flowSchema, flowUpdateSchema } from '../../src/shared/flow';
import { createFlow, deleteFlow, updateFlow } from '../actions/flows';
import type { ServiceContext } from '../context';
import { notFound } from '../domain/errors';
import { visibilityOf } from '../http/device-scope';
import { FlowRepository } from '../repositories/flows';

const idParams = z.object({ id: idSchema });

export function flowRoutes(ctx: ServiceContext): FastifyPluginAsyncZod {
  const flows = new FlowRepository(ctx.db);

  return async (app) => {
    app.get(
      '/flows',
      {
        config: { permission: 'read' },
        schema: {
          tags: ['flows'],
          summary: 'Lists all flows, oldest first',
          response: { 200: z.array(flowSchema) },
        },
      },
      async (request) => {
        const visible = await visibilityOf(ctx.db, request);
        return (await flows.list()).filter((flow) => visible.flow(flow.id));
      },
    );

    app.get(
      '/flows/:id',
      {
        config: { permission: 'read' },
        schema: {
          tags: ['flows'],
          summary: 'Returns one flow by id (its metrics are at /flows/:tag/metrics)',
          params: idParams,
          response: { 200: flowSchema },
        },
      },
      async (request) => {
        const visible = await visibilityOf(ctx.db, request);
        const flow = visible.flow(request.params.id) ? await flows.get(request.params.id) : null;
        if (!flow) throw notFound(`flow ${request.params.id}`);
        return flow;
      },
    );

    app.post(
      '/flows',
      {
        config: { permission: 'write' },
        schema: {
          tags: ['flows'],
          summary: 'Creates a flow, in the default channel unless told; enabled when ready',
          body: flowCreateSchema,
          response: { 201: flowSchema },
        },
      },
      async (request, reply) => reply.status(201).send(await createFlow(ctx, request.body)),
    );

    app.patch(
      '/flows/:id',
      {
        config: { permission: 'write' },
        schema: {
          tags: ['flows'],
          summary: 'Updates a flow; a new source or parameters decide `enabled` again',
          params: idParams,
          body: flowUpdateSchema,
          response: { 200: flowSchema },
        },
      },
      async (request) => {
        const flow = await updateFlow(ctx, request.params.id, request.body);
        if (!flow) throw notFound(`flow ${request.params.id}`);
        return flow;
      },
    );

    app.delete(
      '/flows/:id',
      {
        config: { permission: 'delete' },
        schema: {
          tags: ['flows'],
          summary: 'Deletes a flow and the widgets that show it',
          params: idParams,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        if (!(await deleteFlow(ctx, request.params.id))) throw notFound(`flow ${request.params.id}`);
        return reply.status(204).send(null);
      },
    );
  };
}
