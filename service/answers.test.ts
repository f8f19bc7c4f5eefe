// Answers leave the service checked against their route's schema in tests and development, and as
// they are in production (http/answers.ts), with one OpenAPI description either way.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { buildApp, type App } from './app';
import { ensureToken } from './bootstrap';
import { ADMIN_SECRET, openTestStore } from './test-support';
import type { Database } from './db/database';

let store: { db: Database; drop(): Promise<void> };
let checked: App;
let production: App;

/** The app, with a route that answers whatever its query names beside its schema's one field. */
async function appWith(checkAnswers: boolean | undefined): Promise<App> {
  const app = await buildApp({ db: store.db, ...(checkAnswers === undefined ? {} : { checkAnswers }) });
  app.withTypeProvider<ZodTypeProvider>().get(
    '/answer-test',
    {
      config: { permission: 'read' },
      schema: {
        querystring: z.object({ answer: z.enum(['right', 'extra', 'wrong']) }),
        response: { 200: z.object({ name: z.string() }) },
      },
    },
    async (request) => {
      const { answer } = request.query;
      // Out of its schema on purpose: what a route's mistake would send.
      if (answer === 'extra') return { name: 'a', secret_hash: 'kept inside' } as { name: string };
      if (answer === 'wrong') return { name: 7 } as unknown as { name: string };
      return { name: 'a' };
    },
  );
  await app.ready();
  return app;
}

const get = (app: App, url: string) =>
  app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${ADMIN_SECRET}` } });

beforeAll(async () => {
  store = await openTestStore();
  await ensureToken(store.db, ADMIN_SECRET, 'full', 'test admin');
  checked = await appWith(undefined);
  production = await appWith(false);
});
afterAll(async () => {
  await checked.close();
  await production.close();
  await store.drop();
});

describe("the service's answers", () => {
  it('are checked in tests: a field the schema lacks or a value it refuses fails the request', async () => {
    expect((await get(checked, '/answer-test?answer=right')).json()).toEqual({ name: 'a' });
    for (const answer of ['extra', 'wrong']) {
      const response = await get(checked, `/answer-test?answer=${answer}`);
      expect(response.statusCode, answer).toBe(500);
      expect(response.body).not.toContain('kept inside');
    }
  });

  it('are sent as they are in production, without zod', async () => {
    expect((await get(production, '/answer-test?answer=right')).json()).toEqual({ name: 'a' });
    expect((await get(production, '/answer-test?answer=extra')).json()).toEqual({
      name: 'a',
      secret_hash: 'kept inside',
    });
    expect((await get(production, '/answer-test?answer=wrong')).json()).toEqual({ name: 7 });
  });

  it('are described by the same OpenAPI document either way', async () => {
    const described = (await get(checked, '/openapi.json')).json();
    expect(described.paths['/devices'].get.responses['200']).toBeDefined();
    expect((await get(production, '/openapi.json')).json()).toEqual(described);
  });
});
