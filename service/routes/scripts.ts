import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ServiceContext } from '../context';

export function scriptRoutes(_ctx: ServiceContext): FastifyPluginAsyncZod {
  return async () => undefined;
}
