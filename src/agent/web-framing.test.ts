import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from './testing/fakes';
import { FRAMING_CACHE_MS, FramingCheck, UNREACHABLE_CACHE_MS, refusalOf } from './web-framing';

/** Stand-ins for sites on the internet: each path answers with the headers its name says. */
const PAGES: Record<string, Record<string, string>> = {
  '/open': {},
  '/deny': { 'x-frame-options': 'DENY' },
  '/sameorigin': { 'x-frame-options': 'sameorigin' },
  '/csp-none': { 'content-security-policy': "default-src 'self'; frame-ancestors 'none'" },
  '/csp-self': { 'content-security-policy': "frame-ancestors 'self'" },
  '/csp-star': { 'content-security-policy': 'frame-ancestors *', 'x-frame-options': 'DENY' },
  '/redirect': { location: '/deny' },
};

let server: Server;
let base: string;
let hits: string[];
let closedPort: number;

beforeAll(async () => {
  server = createServer((req, res) => {
    hits.push(req.url ?? '');
    const headers = PAGES[req.url ?? ''];
    if (!headers) return res.writeHead(404).end();
    res.writeHead(headers.location ? 302 : 200, { 'content-type': 'text/html', ...headers });
    // A body larger than the check ever needs: it reads the headers and drops the rest.
    res.end(`<p>${'page '.repeat(50_000)}</p>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // A port nothing listens on: opened, read, closed.
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  closedPort = (probe.address() as AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

let clock: FakeClock;
let check: FramingCheck;

beforeEach(() => {
  hits = [];
  clock = new FakeClock();
  check = new FramingCheck({ fetch: (url, init) => fetch(url, init), clock });
});

describe('FramingCheck against loopback pages', () => {
  it('allows a page without framing headers', async () => {
    const framing = await check.check(`${base}/open`);
    expect(framing).toEqual({
      url: `${base}/open`,
      verdict: 'allowed',
      detail: expect.stringContaining('allows') as string,
    });
  });

  it.each([
    ['/deny', 'X-Frame-Options: DENY'],
    ['/sameorigin', 'X-Frame-Options: SAMEORIGIN'],
    ['/csp-none', "Content-Security-Policy: frame-ancestors 'none'"],
    ['/csp-self', "Content-Security-Policy: frame-ancestors 'self'"],
  ])('refuses %s and says which header', async (path, header) => {
    const framing = await check.check(`${base}${path}`);
    expect(framing.verdict).toBe('refused');
    expect(framing.detail).toBe(`${new URL(base).host} refuses to be shown inside another page (${header})`);
  });

  it('lets frame-ancestors * win over X-Frame-Options, as browsers do', async () => {
    expect((await check.check(`${base}/csp-star`)).verdict).toBe('allowed');
  });

  it('follows a redirect and judges the page it ends on', async () => {
    const framing = await check.check(`${base}/redirect`);
    expect(framing.verdict).toBe('refused');
    expect(hits).toEqual(['/redirect', '/deny']);
  });

  it('calls a port nothing listens on unreachable', async () => {
    const framing = await check.check(`http://127.0.0.1:${closedPort}/`);
    expect(framing).toEqual({
      url: `http://127.0.0.1:${closedPort}/`,
      verdict: 'unreachable',
      detail: `127.0.0.1:${closedPort} cannot be reached (connection refused)`,
    });
  });

  it('calls a page that does not answer in time unreachable', async () => {
    const silent = new FramingCheck({
      clock,
      fetch: (_url, init) =>
        new Promise((_resolve, reject) =>
          init?.signal?.addEventListener('abort', () => reject(new Error('aborted'))),
        ),
    });
    const framing = silent.check('https://slow.test/');
    await clock.advance(5_000);
    expect(await framing).toMatchObject({
      verdict: 'unreachable',
      detail: 'slow.test cannot be reached (no answer within 5 s)',
    });
  });

  it('keeps a verdict a few minutes, then asks again', async () => {
    await check.check(`${base}/open`);
    await check.check(`${base}/open`);
    expect(hits).toEqual(['/open']);
    await clock.advance(FRAMING_CACHE_MS);
    await check.check(`${base}/open`);
    expect(hits).toEqual(['/open', '/open']);
  });

  it('asks an unreachable page again sooner', async () => {
    let calls = 0;
    const flaky = new FramingCheck({
      clock,
      fetch: () => {
        calls += 1;
        return Promise.reject(new Error('offline'));
      },
    });
    await flaky.check('https://away.test/');
    await flaky.check('https://away.test/');
    expect(calls).toBe(1);
    await clock.advance(UNREACHABLE_CACHE_MS);
    await flaky.check('https://away.test/');
    expect(calls).toBe(2);
  });
});

describe('refusalOf', () => {
  const headers = (init: Record<string, string>) => new Headers(init);

  it('reads X-Frame-Options as the HTML standard does', () => {
    expect(refusalOf(headers({ 'x-frame-options': 'ALLOW-FROM https://a.test' }))).toBeNull();
    expect(refusalOf(headers({ 'x-frame-options': 'ALLOWALL' }))).toBeNull();
    expect(refusalOf(headers({ 'x-frame-options': 'deny, sameorigin' }))).toBe(
      'X-Frame-Options: deny, sameorigin',
    );
    expect(refusalOf(headers({ 'x-frame-options': 'DENY, deny' }))).toBe('X-Frame-Options: DENY');
  });

  it('needs every policy to admit another origin', () => {
    expect(refusalOf(headers({ 'content-security-policy': 'frame-ancestors https:' }))).toBeNull();
    expect(
      refusalOf(headers({ 'content-security-policy': 'frame-ancestors *, frame-ancestors https://a.test' })),
    ).toBe('Content-Security-Policy: frame-ancestors https://a.test');
    expect(refusalOf(headers({ 'content-security-policy': 'frame-ancestors' }))).toBe(
      "Content-Security-Policy: frame-ancestors 'none'",
    );
  });

  it('ignores a policy without frame-ancestors', () => {
    expect(refusalOf(headers({ 'content-security-policy': "default-src 'self'" }))).toBeNull();
  });
});
