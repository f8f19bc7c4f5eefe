import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import { textSchema } from '../../src/shared/limits';
import { flowCreateSchema, flowSchema, flowUpdateSchema, type Flow } from '../../src/shared/flow';
import { createFlow, deleteFlow, updateFlow } from '../actions/flows';
import type { ServiceContext } from '../context';
import { notFound } from '../domain/errors';
import { visibilityOf } from '../http/device-scope';
import { withoutPathId } from '../http/strict-requests';
import { FlowRepository } from '../repositories/flows';

/**
 * A flow's id, or its tag when no flow has that id, as the original product's clients name one
 * (its embed id is its id); so it may be as long as a tag (100 characters).
 */
const idParams = z.object({
  id: textSchema.min(1, 'must not be empty').max(100, 'must be at most 100 characters'),
});

export function flowRoutes(ctx: ServiceContext): FastifyPluginAsyncZod {
  const flows = new FlowRepository(ctx.db);

  /** The flow `key` names, by id first; a flow a device-bound token does not show is none. */
  const found = async (request: FastifyRequest, key: string): Promise<Flow> => {
    const flow = await flows.find(key, 'id');
    if (!flow || !(await visibilityOf(ctx.db, request)).flow(flow.id)) throw notFound(`flow ${key}`);
    return flow;
  };

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

    // `/layout` is where the original's Go library reads a flow by id: the same answer.
    for (const [url, summary] of [
      ['/flows/:id', 'Returns one flow by id, or by tag (its metrics are at /flows/:tag/metrics)'],
      ['/flows/:id/layout', 'As GET /flows/:id, for the original product’s Go library'],
    ] as const) {
      app.get(
        url,
        {
          config: { permission: 'read' },
          schema: { tags: ['flows'], summary, params: idParams, response: { 200: flowSchema } },
        },
        (request) => found(request, request.params.id),
      );
    }

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
          summary:
            'Updates a flow (by id, or by tag); a new source or parameters decide `enabled` again. An `id` in the body must be the flow’s',
          params: idParams,
          body: flowUpdateSchema,
          response: { 200: flowSchema },
        },
      },
      async (request) => {
        const flow = await found(request, request.params.id);
        const changes = withoutPathId(request.body, flow.id, request.params.id);
        const updated = await updateFlow(ctx, flow.id, changes);
        if (!updated) throw notFound(`flow ${request.params.id}`);
        return updated;
      },
    );

    app.delete(
      '/flows/:id',
      {
        config: { permission: 'delete' },
        schema: {
          tags: ['flows'],
          summary: 'Deletes a flow (by id, or by tag) and the widgets that show it',
          params: idParams,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        const flow = await found(request, request.params.id);
        if (!(await deleteFlow(ctx, flow.id))) throw notFound(`flow ${request.params.id}`);
        return reply.status(204).send(null);
      },
    );
  };
}
