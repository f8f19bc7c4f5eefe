import type { FastifyInstance } from 'fastify';

/**
 * Request bodies are JSON, read as the original product's clients send them
 * (docs/compatibility.md):
 *
 * - an empty body is no body, whatever its `Content-Type` says: the Go library and the Ruby gem
 *   send `Content-Type: application/json` on every request, DELETE included, with nothing after
 *   it (Fastify's own parser refuses that with 400). A route that needs a body still says so (400
 *   naming `body`);
 * - a body without a `Content-Type` is JSON: the Node client never sends one. It is named so
 *   before Fastify picks a parser, which otherwise has none for it;
 * - any other type is refused with 415 by Fastify, unread, as before (multipart uploads have their
 *   own parser, @fastify/multipart).
 *
 * JSON keeps Fastify's own parser, with its refusal of `__proto__` and `constructor` keys.
 */
export function installBodyParsing(app: FastifyInstance): void {
  const json = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser(['application/json', 'text/plain']);
  // JSON Patch (RFC 6902) is JSON: the original's Go library sends its batches of operations so.
  app.addContentTypeParser(
    ['application/json', 'application/json-patch+json'],
    { parseAs: 'string' },
    (request, body, done) => {
      if (body.length === 0) return done(null, undefined);
      json(request, body as string, done);
    },
  );
  app.addHook('onRequest', async (request) => {
    const { headers } = request;
    const hasBody = headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0;
    if (headers['content-type'] === undefined && hasBody) headers['content-type'] = 'application/json';
  });
}
