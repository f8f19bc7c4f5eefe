import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseHttpAllow } from './destinations';
import { httpGet as httpGetFor, httpGetJson as httpGetJsonFor } from './http-library';
import { DEFAULT_LIMITS, ScriptSandbox, type LibraryHandler } from './sandbox';
import { syntaxProblem } from './syntax';

// The test servers are on 127.0.0.1, which the service refuses unless told otherwise.
const LOOPBACK = parseHttpAllow('loopback');
const httpGet = (args: readonly unknown[], signal: AbortSignal) => httpGetFor(args, signal, LOOPBACK);
const httpGetJson = (args: readonly unknown[], signal: AbortSignal) => httpGetJsonFor(args, signal, LOOPBACK);

const libraries: LibraryHandler = async (call, signal) => {
  if (call.library === 'http' && call.method === 'get') return httpGet(call.args, signal);
  if (call.library === 'http' && call.method === 'getJson') return httpGetJson(call.args, signal);
  throw new Error(`${call.library}.${call.method} is not here`);
};

const sandbox = new ScriptSandbox();
afterAll(() => sandbox.close());

function run(code: string, timeoutMs = 5000, previous = '{}') {
  return sandbox.run(code, previous, { ...DEFAULT_LIMITS, timeoutMs }, libraries).result;
}

describe('the sandbox', () => {
  it('runs sync and async code and answers what it returns, as JSON', async () => {
    expect(await run('return { value: 1 + 1 }')).toEqual({ outcome: 'ok', result: '{"value":2}', logs: [] });
    expect(await run('await new Promise((r) => setTimeout(r, 20)); return [1, "a"]')).toMatchObject({
      outcome: 'ok',
      result: '[1,"a"]',
    });
    expect(await run('const x = 1;')).toMatchObject({ outcome: 'ok', result: null });
    expect(await run('return previous.value + 1', 5000, '{"value":41}')).toMatchObject({ result: '42' });
  });

  it('keeps console output as log lines, capped', async () => {
    const result = await run(
      'console.log("a", 1, {b: [2]}); console.warn("w"); console.error(new Error("e"))',
    );
    expect(result.logs).toEqual(['a 1 {"b":[2]}', '[warn] w', '[error] Error: e (line 1)']);
    const flood = await run(
      'for (let i = 0; i < 500; i++) console.log("line " + i + " " + "x".repeat(5000))',
    );
    expect(flood.logs).toHaveLength(101);
    expect(flood.logs[0]).toHaveLength(1000);
    expect(flood.logs.at(-1)).toMatch(/more lines were not kept/);
  });

  it('reports throws, rejections, compile errors and results that are not JSON', async () => {
    expect(await run('\n\nthrow new TypeError("bad")')).toMatchObject({
      outcome: 'error',
      error: 'TypeError: bad (line 3)',
    });
    expect(await run('throw "text"')).toMatchObject({
      outcome: 'error',
      error: expect.stringMatching(/not an Error: text/),
    });
    expect(await run('await Promise.reject(new Error("nope"))')).toMatchObject({
      error: 'Error: nope (line 1)',
    });
    expect(
      await run('Promise.reject(new Error("lost")); await new Promise((r) => setTimeout(r, 20))'),
    ).toMatchObject({
      outcome: 'error',
      error: expect.stringMatching(/nothing handled it: Error: lost/),
    });
    expect(await run('return (')).toMatchObject({
      outcome: 'error',
      error: expect.stringMatching(/^SyntaxError/),
    });
    expect(await run('return () => 1')).toMatchObject({ outcome: 'invalid' });
    expect(await run('return 10n')).toMatchObject({
      outcome: 'invalid',
      error: expect.stringMatching(/JSON/),
    });
    expect(await syntaxProblem('return (')).toMatch(/^SyntaxError: /);
    expect(await syntaxProblem('const a = 1;\nconst a = 2;')).toMatch(/^SyntaxError: .* \(line 2\)$/);
    expect(await syntaxProblem('await 1; return 2')).toBeNull();
  });

  it('refuses the process, modules, the environment, the network and code generation', async () => {
    const attempts: [string, RegExp][] = [
      ['process.exit(1)', /ReferenceError: '?process'? is not defined/],
      ['return process.env.HOME', /ReferenceError: '?process'? is not defined/],
      ['return globalThis.process.env', /TypeError/],
      ["require('fs').readFileSync('/etc/passwd', 'utf8')", /cannot require "fs"/],
      ["require('node:child_process')", /cannot require "node:child_process"/],
      ["return this.constructor.constructor('return process')()", /EvalError/],
      ["return (function () { return this })().constructor.constructor('return process')()", /EvalError/],
      ["return require.constructor('return process')()", /EvalError/],
      ["return console.log.constructor('return process')()", /EvalError/],
      ["return eval('process')", /EvalError/],
      ["return new Function('return process')()", /EvalError/],
      ["await import('fs')", /cannot import modules/],
      [
        "try { await import('fs') } catch (e) { return e.constructor.constructor('return process')().pid }",
        /EvalError/,
      ],
      [
        'Error.prepareStackTrace = (e, s) => s; return new Error().stack[0].getThis().process.pid',
        /TypeError/,
      ],
      ["return fetch('http://127.0.0.1/')", /ReferenceError: '?fetch'? is not defined/],
      ['return Buffer.from("x")', /ReferenceError: '?Buffer'? is not defined/],
      ['return setInterval(() => 1, 10)', /ReferenceError: '?setInterval'? is not defined/],
      ['return __dirname', /ReferenceError/],
      [
        'return WebAssembly.compile(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]))',
        /CompileError|Wasm code generation|'?WebAssembly'? is not defined/,
      ],
    ];
    for (const [code, error] of attempts) {
      const result = await run(code);
      expect(result.outcome, code).toBe('error');
      expect(result.outcome === 'error' && result.error, code).toMatch(error);
    }
    // The worker has no environment to leak even were the context escaped.
    expect(process.env.PATH).toBeTruthy();
    expect(
      await run(
        'return Object.getOwnPropertyNames(globalThis).filter((n) => /^(process|require|Buffer|fetch)$/.test(n))',
      ),
    ).toMatchObject({
      result: '["require"]',
    });
  });

  it('stops a script that loops forever at its deadline, and one that eats memory', async () => {
    const started = Date.now();
    expect(await run('while (true) {}', 1000)).toMatchObject({
      outcome: 'timeout',
      error: 'stopped after 1 s',
    });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(
      await run('const a = []; while (true) a.push(new Array(1e5).fill(Math.random()))', 20_000),
    ).toMatchObject({
      outcome: 'error',
      error: expect.stringMatching(/ran out of memory/),
    });
  });

  it('lets another run finish while one loops', async () => {
    const looping = run('while (true) {}', 1500);
    const quick = await run('return 1');
    expect(quick).toMatchObject({ outcome: 'ok', result: '1' });
    expect((await looping).outcome).toBe('timeout');
  });
});

describe('wallboard/http', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer((request, response) => {
      if (request.url === '/json') {
        response.setHeader('content-type', 'application/json');
        response.setHeader('x-echo', String(request.headers['x-token'] ?? ''));
        response.end(JSON.stringify({ value: 42 }));
      } else if (request.url === '/text') {
        response.statusCode = 404;
        response.end('not here');
      } else if (request.url === '/slow') {
        // Answers past the timeouts the tests give: what they measure is the timeout.
        setTimeout(() => response.end('late'), 5000).unref();
      } else if (request.url === '/big') {
        response.end('x'.repeat(1024 * 1024 + 1));
      } else if (request.url === '/big-chunked') {
        for (let i = 0; i < 5; i++) response.write('y'.repeat(300 * 1024));
        response.end();
      } else {
        response.end('not json');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('gets text with status and headers, and JSON', async () => {
    const code = `
      const http = require('wallboard/http');
      const answer = await http.get('${base}/json', { headers: { 'x-token': 'abc' } });
      const missing = await http.get('${base}/text');
      const data = await http.getJson('${base}/json');
      return { status: answer.status, echo: answer.headers['x-echo'], text: answer.text, missing: missing.status, data };`;
    const result = await run(code);
    expect(result).toMatchObject({ outcome: 'ok' });
    expect(JSON.parse((result as { result: string }).result)).toEqual({
      status: 200,
      echo: 'abc',
      text: '{"value":42}',
      missing: 404,
      data: { value: 42 },
    });
  });

  it('gives up at the timeout, over 1 MiB, on other statuses and bodies that are not JSON', async () => {
    const signal = new AbortController().signal;
    await expect(httpGet([`${base}/slow`, { timeout: 0.3 }], signal)).rejects.toThrow(
      /did not answer within 0.3 s/,
    );
    await expect(httpGet([`${base}/slow`, { timeout: '300ms' }], signal)).rejects.toThrow(/did not answer/);
    await expect(httpGet([`${base}/big`], signal)).rejects.toThrow(/larger than 1 MiB/);
    await expect(httpGet([`${base}/big-chunked`], signal)).rejects.toThrow(/larger than 1 MiB/);
    await expect(httpGetJson([`${base}/text`], signal)).rejects.toThrow(/answered 404/);
    await expect(httpGetJson([`${base}/other`], signal)).rejects.toThrow(/is not JSON/);
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await expect(httpGet([`http://127.0.0.1:${port}/`], signal)).rejects.toThrow(/failed: ECONNREFUSED/);
    const timedOut = await run(
      `try { await require('wallboard/http').get('${base}/slow', { timeout: 0.2 }) } catch (e) { return e.message }`,
    );
    expect(timedOut).toMatchObject({
      outcome: 'ok',
      result: expect.stringMatching(/did not answer within 0.2 s/),
    });
  });

  it('refuses bad arguments with errors naming them', async () => {
    const signal = new AbortController().signal;
    await expect(httpGet(['file:///etc/passwd'], signal)).rejects.toThrow(/url must be an http or https URL/);
    await expect(httpGet(['not a url'], signal)).rejects.toThrow(/url "not a url" is not a URL/);
    await expect(httpGet([42], signal)).rejects.toThrow(/url must be a string/);
    await expect(httpGet([`${base}/json`, { timeout: 31 }], signal)).rejects.toThrow(
      /options.timeout must be at most 30 seconds/,
    );
    await expect(httpGet([`${base}/json`, { timeout: 0 }], signal)).rejects.toThrow(
      /options.timeout must be more than 0/,
    );
    await expect(httpGet([`${base}/json`, { headers: { a: 1 } }], signal)).rejects.toThrow(
      /options.headers.a must be a string/,
    );
    await expect(httpGet([`${base}/json`, { method: 'POST' }], signal)).rejects.toThrow(
      /options.method is not a known option/,
    );
    await expect(httpGet([`${base}/json`, 'x'], signal)).rejects.toThrow(/options must be an object/);
  });

  it('aborts a request under way when the run ends', async () => {
    const started = Date.now();
    const result = await run(`require('wallboard/http').get('${base}/slow', { timeout: 30 }); return 'left'`);
    expect(result).toMatchObject({ outcome: 'ok', result: '"left"' });
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
