/**
 * The code of a sandbox worker, as text: it is started with `new Worker(code, {eval: true})`, so
 * it runs the same under tsx, vitest and a bundle, with no loader and no file to find.
 *
 * Two layers: the worker (its own thread and heap, no environment, terminated from outside at the
 * deadline) and, inside it, a `vm` context that has only the ECMAScript built-ins plus what the
 * bootstrap below defines. Nothing made in the worker's own realm may reach the script: an object
 * of that realm leads to its `Function`, which can compile code that sees `process`. So the host
 * functions handed to the bootstrap take and give only primitives (and call back functions of the
 * context), never throw, and are kept in the bootstrap's closure; results cross as JSON text; the
 * worker's code is strict, so `fn.caller` never reveals a host frame.
 */

/** Runs inside the script's context, before the script; its closure holds the host functions. */
const BOOTSTRAP = String.raw`(function (host, previousJson) {
  'use strict';
  const G = globalThis;
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const PromiseCtor = Promise;
  const ErrorCtor = Error;
  const TypeErrorCtor = TypeError;
  const StringCtor = String;
  const freeze = Object.freeze;
  const defineProperty = Object.defineProperty;
  const hasOwn = Object.prototype.hasOwnProperty;
  const slice = Array.prototype.slice;
  const apply = Reflect.apply;
  const LINE = /script\.js:(\d+)/;

  function show(value) {
    if (typeof value === 'string') return value;
    if (value instanceof ErrorCtor) return describe(value);
    try {
      const json = stringify(value);
      if (typeof json === 'string') return json;
    } catch (_) {}
    try {
      return StringCtor(value);
    } catch (_) {
      return '[unprintable]';
    }
  }

  function describe(error) {
    try {
      if (error instanceof ErrorCtor) {
        const where = LINE.exec(StringCtor(error.stack));
        const text = StringCtor(error.name) + ': ' + StringCtor(error.message);
        return where ? text + ' (line ' + where[1] + ')' : text;
      }
      return 'the script threw a value that is not an Error: ' + show(error);
    } catch (_) {
      return 'the script threw something that cannot be described';
    }
  }

  function logger(prefix) {
    return function () {
      let line = prefix;
      for (let i = 0; i < arguments.length; i += 1) line += (i > 0 ? ' ' : '') + show(arguments[i]);
      host.log(line);
    };
  }

  function invoke(library, method, args) {
    return new PromiseCtor(function (resolve, reject) {
      let json;
      try {
        const list = [];
        for (let i = 0; i < args.length; i += 1) list[i] = args[i] === undefined ? { $undefined: true } : args[i];
        json = stringify(list);
      } catch (error) {
        reject(new ErrorCtor(library + '.' + method + ': the arguments cannot be sent: ' + describe(error)));
        return;
      }
      const problem = host.call(
        library,
        method,
        json,
        function (answer) {
          if (typeof answer !== 'string') return resolve(undefined);
          try {
            resolve(parse(answer));
          } catch (error) {
            reject(error);
          }
        },
        function (message) {
          reject(new ErrorCtor(message));
        },
      );
      if (problem) reject(new ErrorCtor(library + '.' + method + ': ' + problem));
    });
  }

  const libraries = {
    'wallboard/notifications': freeze({
      post: function post(channel, flow, title, message, duration, icon, sound) {
        return invoke('notifications', 'post', [channel, flow, title, message, duration, icon, sound]);
      },
    }),
    'wallboard/http': freeze({
      get: function get(url, options) {
        return invoke('http', 'get', [url, options]);
      },
      getJson: function getJson(url, options) {
        return invoke('http', 'getJson', [url, options]);
      },
    }),
  };

  function require(name) {
    if (typeof name === 'string' && apply(hasOwn, libraries, [name])) return libraries[name];
    throw new ErrorCtor(
      'cannot require ' + (typeof name === 'string' ? stringify(name) : show(name)) + ': scripts may only require "wallboard/notifications" and "wallboard/http"',
    );
  }

  function setTimeout(callback, ms) {
    if (typeof callback !== 'function') throw new TypeErrorCtor('setTimeout needs a function');
    const extra = apply(slice, arguments, [2]);
    let delay = 0;
    try {
      delay = +ms;
    } catch (_) {}
    return host.setTimer(function () {
      try {
        apply(callback, undefined, extra);
      } catch (error) {
        host.fail(describe(error));
      }
    }, delay === delay ? delay : 0);
  }

  function clearTimeout(id) {
    if (typeof id === 'number') host.clearTimer(id);
  }

  let previous = {};
  try {
    previous = parse(previousJson);
  } catch (_) {}

  const globals = {
    console: freeze({
      log: logger(''),
      info: logger(''),
      debug: logger(''),
      warn: logger('[warn] '),
      error: logger('[error] '),
    }),
    require: require,
    setTimeout: setTimeout,
    clearTimeout: clearTimeout,
    previous: previous,
  };
  for (const name in globals) {
    defineProperty(G, name, { value: globals[name], writable: true, configurable: true, enumerable: false });
  }

  function start(main) {
    let promise;
    try {
      promise = main();
    } catch (error) {
      host.fail(describe(error));
      return;
    }
    PromiseCtor.resolve(promise).then(
      function (value) {
        if (value === undefined) return host.done(undefined);
        let json;
        try {
          json = stringify(value);
        } catch (error) {
          return host.invalid('the result cannot be turned into JSON: ' + describe(error));
        }
        if (typeof json !== 'string') return host.invalid('the result cannot be turned into JSON');
        host.done(json);
      },
      function (error) {
        host.fail(describe(error));
      },
    );
  }

  return freeze({ start: start, describe: describe });
})`;

/** The worker: builds the context, runs the script, relays library calls to the main thread. */
export const WORKER_SOURCE = String.raw`'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const vm = require('node:vm');

const BOOTSTRAP = ${JSON.stringify(BOOTSTRAP)};
const limits = workerData.limits;
let finished = false;
let logLines = 0;
let calls = 0;
let nextId = 1;
const pending = new Map();
const timers = new Map();

function send(message) {
  if (!finished) parentPort.postMessage(message);
}

function finish(message) {
  if (finished) return;
  parentPort.postMessage(message);
  finished = true;
  for (const handle of timers.values()) clearTimeout(handle);
  timers.clear();
}

const text = (value, fallback) => (typeof value === 'string' && value ? value : fallback);

const host = {
  log(line) {
    if (typeof line !== 'string' || finished) return;
    logLines += 1;
    if (logLines <= limits.logLines) send({ type: 'log', line: line.slice(0, limits.logLineLength) });
    else if (logLines === limits.logLines + 1) send({ type: 'log-overflow' });
  },
  call(library, method, args, resolve, reject) {
    if (typeof library !== 'string' || typeof method !== 'string' || typeof args !== 'string') {
      return 'the call cannot be sent';
    }
    if (finished) return 'the script has finished';
    if (args.length > limits.argsLength) return 'the arguments are too large';
    calls += 1;
    if (calls > limits.calls) return 'too many library calls in one run (at most ' + limits.calls + ')';
    const id = nextId++;
    pending.set(id, { resolve, reject });
    send({ type: 'call', id, library, method, args });
    return '';
  },
  setTimer(callback, ms) {
    const id = nextId++;
    const delay = typeof ms === 'number' ? Math.min(Math.max(ms, 0), 2147483647) : 0;
    timers.set(
      id,
      setTimeout(() => {
        timers.delete(id);
        if (!finished) callback();
      }, delay),
    );
    return id;
  },
  clearTimer(id) {
    const handle = timers.get(id);
    if (handle === undefined) return;
    clearTimeout(handle);
    timers.delete(id);
  },
  done(json) {
    finish({ type: 'done', result: typeof json === 'string' ? json : null });
  },
  invalid(message) {
    finish({ type: 'invalid', error: text(message, 'the result cannot be turned into JSON') });
  },
  fail(message) {
    finish({ type: 'failed', error: text(message, 'the script failed') });
  },
};

parentPort.on('message', (message) => {
  if (!message || message.type !== 'reply') return;
  const entry = pending.get(message.id);
  if (!entry) return;
  pending.delete(message.id);
  try {
    if (message.ok) entry.resolve(typeof message.json === 'string' ? message.json : undefined);
    else entry.reject(text(message.error, 'the library call failed'));
  } catch (_) {}
});

function compileError(error) {
  const where = /script\.js:(\d+)/.exec(String(error && error.stack));
  const description = String(error && error.name) + ': ' + String(error && error.message);
  return where ? description + ' (line ' + where[1] + ')' : description;
}

const context = vm.createContext(Object.create(null), {
  name: 'wallboard script',
  codeGeneration: { strings: false, wasm: false },
});
const makeError = vm.runInContext('(function (message) { return new Error(message); })', context);
let script = null;
try {
  script = new vm.Script(workerData.code, {
    filename: 'script.js',
    // import() would otherwise reject with an error of this realm (see above).
    importModuleDynamically: () => {
      throw makeError('scripts cannot import modules; use require("wallboard/http") or require("wallboard/notifications")');
    },
  });
} catch (error) {
  finish({ type: 'failed', error: compileError(error) });
}
if (script) {
  const sandbox = vm.runInContext(BOOTSTRAP, context, { filename: 'wallboard-bootstrap.js' })(
    host,
    workerData.previous,
  );
  const start = sandbox.start;
  const describe = sandbox.describe;
  process.on('unhandledRejection', (reason) => {
    let description = '';
    try {
      description = describe(reason);
    } catch (_) {}
    finish({
      type: 'failed',
      error: 'a promise was rejected and nothing handled it: ' + text(description, 'no description'),
    });
  });
  process.on('uncaughtException', () => finish({ type: 'failed', error: 'the script failed outside its code' }));
  let main = null;
  try {
    main = script.runInContext(context);
  } catch (error) {
    let description = '';
    try {
      description = describe(error);
    } catch (_) {}
    finish({ type: 'failed', error: text(description, 'the script failed') });
  }
  if (!finished) start(main);
}
`;
