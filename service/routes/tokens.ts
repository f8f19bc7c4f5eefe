import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idSchema } from '../../src/shared/common';
import {
  tokenCreatedSchema,
  tokenCreateSchema,
  tokenListQuerySchema,
  tokenSchema,
} from '../../src/shared/token';
import type { ServiceContext } from '../context';
import { notFound } from '../domain/errors';
import { hashSecret, newSecret } from '../http/auth';
import { DeviceRepository } from '../repositories/devices';
import { publicToken, TokenRepository, unknownDevice } from '../repositories/tokens';

export function tokenRoutes(ctx: ServiceContext): FastifyPluginAsyncZod {
  const tokens = new TokenRepository(ctx.db);
  const devices = new DeviceRepository(ctx.db);
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
        // Checked first for a clear answer; the store still refuses a device deleted meanwhile.
        if (deviceTag !== undefined && !(await devices.findByTag(deviceTag))) throw unknownDevice(deviceTag);
        const secret = newSecret();
        const token = await tokens.create({ scope, name, deviceTag, secretHash: hashSecret(secret) });
        ctx.notices.changed('tokens', token.id);
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
        if (!(await tokens.delete(request.params.id))) throw notFound(`token ${request.params.id}`);
        ctx.auth.forget(request.params.id);
        ctx.notices.changed('tokens', request.params.id);
        return reply.status(204).send(null);
      },
    );
  };
}
