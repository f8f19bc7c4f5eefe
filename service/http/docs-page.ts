import type { StaticDocumentSpec } from '@fastify/swagger';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** What an answer of the docs' own instance carries that the app's reply sets for itself. */
const HOP_HEADERS = new Set(['connection', 'keep-alive', 'transfer-encoding', 'date']);

/**
 * `GET /docs`: the API's pages (@fastify/swagger-ui on the app's OpenAPI document), set up at their
 * first visit in a Fastify instance of their own that the app's routes answer through. Loaded at
 * the start, the package and its static server cost every start about 40 ms and the process 8 MB
 * for good, for a page most services never show.
 */
export function docsPage(app: FastifyInstance): void {
  let docs: Promise<FastifyInstance> | undefined;
  const build = async (): Promise<FastifyInstance> => {
    const [{ default: Fastify }, { default: swagger }, { default: swaggerUi }] = await Promise.all([
      import('fastify'),
      import('@fastify/swagger'),
      import('@fastify/swagger-ui'),
    ]);
    const instance = Fastify({ logger: false });
    // The app's document is OpenAPI 3.1, which the plugin's static mode serves as it is but does
    // not name among its types.
    const document = app.swagger() as StaticDocumentSpec['document'];
    await instance.register(swagger, { mode: 'static', specification: { document } });
    await instance.register(swaggerUi, { routePrefix: '/docs' });
    await instance.ready();
    return instance;
  };
  const answer = async (request: FastifyRequest, reply: FastifyReply) => {
    docs ??= build().catch((error: unknown) => {
      docs = undefined;
      throw error;
    });
    const page = await (
      await docs
    ).inject({
      method: request.method === 'HEAD' ? 'HEAD' : 'GET',
      url: request.url,
      headers: { 'accept-encoding': request.headers['accept-encoding'] ?? '' },
    });
    for (const [name, value] of Object.entries(page.headers)) {
      if (value !== undefined && !HOP_HEADERS.has(name)) reply.header(name, value);
    }
    return reply.status(page.statusCode).send(page.rawPayload);
  };
  for (const url of ['/docs', '/docs/*']) {
    app.route({
      method: ['GET', 'HEAD'],
      url,
      config: { permission: 'public' },
      schema: { hide: true },
      handler: answer,
    });
  }
}
