// Runs inside the script's QuickJS engine, before the script: it builds the globals scripts have
// (console, require and the two libraries, timers, previous, secrets) on top of the host functions it is
// handed. It is its own layer (tsconfig.guest.json: the ECMAScript library only, no imports), and
// the build turns it into text that the host evaluates in each fresh engine.
//
// The host functions take and give strings and numbers only, and call back functions of this
// realm; they are kept in this closure, out of the script's reach. Nothing here is a security
// boundary (the engine is): a script that tampers with these globals only spoils its own run.

/** The host's side, as functions of the engine that the host implements. */
export interface Host {
  log(line: string): void;
  /** Starts a library call; '' when under way, else why it was refused. */
  call(
    library: string,
    method: string,
    json: string,
    resolve: (json: string | undefined) => void,
    reject: (message: string) => void,
  ): string;
  setTimer(callback: () => void, ms: number): number;
  clearTimer(id: number): void;
  done(json: string | undefined): void;
  invalid(message: string): void;
  fail(message: string): void;
}

export interface Guest {
  /** Runs the script's main function and reports how it settled to the host. */
  start(main: () => unknown): void;
  /** The first promise rejected with no handler since the last call, described, or ''. */
  unhandled(): string;
  describe(error: unknown): string;
}

const LINE = /script\.js:(\d+)/;

export function install(host: Host, previousJson: string, secretsJson: string): Guest {
  const G = globalThis as Record<string, unknown>;
  const { stringify, parse } = JSON;
  const { freeze, defineProperty } = Object;
  const apply = Reflect.apply;
  const hasOwn = Object.prototype.hasOwnProperty;
  const IntrinsicPromise = Promise;
  const intrinsicThen = IntrinsicPromise.prototype.then;

  function show(value: unknown): string {
    if (typeof value === 'string') return value;
    if (value instanceof Error) return describe(value);
    try {
      const json = stringify(value);
      if (typeof json === 'string') return json;
    } catch {
      // Not JSON (a cycle, a BigInt): its string form below.
    }
    try {
      return String(value);
    } catch {
      return '[unprintable]';
    }
  }

  function describe(error: unknown): string {
    try {
      if (error instanceof Error) {
        const where = LINE.exec(String(error.stack));
        const text = `${String(error.name)}: ${String(error.message)}`;
        return where ? `${text} (line ${where[1]})` : text;
      }
      return `the script threw a value that is not an Error: ${show(error)}`;
    } catch {
      return 'the script threw something that cannot be described';
    }
  }

  // Unhandled rejections: the engine tells its embedder nothing of them, so promises made through
  // the global Promise (and the libraries) note their rejection, and any `then` (which `catch`,
  // `finally`, `await` of such a promise and the combinators all go through) marks it handled.
  const rejected = new Map<Promise<unknown>, unknown>();
  const handled = new WeakSet<Promise<unknown>>();
  const noteRejected = (promise: Promise<unknown>, reason: unknown) => {
    if (!handled.has(promise)) rejected.set(promise, reason);
  };
  IntrinsicPromise.prototype.then = function then(this: Promise<unknown>, onFulfilled, onRejected) {
    handled.add(this);
    rejected.delete(this);
    return apply(intrinsicThen, this, [onFulfilled, onRejected]);
  } as typeof intrinsicThen;

  class TrackedPromise<T> extends IntrinsicPromise<T> {
    constructor(
      executor: (resolve: (value: T | PromiseLike<T>) => void, reject: (reason?: unknown) => void) => void,
    ) {
      // A rejection inside the executor comes before `this` exists: it is noted once it does.
      const state: {
        promise: TrackedPromise<T> | null;
        settled: boolean;
        early: { reason: unknown } | null;
      } = {
        promise: null,
        settled: false,
        early: null,
      };
      super((resolve, reject) => {
        executor(
          (value) => {
            state.settled = true;
            resolve(value);
          },
          (reason) => {
            if (!state.settled) {
              if (state.promise) noteRejected(state.promise, reason);
              else state.early = { reason };
            }
            state.settled = true;
            reject(reason);
          },
        );
      });
      state.promise = this;
      if (state.early) noteRejected(this, state.early.reason);
    }

    /** Promises of async functions are the engine's own: they are promises too. */
    static override [Symbol.hasInstance](value: unknown): boolean {
      return value instanceof IntrinsicPromise;
    }
  }

  function unhandled(): string {
    for (const [promise, reason] of rejected) {
      rejected.delete(promise);
      return describe(reason);
    }
    return '';
  }

  function invoke(library: string, method: string, args: unknown[]): Promise<unknown> {
    return new TrackedPromise<unknown>((resolve, reject) => {
      let json: string;
      try {
        json = stringify(args.map((arg) => (arg === undefined ? { $undefined: true } : arg)));
      } catch (error) {
        reject(new Error(`${library}.${method}: the arguments cannot be sent: ${describe(error)}`));
        return;
      }
      const problem = host.call(
        library,
        method,
        json,
        (answer) => {
          if (typeof answer !== 'string') return resolve(undefined);
          try {
            resolve(parse(answer));
          } catch (error) {
            reject(error);
          }
        },
        (message) => reject(new Error(message)),
      );
      if (problem) reject(new Error(`${library}.${method}: ${problem}`));
    });
  }

  const libraries: Record<string, unknown> = {
    'wallboard/notifications': freeze({
      post: (...args: unknown[]) => invoke('notifications', 'post', args.slice(0, 7)),
    }),
    'wallboard/http': freeze({
      get: (url: unknown, options: unknown) => invoke('http', 'get', [url, options]),
      getJson: (url: unknown, options: unknown) => invoke('http', 'getJson', [url, options]),
    }),
  };

  function require(name: unknown): unknown {
    if (typeof name === 'string' && apply(hasOwn, libraries, [name])) return libraries[name];
    throw new Error(
      `cannot require ${typeof name === 'string' ? stringify(name) : show(name)}: scripts may only require "wallboard/notifications" and "wallboard/http"`,
    );
  }

  function logger(prefix: string) {
    return (...values: unknown[]) => host.log(prefix + values.map(show).join(' '));
  }

  function setTimeout(callback: unknown, ms?: unknown, ...extra: unknown[]): number {
    if (typeof callback !== 'function') throw new TypeError('setTimeout needs a function');
    let delay = 0;
    try {
      delay = Number(ms);
    } catch {
      // A value that cannot be a number waits no time, as in Node.
    }
    return host.setTimer(
      () => {
        try {
          apply(callback, undefined, extra);
        } catch (error) {
          host.fail(describe(error));
        }
      },
      delay === delay ? delay : 0,
    );
  }

  function clearTimeout(id: unknown): void {
    if (typeof id === 'number') host.clearTimer(id);
  }

  // Code made from strings would run in this same engine, so it could do no more than the script
  // itself; it stays refused, as it always was for scripts, so that none come to depend on it.
  const refuse = function refused(): never {
    throw new EvalError('scripts cannot make code from strings (eval, Function)');
  };
  const makers = [
    Function,
    Object.getPrototypeOf(async () => undefined).constructor,
    Object.getPrototypeOf(function* () {
      // A generator's constructor.
    }).constructor,
    Object.getPrototypeOf(async function* () {
      // An async generator's constructor.
    }).constructor,
  ] as { prototype: object }[];
  for (const maker of makers) {
    const stub = function refused(): never {
      return refuse();
    };
    defineProperty(stub, 'prototype', { value: maker.prototype });
    defineProperty(maker.prototype, 'constructor', { value: stub, writable: true, configurable: true });
  }

  let previous: unknown = {};
  try {
    previous = parse(previousJson);
  } catch {
    // The service sends JSON; anything else leaves `previous` empty.
  }

  // The script's secrets by name, read-only; a name that is not set reads as undefined. The
  // service masks their values in whatever the run says (service/scripts/secret-mask.ts).
  const secrets: Record<string, string> = Object.create(null) as Record<string, string>;
  try {
    const given: unknown = parse(secretsJson);
    if (typeof given === 'object' && given !== null) {
      for (const [name, value] of Object.entries(given)) {
        if (typeof value === 'string') secrets[name] = value;
      }
    }
  } catch {
    // The service sends JSON; anything else leaves `secrets` empty.
  }

  const globals: Record<string, unknown> = {
    Promise: TrackedPromise,
    eval: refuse,
    Function: (Function.prototype as { constructor: unknown }).constructor,
    console: freeze({
      log: logger(''),
      info: logger(''),
      debug: logger(''),
      warn: logger('[warn] '),
      error: logger('[error] '),
    }),
    require,
    setTimeout,
    clearTimeout,
    previous,
    secrets: freeze(secrets),
  };
  for (const name of Object.keys(globals)) {
    defineProperty(G, name, { value: globals[name], writable: true, configurable: true, enumerable: false });
  }

  function start(main: () => unknown): void {
    let result: unknown;
    try {
      result = main();
    } catch (error) {
      host.fail(describe(error));
      return;
    }
    apply(intrinsicThen, IntrinsicPromise.resolve(result), [
      (value: unknown) => {
        if (value === undefined) return host.done(undefined);
        let json: string | undefined;
        try {
          json = stringify(value);
        } catch (error) {
          return host.invalid(`the result cannot be turned into JSON: ${describe(error)}`);
        }
        if (typeof json !== 'string') return host.invalid('the result cannot be turned into JSON');
        host.done(json);
      },
      (error: unknown) => host.fail(describe(error)),
    ]);
  }

  return freeze({ start, unhandled, describe });
}
