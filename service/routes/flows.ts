import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { textSchema } from '../../src/shared/limits';
import { flowCreateSchema, flowSchema, flowUpdateSchema, type Flow } from '../../src/shared/flow';
import { createFlow, deleteFlow, updateFlow } from '../actions/flows';
import type { ServiceContext } from '../context';
import { notFound } from '../domain/errors';
import { resourceRoutes } from '../http/resource-routes';
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

  /** The flow `key` names, by id first. */
  const found = async (key: string): Promise<Flow> => {
    const flow = await flows.find(key, 'id');
    if (!flow) throw notFound(`flow ${key}`);
    return flow;
  };

  return async (app) => {
    resourceRoutes(app, {
      path: '/flows',
      tag: 'flows',
      noun: 'flow',
      params: idParams,
      item: flowSchema,
      list: { summary: 'Lists all flows, oldest first', permission: 'read', read: () => flows.list() },
      get: {
        summary: 'Returns one flow by id, or by tag (its metrics are at /flows/:tag/metrics)',
        permission: 'read',
        read: (key) => flows.find(key, 'id'),
      },
      create: {
        summary: 'Creates a flow, in the default channel unless told; enabled when ready',
        permission: 'write',
        body: flowCreateSchema,
        run: (body) => createFlow(ctx, body),
      },
      update: {
        summary:
          'Updates a flow (by id, or by tag); a new source or parameters decide `enabled` again. An `id` in the body must be the flow’s',
        permission: 'write',
        body: flowUpdateSchema,
        run: async (key, body) => {
          const flow = await found(key);
          return updateFlow(ctx, flow.id, withoutPathId(body, flow.id, key));
        },
      },
      delete: {
        summary: 'Deletes a flow (by id, or by tag) and the widgets that show it',
        permission: 'delete',
        run: async (key) => deleteFlow(ctx, (await found(key)).id),
      },
    });

    // Where the original's Go library reads a flow by id: the same answer as GET /flows/:id.
    app.get(
      '/flows/:id/layout',
      {
        config: { permission: 'read' },
        schema: {
          tags: ['flows'],
          summary: 'As GET /flows/:id, for the original product’s Go library',
          params: idParams,
          response: { 200: flowSchema },
        },
      },
      (request) => found(request.params.id),
    );
  };
}
