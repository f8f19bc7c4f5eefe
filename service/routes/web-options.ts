import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { webOptionsSchema } from '../../src/shared/web-content';
import type { ServiceContext } from '../context';
import { webOptionsOf } from '../domain/web-options';

/** The service's options for web content (docs/api/web-content.md): what the console shows of maps. */
export function webOptionsRoutes(ctx: ServiceContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/web-options',
      {
        config: { permission: 'read' },
        schema: {
          tags: ['web content'],
          summary:
            "The service's options for web content: map tiles, plain http media, custom widgets' network",
          description:
            'The same for every screen, which gets them as `web` of `GET /devices/:tag/settings`. ' +
            '`tiles` is null when the service has no tile source (`--map-tiles none`).',
          response: { 200: webOptionsSchema },
        },
      },
      async () => webOptionsOf(ctx.config),
    );
  };
}
