import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idSchema } from '../../src/shared/common';
import {
  tokenCreatedSchema,
  tokenCreateSchema,
  tokenListQuerySchema,
  tokenSchema,
} from '../../src/shared/token';
import { createToken, deleteToken } from '../actions/tokens';
import type { ServiceContext } from '../context';
import { notFound } from '../domain/errors';
import { publicToken, TokenRepository } from '../repositories/tokens';

export function tokenRoutes(ctx: ServiceContext): FastifyPluginAsyncZod {
  const tokens = new TokenRepository(ctx.db);
  return async (app) => {
    app.get(
      '/account/tokens',
      {
        config: { permission: 'tokens:read' },
        schema: {
          tags: ['tokens'],
          summary: 'Lists the tokens of the account; `scope` may repeat to filter',
          querystring: tokenListQuerySchema,
          response: { 200: z.array(tokenSchema) },
        },
      },
      async (request) => (await tokens.list(request.query.scope)).map(publicToken),
    );

    app.post(
      '/account/tokens',
      {
        config: { permission: 'tokens:write' },
        schema: {
          tags: ['tokens'],
          summary:
            'Creates a token; its secret is in this answer only. `device_tag` (scope affiliated) binds it to that device',
          body: tokenCreateSchema,
          response: { 201: tokenCreatedSchema },
        },
      },
      async (request, reply) => {
        const { scope, name, device_tag: deviceTag } = request.body;
        const { token, secret } = await createToken(ctx, { scope, name, deviceTag });
        return reply.status(201).send({ ...publicToken(token), token: secret });
      },
    );

    app.delete(
      '/account/tokens/:id',
      {
        config: { permission: 'tokens:write' },
        schema: {
          tags: ['tokens'],
          summary: 'Deletes a token; requests with it are refused at once',
          params: z.object({ id: idSchema }),
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        if (!(await deleteToken(ctx, request.params.id))) throw notFound(`token ${request.params.id}`);
        return reply.status(204).send(null);
      },
    );
  };
}
