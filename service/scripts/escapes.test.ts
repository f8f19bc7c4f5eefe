// Attempts to leave the script sandbox, as an attacker with a `full` token would write them: the
// known escapes of `node:vm` (a host-realm object reached through a host function, a host error
// thrown into the script by a stack overflow, Error.prepareStackTrace, Symbol.species, Proxy and
// async-stack tricks), and what an escape would find in the host process.
import { fork } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hostForkOptions } from './host-pool';
import { DEFAULT_LIMITS, ScriptSandbox, type LibraryHandler } from './sandbox';

// The libraries answer as the service's do: data, and errors with a message.
const libraries: LibraryHandler = async (call) => {
  if (call.method === 'getJson') return { value: 1, nested: { list: [1, 2] } };
  if (call.method === 'get') return { status: 200, headers: { a: 'b' }, text: 'ok' };
  throw new Error(`${call.library}.${call.method}: refused`);
};

const sandbox = new ScriptSandbox();
afterAll(() => sandbox.close());

/**
 * The attacks take about 9 s of engine time on a quiet machine, and several times that on a busy
 * one: their time is not what these tests check, so the run's limit and the tests' are wide.
 */
const ATTACK_MS = 90_000;

async function run(code: string): Promise<unknown> {
  const result = await sandbox.run(
    code,
    '{"value":1}',
    { ...DEFAULT_LIMITS, timeoutMs: ATTACK_MS },
    libraries,
  ).result;
  if (result.outcome !== 'ok') throw new Error(`${result.outcome}: ${result.error}`);
  return result.result === null ? null : (JSON.parse(result.result) as unknown);
}

/**
 * Prepended to each attack: `inspect(value, where)` walks what an attacker would walk from a value
 * (its prototype chain, its constructors, their constructors) and notes anything that is not of
 * the script's own realm, or any way to code generation or `process`.
 */
const INSPECT = `
  const realm = new Set([Object.prototype, Function.prototype, Error.prototype]);
  const findings = [];
  function fromScriptRealm(value) {
    let current = value;
    for (let depth = 0; depth < 50; depth += 1) {
      const next = Object.getPrototypeOf(current);
      if (next === null) return current === value || realm.has(current);
      if (realm.has(next)) return true;
      current = next;
    }
    return false;
  }
  function inspect(value, where) {
    if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return;
    if (!fromScriptRealm(value)) findings.push(where + ': an object of another realm');
    const constructors = [value.constructor, value.constructor && value.constructor.constructor];
    for (const maker of constructors) {
      if (typeof maker !== 'function') continue;
      if (!fromScriptRealm(maker)) findings.push(where + ': a constructor of another realm');
      try {
        const found = maker('return typeof process')();
        findings.push(where + ': code generation gave ' + found);
      } catch (error) {
        if (!(error instanceof Error)) findings.push(where + ': threw a non-error');
        else if (!fromScriptRealm(error)) findings.push(where + ': an error of another realm');
      }
    }
  }
  const depthLimit = (() => {
    let deepest = 0;
    const dive = (n) => { deepest = n; dive(n + 1); };
    try { dive(0); } catch (error) { inspect(error, 'stack overflow'); }
    return deepest;
  })();
  /** Calls \`fn\` with the stack nearly full, at many depths, and inspects what comes back. */
  async function nearOverflow(name, fn) {
    for (let margin = 0; margin < 40; margin += 1) {
      const target = depthLimit - margin;
      const dive = (n) => (n < target ? dive(n + 1) : fn());
      try {
        const value = dive(0);
        inspect(value, name + ' answer');
        if (value && typeof value.then === 'function') await value.then((v) => inspect(v, name + ' resolved'), (e) => inspect(e, name + ' rejected'));
      } catch (error) {
        inspect(error, name + ' at depth ' + target);
      }
    }
  }
`;

describe('the script sandbox against escapes', { timeout: ATTACK_MS + 30_000 }, () => {
  it('hands no host-realm object to a script whose stack overflows into a host function', async () => {
    const findings = await run(`${INSPECT}
      const http = require('wallboard/http');
      const { post } = require('wallboard/notifications');
      await nearOverflow('setTimeout', () => setTimeout(() => undefined, 1));
      await nearOverflow('clearTimeout', () => clearTimeout(1));
      await nearOverflow('console.log', () => console.log('x'));
      await nearOverflow('console.error', () => console.error(new Error('x')));
      await nearOverflow('require', () => require('wallboard/http'));
      await nearOverflow('require refused', () => require('fs'));
      await nearOverflow('http.get', () => http.get('https://example.invalid/'));
      await nearOverflow('http.getJson', () => http.getJson('https://example.invalid/'));
      await nearOverflow('notifications.post', () => post('ops', '', 'a', 'b', 1));
      await nearOverflow('promise callback', () => Promise.resolve(1).then(() => undefined));
      return findings;`);
    expect(findings).toEqual([]);
  });

  it('hands no host-realm object through any value the host gives', async () => {
    const findings = await run(`${INSPECT}
      const http = require('wallboard/http');
      const notifications = require('wallboard/notifications');
      const values = { previous, require, http, notifications, console, setTimeout, clearTimeout, globalThis,
        timer: setTimeout(() => undefined, 1), getJson: await http.getJson('https://example.invalid/'),
        get: await http.get('https://example.invalid/') };
      for (const [name, value] of Object.entries(values)) {
        inspect(value, name);
        for (const key of Reflect.ownKeys(Object(value))) {
          const descriptor = Object.getOwnPropertyDescriptor(value, key);
          inspect(descriptor.value, name + '.' + String(key));
          inspect(descriptor.get, name + '.' + String(key) + ' getter');
        }
      }
      for (const attempt of [() => notifications.post('ops', '', 'a', 'b', 1), () => http.get(42), () => require(Symbol())]) {
        try { await attempt(); } catch (error) { inspect(error, 'library error'); }
      }
      try { await import('fs'); } catch (error) { inspect(error, 'import()'); }
      return findings;`);
    expect(findings).toEqual([]);
  });

  it('gives nothing to Error.prepareStackTrace, Symbol.species, Proxy or async-stack tricks', async () => {
    const findings = await run(`${INSPECT}
      const http = require('wallboard/http');
      Error.prepareStackTrace = (error, frames) => {
        for (const frame of Array.isArray(frames) ? frames.slice(0, 10) : []) {
          inspect(frame, 'stack frame');
          if (typeof frame.getThis === 'function') inspect(frame.getThis(), 'frame this');
          if (typeof frame.getFunction === 'function') inspect(frame.getFunction(), 'frame function');
        }
        return 'prepared';
      };
      await nearOverflow('prepareStackTrace', () => console.log(new Error('x')));
      try { null.x; } catch (error) { inspect(error, 'prepared error'); String(error.stack); }

      class Species extends Promise {
        static get [Symbol.species]() {
          return function (executor) {
            return new Promise((resolve, reject) =>
              executor((value) => { inspect(value, 'species resolve'); resolve(value); },
                (error) => { inspect(error, 'species reject'); reject(error); }));
          };
        }
      }
      await Species.resolve(http.getJson('https://example.invalid/')).then((v) => inspect(v, 'species'));
      const handler = new Proxy({}, { get(target, key, receiver) {
        inspect(target, 'proxy target'); inspect(receiver, 'proxy receiver');
        return Reflect.get(target, key, receiver);
      } });
      const trap = new Proxy({ url: 'x' }, handler);
      try { await http.get(trap, trap); } catch (error) { inspect(error, 'proxy argument'); }
      try { console.log(trap); } catch (error) { inspect(error, 'proxy log'); }
      setTimeout.call(trap, () => undefined, 0);
      const chain = async (n) => (n === 0 ? http.get(n) : chain(n - 1));
      for (const depth of [10, 100, 1000]) {
        try { await chain(depth); } catch (error) { inspect(error, 'async chain ' + depth); }
      }
      return findings;`);
    expect(findings).toEqual([]);
  });

  it('keeps every run to its memory limit, ArrayBuffers included', async () => {
    const started = Date.now();
    const result = await sandbox.run(
      'const kept = []; while (true) kept.push(new ArrayBuffer(4 * 1024 * 1024));',
      '{}',
      { ...DEFAULT_LIMITS, timeoutMs: 20_000 },
      libraries,
    ).result;
    expect(result).toMatchObject({
      outcome: 'error',
      error: expect.stringMatching(/ran out of memory \(at most 64 MB\)/),
    });
    expect(Date.now() - started).toBeLessThan(15_000);
  });
});

describe('what an escape from the engine would find in its host process', () => {
  it('has no environment, no file system but its own file, no child processes or workers', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'wallboard-host-probe-'));
    const probe = join(folder, 'probe.cjs');
    // Runs with the host's own flags, as code that escaped the engine would.
    await writeFile(
      probe,
      `const tries = {
        env: () => Object.keys(process.env).length,
        readEnviron: () => require('node:fs').readFileSync('/proc/self/environ', 'utf8').length,
        readPasswd: () => require('node:fs').readFileSync('/etc/passwd', 'utf8').length,
        write: () => require('node:fs').writeFileSync('${folder}/written', 'x'),
        exec: () => String(require('node:child_process').execSync('id')),
        spawn: () => require('node:child_process').spawnSync('id').pid,
        worker: () => new (require('node:worker_threads').Worker)('1', { eval: true }).threadId,
        addon: () => process.dlopen({ exports: {} }, '/nonexistent.node'),
        evalString: () => eval('1 + 1'),
      };
      const report = {};
      for (const [name, attempt] of Object.entries(tries)) {
        try { report[name] = 'reached: ' + attempt(); } catch (error) { report[name] = error.code || error.name; }
      }
      process.send(report, () => process.exit(0));`,
    );
    const child = fork(probe, [], hostForkOptions(probe));
    const report = await new Promise<Record<string, unknown>>((resolve) => child.once('message', resolve));
    await rm(folder, { recursive: true, force: true });
    expect(report).toEqual({
      env: 'reached: 0',
      readEnviron: 'ERR_ACCESS_DENIED',
      readPasswd: 'ERR_ACCESS_DENIED',
      write: 'ERR_ACCESS_DENIED',
      exec: 'ERR_ACCESS_DENIED',
      spawn: 'ERR_ACCESS_DENIED',
      worker: 'ERR_ACCESS_DENIED',
      addon: 'ERR_DLOPEN_DISABLED',
      evalString: 'EvalError',
    });
  });
});
