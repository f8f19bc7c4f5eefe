import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idSchema } from '../../src/shared/common';
import { overrideCreateSchema, overrideSchema } from '../../src/shared/override';
import { clearOverride, raiseOverride } from '../actions/overrides';
import type { ServiceContext } from '../context';
import { notFound } from '../domain/errors';
import { noQuery } from '../http/strict-requests';
import { OverrideRepository } from '../repositories/overrides';

const idParams = z.object({ id: idSchema });
const TAGS = ['overrides'];

/** Who raises or clears an override, as the audit list names them (CAP feeds' routes too). */
export function actorOf(request: FastifyRequest): string {
  if (request.token) return `token "${request.token.name || request.token.id}"`;
  return `user "${request.session?.login ?? ''}"`;
}

/**
 * Emergency overrides (docs/api/overrides.md). Raising and clearing one take what publishing
 * takes (`write`: a full token or an admin); reading them what reading screens takes, a token
 * bound to a screen seeing those that reach it.
 */
export function overrideRoutes(ctx: ServiceContext): FastifyPluginAsyncZod {
  const overrides = new OverrideRepository(ctx.db);
  const overrideNotFound = (id: string) => notFound(`override ${id}`);

  return async (app) => {
    app.get(
      '/overrides',
      {
        config: { permission: 'read' },
        schema: {
          tags: TAGS,
          summary: 'Lists the overrides in force now (neither cleared nor expired), newest first',
          querystring: noQuery,
          response: { 200: z.array(overrideSchema) },
        },
      },
      () => overrides.active(ctx.clock.now()),
    );

    app.get(
      '/overrides/history',
      {
        config: { permission: 'read' },
        schema: {
          tags: TAGS,
          summary:
            'Lists every override, ended ones too, newest first (the last 500): who raised it, where, when, and who cleared it',
          querystring: noQuery,
          response: { 200: z.array(overrideSchema) },
        },
      },
      () => overrides.history(ctx.clock.now()),
    );

    app.get(
      '/overrides/:id',
      {
        config: { permission: 'read' },
        schema: {
          tags: TAGS,
          summary: 'Returns one override',
          params: idParams,
          response: { 200: overrideSchema },
        },
      },
      async (request) => {
        const found = await overrides.find(request.params.id, ctx.clock.now());
        if (!found) throw overrideNotFound(request.params.id);
        return found;
      },
    );

    app.post(
      '/overrides',
      {
        config: { permission: 'write' },
        schema: {
          tags: TAGS,
          summary:
            'Puts a full-screen message on every screen, a group or one screen, above schedules, playlists and off windows, until cleared or expired',
          body: overrideCreateSchema,
          response: { 201: overrideSchema },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await raiseOverride(ctx, request.body, actorOf(request))),
    );

    app.delete(
      '/overrides/:id',
      {
        config: { permission: 'write' },
        schema: {
          tags: TAGS,
          summary: 'Clears an override: its screens go back to what they played; it stays in the history',
          params: idParams,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        if (!(await clearOverride(ctx, request.params.id, actorOf(request))))
          throw overrideNotFound(request.params.id);
        return reply.status(204).send(null);
      },
    );
  };
}
