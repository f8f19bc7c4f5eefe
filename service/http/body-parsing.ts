import { errorCodes, type FastifyInstance, type FastifyRequest } from 'fastify';

type Done = (error: Error | null, body?: unknown) => void;

/**
 * Request bodies are JSON, read as the original product's clients send them
 * (docs/compatibility.md):
 *
 * - an empty body is no body, whatever its `Content-Type` says: the Go library and the Ruby gem
 *   send `Content-Type: application/json` on every request, DELETE included, with nothing after
 *   it (Fastify's own parser refuses that with 400). A route that needs a body still says so (400
 *   naming `body`);
 * - a body without a `Content-Type` is read as JSON: the Node client never sends one;
 * - any other type is refused with 415, as before, rather than half-parsed (multipart uploads
 *   have their own parser, @fastify/multipart).
 *
 * JSON keeps Fastify's own parser, with its refusal of `__proto__` and `constructor` keys.
 */
export function installBodyParsing(app: FastifyInstance): void {
  const json = app.getDefaultJsonParser('error', 'error');
  const parse = (request: FastifyRequest, body: string, done: Done) => {
    if (body.length === 0) return done(null, undefined);
    json(request, body, done);
  };
  app.removeContentTypeParser(['application/json', 'text/plain']);
  // JSON Patch (RFC 6902) is JSON: the original's Go library sends its batches of operations so.
  app.addContentTypeParser(
    ['application/json', 'application/json-patch+json'],
    { parseAs: 'string' },
    (request, body, done) => parse(request, body as string, done),
  );
  app.addContentTypeParser('*', { parseAs: 'string' }, (request, body, done) => {
    const type = request.headers['content-type'];
    if (type === undefined) return parse(request, body as string, done);
    done(new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE(type));
  });
}
