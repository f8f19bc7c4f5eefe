import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLIC_ONLY } from '../../scripts/destinations';
import { HTTP_SIZE_MAX } from '../../scripts/http-library';
import { connectionTo, MIME, startHttpFixtures, type HttpFixtures } from '../test-servers/http-fixtures';
import { HTTP_SOURCE_KINDS } from './http-kinds';
import { SourceError, type SourceConnection } from './kind';

// What every HTTP kind shares: the destination rule, the size cap, the timeout, sign-in and its
// secret, statuses. Each is measured at the loopback server the requests reach (or do not).

let server: HttpFixtures;
beforeAll(async () => {
  server = await startHttpFixtures();
});
afterAll(async () => {
  await server.stop();
});

const now = new Date('2026-03-02T10:00:00Z');
const instant = { query: '', range: null, now };

async function failure(promise: Promise<unknown>): Promise<SourceError> {
  const error: unknown = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(SourceError);
  return error as SourceError;
}

function runJson(connection: SourceConnection, signal = new AbortController().signal) {
  return HTTP_SOURCE_KINDS.json.run(connection, instant, signal);
}

describe('the destination rule', () => {
  it.each(Object.keys(HTTP_SOURCE_KINDS) as (keyof typeof HTTP_SOURCE_KINDS)[])(
    'refuses a loopback address to a %s source whose rule is public addresses only, sending nothing',
    async (kind) => {
      const url = server.serve(`/refused-${kind}`, { type: MIME.json, body: '{}' });
      const query = kind === 'prometheus' ? { ...instant, query: 'up' } : instant;
      const run = HTTP_SOURCE_KINDS[kind].run(
        connectionTo(url, { kind, policy: PUBLIC_ONLY }),
        query,
        new AbortController().signal,
      );
      const error = await failure(run);
      expect(error.message).toMatch(/is refused: 127\.0\.0\.1 is a loopback address/);
      expect(error.message).toMatch(/allow_private/);
      expect(error.message).not.toMatch(/^http\.get|scripts-http-allow/);
      // The measure: no request reached the server.
      expect(server.traffic(`/refused-${kind}`).requests).toBe(0);
    },
  );

  it('reaches the same server when the rule allows loopback', async () => {
    const url = server.serve('/allowed', { type: MIME.json, body: '{"ok":true}' });
    await expect(runJson(connectionTo(url))).resolves.toEqual({ ok: true });
    expect(server.traffic('/allowed').requests).toBe(1);
  });
});

describe('the size cap', () => {
  it('takes an answer of exactly 1 MiB and refuses one byte more', async () => {
    const fits = server.serve('/fits', { type: MIME.json, body: `"${'a'.repeat(HTTP_SIZE_MAX - 2)}"` });
    const over = server.serve('/over', { type: MIME.json, body: `"${'a'.repeat(HTTP_SIZE_MAX - 1)}"` });
    expect(((await runJson(connectionTo(fits))) as string).length).toBe(HTTP_SIZE_MAX - 2);
    const error = await failure(runJson(connectionTo(over)));
    expect(error.message).toMatch(/larger than 1 MiB/);
  });

  it('stops reading an endless answer soon after 1 MiB: the server is cut off', async () => {
    const total = 256 * 1024 * 1024;
    const url = server.serve('/endless', { type: MIME.json, streamBytes: total });
    const started = performance.now();
    const error = await failure(runJson(connectionTo(url)));
    expect(error.message).toMatch(/larger than 1 MiB/);
    // Give the server's socket time to see the close.
    for (let wait = 0; wait < 50 && server.traffic('/endless').cutShort === 0; wait++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const traffic = server.traffic('/endless');
    expect(traffic.cutShort).toBe(1);
    // What went out: past the cap (the client read that far), but a small part of the answer
    // (what the loopback's socket buffers held when the client let go).
    expect(traffic.bytesSent).toBeGreaterThan(HTTP_SIZE_MAX);
    expect(traffic.bytesSent).toBeLessThan(32 * 1024 * 1024);
    expect(performance.now() - started).toBeLessThan(3000);
  });
});

describe('the timeout', () => {
  it('gives up on a server that never answers after the source timeout, not much later', async () => {
    const url = server.serve('/hang', { hang: true });
    const started = performance.now();
    const error = await failure(runJson(connectionTo(url, { timeoutMs: 300 })));
    const waited = performance.now() - started;
    expect(error.message).toBe(`${url} did not answer within 0.3 s`);
    expect(waited).toBeGreaterThanOrEqual(290);
    expect(waited).toBeLessThan(1500);
    expect(server.traffic('/hang').requests).toBe(1);
  });

  it('stops when the caller aborts, with its own message', async () => {
    const url = server.serve('/hang-aborted', { hang: true });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = performance.now();
    const error = await failure(runJson(connectionTo(url, { timeoutMs: 10_000 }), controller.signal));
    expect(error.message).toBe('the query was stopped before it was answered');
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe('sign-in, headers and statuses', () => {
  const SECRET = 'S3cret-Token_value.42';

  it('sends a bearer token and the headers as given', async () => {
    const url = server.serve('/bearer', { type: MIME.json, body: '[]' });
    await runJson(connectionTo(url, { auth: 'bearer', secret: SECRET, headers: { 'X-Tenant': 'lobby' } }));
    const seen = server.requests.filter((request) => request.path === '/bearer').at(-1);
    expect(seen?.headers.authorization).toBe(`Bearer ${SECRET}`);
    expect(seen?.headers['x-tenant']).toBe('lobby');
  });

  it('sends basic sign-in as user:secret in base64', async () => {
    const url = server.serve('/basic', { type: MIME.json, body: '[]' });
    await runJson(connectionTo(url, { auth: 'basic', username: 'board', secret: 'pä ss' }));
    const seen = server.requests.filter((request) => request.path === '/basic').at(-1);
    expect(seen?.headers.authorization).toBe(`Basic ${Buffer.from('board:pä ss').toString('base64')}`);
  });

  it.each([401, 404, 500])('names a %i status', async (status) => {
    const url = server.serve(`/status-${status}`, { status, type: 'text/plain', body: 'no' });
    const error = await failure(runJson(connectionTo(url)));
    expect(error.message).toContain(`answered ${status}`);
  });

  it('never puts the secret in a message, whatever failed', async () => {
    const failing = [
      server.serve('/secret-500', { status: 500, body: 'boom' }),
      server.serve('/secret-401', { status: 401, body: 'who?' }),
      server.serve('/secret-hang', { hang: true }),
      server.serve('/secret-not-json', { type: MIME.json, body: '<html>' }),
      server.serve('/secret-big', { streamBytes: 4 * HTTP_SIZE_MAX }),
    ];
    const connections: SourceConnection[] = [];
    for (const url of failing) {
      connections.push(connectionTo(url, { auth: 'bearer', secret: SECRET, timeoutMs: 300 }));
      connections.push(connectionTo(url, { auth: 'basic', username: 'u', secret: SECRET, timeoutMs: 300 }));
      connections.push(connectionTo(url, { auth: 'bearer', secret: SECRET, policy: PUBLIC_ONLY }));
    }
    // A token undici would refuse as a header, quoting it: refused before it gets there.
    connections.push(connectionTo(failing[0] ?? '', { auth: 'bearer', secret: `${SECRET}\nX: ü` }));
    const messages = await Promise.all(
      connections.map(async (connection) => (await failure(runJson(connection))).message),
    );
    const encoded = Buffer.from(`u:${SECRET}`).toString('base64');
    for (const message of messages) {
      expect(message).not.toContain(SECRET);
      expect(message).not.toContain(encoded);
      expect(message).not.toContain('S3cret');
    }
    expect(messages.at(-1)).toBe('the token must be printable ASCII characters without spaces');
  });

  it('refuses a URL with a password in it, and sign-in with no secret', async () => {
    const url = server.serve('/userinfo', { type: MIME.json, body: '[]' });
    const withPassword = url.replace('http://', 'http://me:pw@');
    expect((await failure(runJson(connectionTo(withPassword)))).message).not.toContain('pw');
    expect((await failure(runJson(connectionTo(url, { auth: 'bearer' })))).message).toMatch(/needs a secret/);
    expect(server.traffic('/userinfo').requests).toBe(0);
  });
});

describe('check', () => {
  it('refuses a range for every kind but Prometheus', () => {
    const range = { seconds: 3600, step_seconds: 60 };
    for (const kind of ['json', 'csv', 'rss', 'ical'] as const) {
      expect(HTTP_SOURCE_KINDS[kind].check('', range)).toBe('only a Prometheus source takes a range');
      expect(HTTP_SOURCE_KINDS[kind].check('', null)).toBeNull();
    }
    expect(HTTP_SOURCE_KINDS.prometheus.check('up', range)).toBeNull();
  });
});
