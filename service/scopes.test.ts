import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_SCOPES, type TokenScope } from '../src/shared/token';
import { grants, type Permission } from './http/auth';
import { startTestService, type TestService } from './test-support';

let service: TestService;
const secrets = {} as Record<TokenScope, string>;

interface Operation {
  method: string;
  path: string;
  permission: Permission | 'public';
  /** The scopes the description says may call it. */
  scopes: TokenScope[];
}

/** Every operation of the OpenAPI description, with the permission it documents. */
async function operations(): Promise<Operation[]> {
  const openapi = (await service.call('GET', '/openapi.json', undefined, null)).json() as {
    paths: Record<string, Record<string, { description?: string }>>;
  };
  return Object.entries(openapi.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => {
      const match = /Permission: `([a-z:]+)` \(scopes: ([a-z, ]*)\)/.exec(operation.description ?? '');
      const isPublic = operation.description?.includes('Needs no token.');
      const permission = isPublic ? 'public' : (match?.[1] as Permission | undefined);
      if (!permission) throw new Error(`${method.toUpperCase()} ${path} documents no permission`);
      const scopes = (match?.[2] ?? '').split(', ').filter(Boolean) as TokenScope[];
      // Path parameters get values that exist nowhere: the scope check comes before any lookup.
      return {
        method: method.toUpperCase(),
        path: path.replace(/\{[^}]+\}/g, 'nothing-here'),
        permission,
        scopes,
      };
    }),
  );
}

beforeAll(async () => {
  service = await startTestService();
  for (const scope of TOKEN_SCOPES) secrets[scope] = await service.tokenOf(scope);
});
afterAll(() => service.close());

describe('every route against every scope', () => {
  it('documents a permission for every route', async () => {
    const all = await operations();
    expect(all.length).toBeGreaterThan(40);
    expect(all.filter((op) => op.permission === 'public').map((op) => `${op.method} ${op.path}`)).toEqual([
      'GET /health',
      // Signing in and out (docs/api/users.md): they read the session cookie themselves.
      'POST /session',
      'GET /session',
      'DELETE /session',
      'POST /pairings',
      'GET /pairings/nothing-here',
    ]);
  });

  it('documents the scopes its permission grants, or full alone where a route asks for a full token', async () => {
    for (const op of await operations()) {
      if (op.permission === 'public') continue;
      const granted = TOKEN_SCOPES.filter((scope) => grants(scope, op.permission as Permission));
      const where = `${op.method} ${op.path}`;
      if (where === 'POST /pairings/claim') expect(op.scopes, where).toEqual(['full']);
      else expect([granted, ['full']], where).toContainEqual(op.scopes);
    }
  });

  it('answers 401 to every route but the public ones when no token is sent', async () => {
    for (const op of await operations()) {
      if (op.permission === 'public') continue;
      const response = await service.call(
        op.method as never,
        op.path,
        op.method === 'GET' ? undefined : {},
        null,
      );
      expect(response.statusCode, `${op.method} ${op.path}`).toBe(401);
    }
  });

  it.each(TOKEN_SCOPES)('lets a %s token through exactly the routes its scope grants', async (scope) => {
    for (const op of await operations()) {
      if (op.permission === 'public') continue;
      const body = op.method === 'GET' || op.method === 'DELETE' ? undefined : {};
      const response = await service.call(op.method as never, op.path, body, secrets[scope]);
      const where = `${scope}: ${op.method} ${op.path} (${op.permission}) answered ${response.statusCode}`;
      if (op.scopes.includes(scope)) {
        expect([401, 403, 500], where).not.toContain(response.statusCode);
      } else {
        expect(response.statusCode, where).toBe(403);
        expect(response.json().error.code).toBe('forbidden');
      }
    }
  });
});
