import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { capFeedCreateSchema, capFeedSchema } from '../../src/shared/cap-feed';
import { idSchema } from '../../src/shared/common';
import { createCapFeed, deleteCapFeed } from '../actions/cap-feeds';
import type { ServiceContext } from '../context';
import { notFound } from '../domain/errors';
import { noQuery } from '../http/strict-requests';
import { CapFeedRepository } from '../repositories/cap-feeds';
import { boundDevice } from '../visibility/scope';
import { actorOf } from './overrides';

const idParams = z.object({ id: idSchema });
const TAGS = ['overrides'];

/**
 * CAP feeds (docs/api/overrides.md, "CAP feeds"): adding and removing one takes what raising an
 * override takes (`write`), as a feed raises them. A token bound to one screen sees none: a feed
 * names the account's other screens and where its alerts come from.
 */
export function capFeedRoutes(ctx: ServiceContext): FastifyPluginAsyncZod {
  const feeds = new CapFeedRepository(ctx.db);

  return async (app) => {
    app.get(
      '/cap-feeds',
      {
        config: { permission: 'read' },
        schema: {
          tags: TAGS,
          summary: 'Lists the CAP feeds, oldest first, each with its last poll and last error',
          querystring: noQuery,
          response: { 200: z.array(capFeedSchema) },
        },
      },
      () => (boundDevice() === undefined ? feeds.list() : []),
    );

    app.post(
      '/cap-feeds',
      {
        config: { permission: 'write' },
        schema: {
          tags: TAGS,
          summary:
            'Adds a CAP 1.2 feed the service polls: its alerts at or above min_severity, of its areas, raise overrides on its target and clear them when cancelled, updated, expired or gone',
          body: capFeedCreateSchema,
          response: { 201: capFeedSchema },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await createCapFeed(ctx, request.body, actorOf(request))),
    );

    app.delete(
      '/cap-feeds/:id',
      {
        config: { permission: 'write' },
        schema: {
          tags: TAGS,
          summary: 'Removes a CAP feed and clears the overrides it raised; they stay in the history',
          params: idParams,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        if (!(await deleteCapFeed(ctx, request.params.id, actorOf(request))))
          throw notFound(`CAP feed ${request.params.id}`);
        return reply.status(204).send(null);
      },
    );
  };
}
