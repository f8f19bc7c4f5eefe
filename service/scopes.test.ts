import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_SCOPES, type TokenScope } from '../src/shared/token';
import { createUser } from './actions/users';
import { grants, type Permission } from './http/auth';
import { startTestService, type TestService } from './test-support';

let service: TestService;
const secrets = {} as Record<TokenScope, string>;

interface Operation {
  method: string;
  path: string;
  permission: Permission | 'public';
  /** The path as docs/api.md writes it: `/devices/:tag`. */
  template: string;
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
        template: path.replace(/\{([^}]+)\}/g, ':$1'),
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
      // Single sign-on (docs/single-sign-on.md): what the sign-in page offers, and the provider's round trip.
      'GET /session/sso/options',
      'GET /session/sso',
      'GET /session/sso/callback',
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
});

// The scope table of docs/api.md, read as it is written, against every route of the description.
const KINDS = ['full', 'readonly', 'affiliated', 'bound', 'admin', 'viewer'] as const;
type Kind = (typeof KINDS)[number];

/** A row's cell: who may call its routes, but for the routes it names after "but not". */
interface Cell {
  allowed: boolean;
  except: string[];
}

interface Row {
  /** The routes its routes cell names exactly (`GET /users`), not those it describes. */
  named: string[];
  kinds: Record<Kind, Cell>;
}

/** The rows of the table under "### Scopes", by their permission cell (backticks dropped). */
function scopeTable(): Map<string, Row> {
  const markdown = readFileSync(new URL('../docs/api.md', import.meta.url), 'utf8');
  const section = markdown.slice(markdown.indexOf('### Scopes\n'));
  const lines = section.split('\n').filter((line) => line.startsWith('|'));
  const cells = (line: string) =>
    line
      .slice(1, -1)
      .split('|')
      .map((cell) => cell.trim());
  const header = cells(lines[0] ?? '');
  expect(header).toEqual(['permission', 'routes', ...KINDS]);
  const rows = new Map<string, Row>();
  // The header, its rule, then the rows up to the first line that is no longer the table.
  for (const line of lines.slice(
    2,
    lines.findIndex((l, i) => i > 2 && !l.includes(' yes ')),
  )) {
    const [permission = '', routes = '', ...answers] = cells(line);
    const named = [...routes.matchAll(/`([A-Z]+ \/[^`]*)`/g)].map((m) => m[1] ?? '');
    const kinds = {} as Record<Kind, Cell>;
    KINDS.forEach((kind, i) => {
      const match = /^(yes|no)(?: but not (.+))?$/.exec(answers[i] ?? '');
      if (!match) throw new Error(`docs/api.md: "${permission}" has no yes or no for ${kind}`);
      const except = [...(match[2] ?? '').matchAll(/`([^`]+)`/g)].map((m) => m[1] ?? '');
      kinds[kind] = { allowed: match[1] === 'yes', except };
    });
    rows.set(permission.replaceAll('`', ''), { named, kinds });
  }
  return rows;
}

/** Valid bodies where the refusal of a device-bound token comes after the body is read. */
const BODIES: Record<string, (kind: Kind) => unknown> = {
  '/devices': (kind) => ({ tag: `made-by-${kind}` }),
};

describe('the scope table of docs/api.md', () => {
  const callers = {} as Record<Kind, Record<string, string>>;
  const PASSWORD = 'correct horse battery';

  beforeAll(async () => {
    for (const scope of TOKEN_SCOPES) callers[scope] = { authorization: `Bearer ${secrets[scope]}` };
    expect((await service.call('POST', '/devices', { tag: 'table-lobby' })).statusCode).toBe(201);
    const bound = await service.call('POST', '/account/tokens', {
      scope: 'affiliated',
      device_tag: 'table-lobby',
    });
    callers.bound = { authorization: `Bearer ${bound.json().token}` };
    for (const role of ['admin', 'viewer'] as const) {
      await createUser(service.db, { login: `table-${role}`, password: PASSWORD, role });
      const signedIn = await service.app.inject({
        method: 'POST',
        url: '/session',
        payload: { login: `table-${role}`, password: PASSWORD },
      });
      expect(signedIn.statusCode).toBe(200);
      const cookie = signedIn.cookies.find((c) => c.name === 'wb_session')?.value ?? '';
      callers[role] = { cookie: `wb_session=${cookie}`, 'x-wallboard-csrf': '1' };
    }
  });

  /** The row of an operation: its permission, and ", full only" where only a full token will do. */
  function rowOf(table: Map<string, Row>, op: Operation): Row {
    const widerThanFull = TOKEN_SCOPES.some((s) => s !== 'full' && grants(s, op.permission as Permission));
    const fullOnly = widerThanFull && op.scopes.join() === 'full';
    const key = fullOnly ? `${op.permission}, full only` : op.permission;
    const row = table.get(key);
    if (!row)
      throw new Error(`docs/api.md: the scope table has no row "${key}" for ${op.method} ${op.template}`);
    return row;
  }

  it('has a row for every permission the routes need, and none that no route needs', async () => {
    const table = scopeTable();
    const used = new Set<string>();
    for (const op of await operations()) {
      if (op.permission === 'public') continue;
      const row = rowOf(table, op);
      used.add([...table].find(([, r]) => r === row)?.[0] ?? '');
    }
    expect([...table.keys()].sort()).toEqual([...used].sort());
  });

  it('puts every route a row names in that row', async () => {
    const table = scopeTable();
    const ops = await operations();
    for (const [permission, row] of table) {
      for (const route of row.named) {
        const op = ops.find((o) => `${o.method} ${o.template}` === route);
        if (!op) throw new Error(`docs/api.md: "${permission}" names ${route}, which is no route`);
        expect(rowOf(table, op), `${route} is listed under "${permission}"`).toBe(row);
      }
    }
  });

  it.each(KINDS)('lets %s through exactly the routes its column says yes to', async (kind) => {
    const table = scopeTable();
    for (const op of await operations()) {
      if (op.permission === 'public') continue;
      const cell = rowOf(table, op).kinds[kind];
      const allowed = cell.allowed && !cell.except.includes(`${op.method} ${op.template}`);
      const response = await service.app.inject({
        method: op.method as never,
        url: op.path,
        headers: callers[kind],
        ...(op.method === 'GET' || op.method === 'DELETE'
          ? {}
          : { payload: BODIES[op.template]?.(kind) ?? {} }),
      });
      const where = `${kind}: ${op.method} ${op.template} (${op.permission}) answered ${response.statusCode}`;
      if (allowed) {
        expect([401, 403, 500], where).not.toContain(response.statusCode);
      } else {
        expect(response.statusCode, where).toBe(403);
        expect(response.json().error.code, where).toBe('forbidden');
      }
    }
  });
});
