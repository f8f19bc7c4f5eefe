import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import type { ApiError } from '../../src/shared/api-error';
import type { FieldIssue } from '../../src/shared/issues';
import { isReadOnlyStore, isStorageFull, whyWritesFail } from '../db/constraint-errors';
import { SyncError } from '../db/durability';
import { DomainError, type DomainErrorKind } from '../domain/errors';

/**
 * An answer other than success for what only HTTP knows of (a missing or weak token); domain
 * code refuses with a DomainError instead, mapped below.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: FieldIssue[] = [],
  ) {
    super(message);
  }
}

const DOMAIN_STATUS: Record<DomainErrorKind, [number, string]> = {
  invalid: [400, 'invalid_request'],
  not_found: [404, 'not_found'],
  conflict: [409, 'conflict'],
  unavailable: [503, 'unavailable'],
  // Not the caller's permission but the account's share of the service: asking again will not do.
  quota: [403, 'quota_exceeded'],
};

/** 429 with `retry-after`: every rate limit of the service answers through this one error. */
export class RateLimited extends HttpError {
  constructor(
    readonly retryAfterSeconds: number,
    message: string,
  ) {
    super(429, 'rate_limited', message);
  }
}

export function errorBody(code: string, message: string, details: FieldIssue[] = []): ApiError {
  return { error: { code, message, details } };
}

const FASTIFY_ERRORS: Record<string, [number, string]> = {
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'payload_too_large'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'unsupported_media_type'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'invalid_request'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'invalid_json'],
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'invalid_json'],
};

function validationIssues(error: FastifyError): FieldIssue[] {
  const part = error.validationContext ?? 'body';
  return (error.validation ?? []).flatMap((issue) => {
    const path = [part, ...issue.instancePath.split('/').filter(Boolean)];
    const keys = (issue.params as { keys?: unknown }).keys;
    if (issue.keyword === 'unrecognized_keys' && Array.isArray(keys)) {
      return keys.map((key) => ({ path: [...path, String(key)].join('.'), message: 'is not a known field' }));
    }
    return [{ path: path.join('.'), message: issue.message ?? 'is invalid' }];
  });
}

/**
 * The longest path parameter the router hands on. Longer than any id or tag, so that those are
 * refused by their schema, with its message; the router's own limit (100) would answer 414.
 */
export const PATH_PARAM_MAX = 1000;

function refused(reply: FastifyReply, part: string, message: string) {
  return reply
    .status(400)
    .send(errorBody('invalid_request', `invalid request: ${part}: ${message}`, [{ path: part, message }]));
}

/**
 * The router's refusals, made before any route or hook runs (Fastify's `frameworkErrors`): a path
 * whose percent-encoding does not decode to UTF-8 (`%zz`, `%E0%A4%A`, an encoded surrogate), or
 * a parameter past PATH_PARAM_MAX. Answered like every other refusal instead of Fastify's body.
 */
export function answerRouterError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  if (error.code === 'FST_ERR_BAD_URL') {
    void refused(reply, 'params', 'must be valid percent-encoded UTF-8');
  } else if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    void refused(reply, 'params', `must be at most ${PATH_PARAM_MAX} characters each`);
  } else {
    request.log.error({ err: error }, 'request failed');
    void reply.status(500).send(errorBody('internal', 'the service failed to answer; see its log'));
  }
}

/** V8's message when a recursion runs out of stack, as on input nested thousands of levels deep. */
const isStackOverflow = (error: unknown) => error instanceof RangeError && /call stack/i.test(error.message);

/**
 * Every failure becomes `{error: {code, message, details}}`; only our own faults are 500.
 * `writesRefused` hears why a write failed when no write can succeed now (a full disk, a
 * read-only store), so that the node's readiness says so (cluster/write-probe.ts).
 */
export function installErrorHandling(
  app: FastifyInstance,
  writesRefused: (why: string) => void = () => undefined,
): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      if (error.status === 401)
        reply.header('www-authenticate', 'Bearer realm="wallboard", Basic realm="wallboard"');
      if (error instanceof RateLimited) reply.header('retry-after', String(error.retryAfterSeconds));
      return reply.status(error.status).send(errorBody(error.code, error.message, error.details));
    }
    if (error instanceof DomainError) {
      const [status, code] = DOMAIN_STATUS[error.kind];
      return reply.status(status).send(errorBody(code, error.message, error.details));
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const details = validationIssues(error);
      const summary = details.map((d) => `${d.path}: ${d.message}`).join('; ');
      return reply.status(400).send(errorBody('invalid_request', `invalid request: ${summary}`, details));
    }
    // A validator that threw instead of answering (Fastify marks it 500): input nested deeper than
    // a recursive check can go, or a fault of ours, logged. Either way it is this request that
    // cannot be accepted, and nothing was written yet.
    if (error.validationContext) {
      const tooDeep = isStackOverflow(error);
      if (!tooDeep) request.log.error({ err: error }, 'a request validator threw');
      return refused(
        reply,
        error.validationContext,
        tooDeep ? 'is nested too deeply' : 'could not be checked',
      );
    }
    const known = FASTIFY_ERRORS[error.code];
    if (known) return reply.status(known[0]).send(errorBody(known[1], error.message));
    if (error instanceof SyntaxError || (error.statusCode === 400 && /JSON/i.test(error.message))) {
      return reply
        .status(400)
        .send(errorBody('invalid_json', `the body is not valid JSON: ${error.message}`));
    }
    if (!isResponseSerializationError(error) && error.statusCode && error.statusCode < 500) {
      return reply.status(error.statusCode).send(errorBody('invalid_request', error.message));
    }
    const why = whyWritesFail(error);
    if (why) writesRefused(why);
    if (isReadOnlyStore(error)) {
      request.log.error({ err: error }, 'the store is read-only');
      return reply
        .status(503)
        .send(
          errorBody(
            'unavailable',
            "the service's store is read-only; nothing was written: try again once it takes writes",
          ),
        );
    }
    if (error instanceof SyncError) {
      // Committed, but the disk failed to confirm it: unlike a full disk, it may have been kept.
      request.log.error({ err: error }, 'the disk failed to sync a write');
      return reply
        .status(503)
        .send(errorBody('unavailable', `${error.message}: look whether it was kept before trying again`));
    }
    if (isStorageFull(error)) {
      request.log.error({ err: error }, 'the disk is full');
      return reply
        .status(507)
        .send(
          errorBody(
            'insufficient_storage',
            'the service has no room left on its disk; nothing was written: free some space and try again',
          ),
        );
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send(errorBody('internal', 'the service failed to answer; see its log'));
  });

  app.setNotFoundHandler((request, reply) =>
    reply.status(404).send(errorBody('not_found', `no route ${request.method} ${request.url.split('?')[0]}`)),
  );
}
