import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { api, ApiError, CSRF_HEADER, refusal, request, send, whenSignedOut } from './client';

const refused = (code: string, message: string, details: { path: string; message: string }[] = []) => ({
  error: { code, message, details },
});

/** Answers every fetch with `response`, recording what was asked. */
function answer(response: Response | Error) {
  const fetch = vi.fn(async (_path: string, _init: RequestInit): Promise<Response> =>
    response instanceof Error ? Promise.reject(response) : response,
  );
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

afterEach(() => {
  vi.unstubAllGlobals();
  whenSignedOut(() => undefined);
});

describe("a refusal of the service's", () => {
  it("carries the service's code, message and the details of each field", () => {
    const error = refusal(
      '/boards',
      400,
      'Bad Request',
      refused('invalid', 'bad board', [{ path: 'body.name', message: 'must not be empty' }]),
    );
    expect(error).toBeInstanceOf(ApiError);
    expect([error.status, error.code, error.message]).toEqual([400, 'invalid', 'bad board']);
    expect(error.details).toEqual([{ path: 'body.name', message: 'must not be empty' }]);
  });

  it("says the status when the body is not the service's (a proxy's page)", () => {
    const error = refusal('/boards', 502, 'Bad Gateway', null);
    expect([error.code, error.message]).toEqual(['http', 'the service answered 502 Bad Gateway']);
  });

  it('sends the page back to signing in on a 401, except when signing in itself fails', () => {
    const signedOut = vi.fn();
    whenSignedOut(signedOut);
    refusal('/session', 401, 'Unauthorized', refused('unauthorized', 'wrong password'));
    expect(signedOut).not.toHaveBeenCalled();
    refusal('/boards', 401, 'Unauthorized', refused('unauthorized', 'session expired'));
    expect(signedOut).toHaveBeenCalledOnce();
    refusal('/boards', 403, 'Forbidden', refused('forbidden', 'read only'));
    expect(signedOut).toHaveBeenCalledOnce();
  });
});

describe('a request to the service', () => {
  it('reads without the CSRF header, and writes JSON with it, on this origin', async () => {
    const fetch = answer(new Response('{}', { status: 200 }));
    await request('/boards');
    const [, read] = fetch.mock.calls[0]!;
    expect(read.method).toBe('GET');
    expect(read.headers).not.toHaveProperty(CSRF_HEADER);
    expect(read.credentials).toBe('same-origin');
    expect(read.body).toBeUndefined();

    await send('/boards/b1', { method: 'PATCH', body: { name: 'Hall' } });
    const [path, write] = fetch.mock.calls[1]!;
    expect(path).toBe('/boards/b1');
    expect(write.headers).toMatchObject({ [CSRF_HEADER]: '1', 'content-type': 'application/json' });
    expect(write.body).toBe('{"name":"Hall"}');
  });

  it('sends a form as multipart, leaving its content type to the browser', async () => {
    const fetch = answer(new Response('{}', { status: 201 }));
    const form = new FormData();
    await send('/media', { method: 'POST', body: form });
    const [, init] = fetch.mock.calls[0]!;
    expect(init.body).toBe(form);
    expect(init.headers).not.toHaveProperty('content-type');
    expect(init.headers).toHaveProperty(CSRF_HEADER, '1');
  });

  it("throws the service's refusal, and a plain one when its body is not JSON", async () => {
    answer(Response.json(refused('conflict', 'changed elsewhere'), { status: 409 }));
    await expect(request('/boards/b1/content')).rejects.toMatchObject({ status: 409, code: 'conflict' });
    answer(new Response('<html>bad gateway</html>', { status: 502, statusText: 'Bad Gateway' }));
    await expect(request('/boards')).rejects.toMatchObject({ status: 502, code: 'http' });
  });

  it('says the service cannot be reached when the network fails, but lets an abort through', async () => {
    answer(new TypeError('fetch failed'));
    await expect(request('/boards')).rejects.toMatchObject({ status: 0, code: 'network' });
    const abort = new DOMException('aborted', 'AbortError');
    answer(abort);
    await expect(request('/boards')).rejects.toBe(abort);
  });

  it('checks an answer against the shared schema, naming what does not match', async () => {
    const schema = z.object({ id: z.string() });
    answer(Response.json({ id: 'b1' }));
    await expect(api(schema, '/boards/b1')).resolves.toEqual({ id: 'b1' });
    answer(Response.json({ id: 7 }));
    const error = await api(schema, '/boards/b1').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 200, code: 'unexpected' });
    expect((error as ApiError).message).toMatch(/^unexpected answer from \/boards\/b1: id: /);
  });
});
