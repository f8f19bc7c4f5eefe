import Fastify from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SyncError } from '../db/durability';
import { answerRouterError, installErrorHandling, PATH_PARAM_MAX } from './errors';

// What no route of ours can do today, tested on a small app of its own: a validator that throws
// (a recursive schema on deep input, or a fault in a check). The request is refused with a 400,
// never answered 500; a fault in a handler stays a 500.

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
/** A recursive schema: zod recurses with the input, so 100,000 levels overflow the stack. */
const json: z.ZodType<Json> = z.lazy(() =>
  z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(json), z.record(z.string(), json)]),
);

const logged: string[] = [];
const app = Fastify({
  logger: { level: 'error', stream: { write: (line: string) => void logged.push(line) } },
  routerOptions: { maxParamLength: PATH_PARAM_MAX },
  frameworkErrors: answerRouterError,
});

beforeAll(async () => {
  app.setValidatorCompiler(validatorCompiler);
  installErrorHandling(app);
  app.post('/json', { schema: { body: json } }, async () => ({ ok: true }));
  const faulty = z.unknown().superRefine(() => {
    throw new TypeError('a bug in a check');
  });
  app.post('/faulty', { schema: { body: faulty } }, async () => ({ ok: true }));
  app.get('/items/:id', { schema: { params: z.object({ id: z.string() }) } }, async () => ({ ok: true }));
  app.get('/fault', async () => {
    throw new RangeError('Maximum call stack size exceeded');
  });
  app.post('/unsynced', async () => {
    throw new SyncError(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO' }));
  });
  await app.ready();
});
afterAll(() => app.close());

const post = (url: string, payload: string) =>
  app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload });

describe('the error handler', () => {
  it('refuses input nested too deeply for a recursive check with a 400 naming the part', async () => {
    const response = await post('/json', '['.repeat(100_000) + ']'.repeat(100_000));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: {
        code: 'invalid_request',
        message: 'invalid request: body: is nested too deeply',
        details: [{ path: 'body', message: 'is nested too deeply' }],
      },
    });
    expect((await post('/json', '[[1]]')).statusCode).toBe(200);
  });

  it('refuses a request whose check throws, and logs the fault', async () => {
    logged.length = 0;
    const response = await post('/faulty', '{}');
    expect(response.statusCode).toBe(400);
    expect(response.json().error.details).toEqual([{ path: 'body', message: 'could not be checked' }]);
    expect(logged.join('')).toContain('a bug in a check');
  });

  it('answers a body that is not JSON with invalid_json', async () => {
    const response = await post('/json', '{"a":');
    expect(response.statusCode).toBe(400);
    expect(response.json().error.code).toBe('invalid_json');
  });

  it("answers the router's refusals with the usual error body", async () => {
    const bad = await app.inject({ method: 'GET', url: '/items/%E0%A4%A' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatchObject({ code: 'invalid_request', details: [{ path: 'params' }] });
    const long = await app.inject({ method: 'GET', url: `/items/${'x'.repeat(PATH_PARAM_MAX + 1)}` });
    expect(long.statusCode).toBe(400);
    expect(
      (await app.inject({ method: 'GET', url: `/items/${'x'.repeat(PATH_PARAM_MAX)}` })).statusCode,
    ).toBe(200);
  });

  it('still answers 500 to a fault of ours in a handler, which is not bad input', async () => {
    const response = await app.inject({ method: 'GET', url: '/fault' });
    expect(response.statusCode).toBe(500);
    expect(response.json().error.code).toBe('internal');
  });

  it('answers a write the disk did not confirm with 503, saying it may be lost, never that nothing was written', async () => {
    const response = await post('/unsynced', '{}');
    expect(response.statusCode).toBe(503);
    expect(response.json().error).toMatchObject({
      code: 'unavailable',
      message:
        'the disk did not confirm the write (EIO: i/o error, fdatasync): it may be lost: look whether it was kept before trying again',
    });
  });
});
