import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestService, type TestService } from './test-support';

// GET /docs: the API's pages, set up at their first visit (http/docs-page.ts), need no token and
// describe the app's own routes.
let service: TestService;

beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

it('serves the docs page, its files and the OpenAPI document of the routes, without a token', async () => {
  const [page, again, style, document] = await Promise.all([
    service.call('GET', '/docs', undefined, null),
    service.call('GET', '/docs/', undefined, null),
    service.call('GET', '/docs/static/swagger-ui.css', undefined, null),
    service.call('GET', '/docs/json', undefined, null),
  ]);
  expect(page.statusCode).toBe(200);
  expect(page.headers['content-type']).toMatch(/^text\/html/);
  expect(page.body).toContain('swagger-ui');
  expect(again.statusCode).toBe(200);
  expect(style.statusCode).toBe(200);
  expect(style.headers['content-type']).toMatch(/^text\/css/);
  expect(Number(style.headers['content-length'])).toBe(style.rawPayload.length);
  const paths = Object.keys(document.json<{ paths: Record<string, unknown> }>().paths);
  expect(paths).toContain('/flows/{tag}/metrics');
  expect(paths).toEqual(
    Object.keys(
      (await service.call('GET', '/openapi.json', undefined, null)).json<{ paths: Record<string, unknown> }>()
        .paths,
    ),
  );
  const head = await service.app.inject({ method: 'HEAD', url: '/docs/static/swagger-ui.css' });
  expect(head.statusCode).toBe(200);
  expect(head.headers['content-length']).toBe(style.headers['content-length']);
});
