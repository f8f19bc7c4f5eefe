import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { z } from 'zod';
import type { ServiceContext } from '../context';

export function healthRoutes(ctx: ServiceContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/health',
      {
        config: { permission: 'public' },
        schema: {
          tags: ['health'],
          summary: 'Whether the service and its database answer; needs no token',
          response: {
            200: z.object({ status: z.literal('ok'), database: z.enum(['sqlite', 'postgres']) }),
          },
        },
      },
      async () => {
        await sql`select 1`.execute(ctx.db.kysely);
        return { status: 'ok' as const, database: ctx.db.kind };
      },
    );
  };
}
