// One run of a script in its own QuickJS runtime, inside a host process. QuickJS is a separate
// JavaScript engine compiled to WebAssembly: the script's objects live in the engine's memory,
// and nothing of Node (no object, no function, no error of Node's realm) exists there. What the
// script can reach of the host are the functions below, which take and give strings, numbers and
// functions of the engine only; everything else crosses as JSON text.
import type {
  QuickJSContext,
  QuickJSHandle,
  QuickJSRuntime,
  QuickJSWASMModule,
} from 'quickjs-emscripten-core';
import PRELUDE from 'virtual:wallboard-guest-prelude';
import type { BoundedMemory } from './bounded-memory';
import {
  ENGINE_STACK_BYTES,
  SCRIPT_FILENAME,
  errorLine,
  wrapCode,
  type FromHost,
  type HostRunLimits,
} from './protocol';

const MODULES_REFUSED =
  'scripts cannot import modules; use require("wallboard/http") or require("wallboard/notifications")';

interface GuestFunctions {
  start: QuickJSHandle;
  unhandled: QuickJSHandle;
}

/**
 * Runs `code` once, in `engine`, a module of its own whose whole memory is `memory` (the run's
 * limit: bounded-memory.ts). Everything the run says goes out through `send`; `onEnd` is called once, when
 * it has ended and its engine is freed (`healthy` is false when the engine failed in a way that
 * may have left the host's state damaged: the host should then exit rather than run again).
 */
export class EngineRun {
  private readonly runtime: QuickJSRuntime;
  private readonly vm: QuickJSContext;
  private guest: GuestFunctions | null = null;
  private finished = false;
  private healthy = true;
  private logLines = 0;
  private calls = 0;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: QuickJSHandle; reject: QuickJSHandle }>();
  private readonly timers = new Map<number, { timer: NodeJS.Timeout; callback: QuickJSHandle }>();

  constructor(
    engine: QuickJSWASMModule,
    private readonly memory: BoundedMemory,
    private readonly limits: HostRunLimits,
    private readonly send: (message: FromHost) => void,
    private readonly onEnd: (healthy: boolean) => void,
  ) {
    this.runtime = engine.newRuntime();
    this.runtime.setMaxStackSize(ENGINE_STACK_BYTES);
    this.runtime.setModuleLoader(() => ({ error: new Error(MODULES_REFUSED) }));
    this.vm = this.runtime.newContext();
  }

  start(code: string, previous: string, secrets: string): void {
    this.enter(() => {
      this.guest = this.installPrelude(previous, secrets);
      const compiled = this.vm.evalCode(wrapCode(code), SCRIPT_FILENAME);
      if (compiled.error) {
        const message = this.errorText(compiled.error);
        compiled.error.dispose();
        return this.finish({ type: 'failed', error: message });
      }
      this.callGuest(this.guest.start, compiled.value);
      compiled.value.dispose();
    });
  }

  /** The service's answer to a library call. */
  reply(id: number, answer: { ok: true; json: string } | { ok: false; error: string }): void {
    const entry = this.pending.get(id);
    if (!entry) return;
    this.pending.delete(id);
    this.enter(() => {
      const value = this.vm.newString(answer.ok ? answer.json : answer.error);
      this.callGuest(answer.ok ? entry.resolve : entry.reject, value);
      value.dispose();
    });
    entry.resolve.dispose();
    entry.reject.dispose();
  }

  /** Calls into the engine, then runs its promise jobs and reports an unhandled rejection. */
  private enter(work: () => void): void {
    if (this.finished) return;
    try {
      work();
      while (!this.finished && this.runtime.hasPendingJob()) {
        const jobs = this.runtime.executePendingJobs();
        if (jobs.error) jobs.error.dispose();
      }
      // A script that caught its out-of-memory error still ends as out of memory.
      if (this.memory.settle()) return this.finish({ type: 'failed', error: this.outOfMemory() });
      if (!this.finished && this.guest) {
        const unhandled = this.guestText(this.guest.unhandled);
        if (unhandled) {
          this.finish({
            type: 'failed',
            error: `a promise was rejected and nothing handled it: ${unhandled}`,
          });
        }
      }
    } catch (error) {
      // Node's own stack or the engine's memory gave out under the script: the engine may be in
      // any state, so this host takes no further run.
      this.healthy = false;
      this.finish({ type: 'failed', error: this.engineFailure(error) });
    }
  }

  private callGuest(fn: QuickJSHandle, ...args: QuickJSHandle[]): void {
    const result = this.vm.callFunction(fn, this.vm.undefined, ...args);
    if (result.error) {
      // The prelude's functions catch what the script throws; this is the engine giving out.
      const message = this.describeHandle(result.error);
      result.error.dispose();
      this.finish({ type: 'failed', error: this.memoryMessage(message) });
    } else {
      result.value.dispose();
    }
  }

  private guestText(fn: QuickJSHandle): string {
    const result = this.vm.callFunction(fn, this.vm.undefined);
    if (result.error) {
      result.error.dispose();
      return '';
    }
    const text = this.vm.typeof(result.value) === 'string' ? this.vm.getString(result.value) : '';
    result.value.dispose();
    return text;
  }

  private installPrelude(previous: string, secrets: string): GuestFunctions {
    const vm = this.vm;
    const exported = vm.unwrapResult(vm.evalCode(PRELUDE, 'wallboard-prelude.js'));
    const install = vm.getProp(exported, 'install');
    exported.dispose();
    const host = this.hostObject();
    const previousHandle = vm.newString(previous);
    const secretsHandle = vm.newString(secrets);
    const guest = vm.unwrapResult(
      vm.callFunction(install, vm.undefined, host, previousHandle, secretsHandle),
    );
    for (const handle of [install, host, previousHandle, secretsHandle]) handle.dispose();
    const functions = { start: vm.getProp(guest, 'start'), unhandled: vm.getProp(guest, 'unhandled') };
    guest.dispose();
    return functions;
  }

  /** The host functions of the prelude (see guest/prelude.ts for what each does). */
  private hostObject(): QuickJSHandle {
    const vm = this.vm;
    const text = (handle: QuickJSHandle | undefined): string | null =>
      handle && vm.typeof(handle) === 'string' ? vm.getString(handle) : null;
    const number = (handle: QuickJSHandle | undefined): number | null =>
      handle && vm.typeof(handle) === 'number' ? vm.getNumber(handle) : null;
    const isFunction = (handle: QuickJSHandle | undefined): handle is QuickJSHandle =>
      handle !== undefined && vm.typeof(handle) === 'function';

    const functions: Record<string, (...args: QuickJSHandle[]) => QuickJSHandle | undefined> = {
      log: (line) => {
        const value = text(line);
        if (value !== null) this.log(value);
        return undefined;
      },
      call: (library, method, json, resolve, reject) =>
        vm.newString(this.call(text(library), text(method), text(json), resolve, reject, isFunction)),
      setTimer: (callback, ms) => {
        if (!isFunction(callback)) return vm.newNumber(0);
        return vm.newNumber(this.setTimer(callback.dup(), number(ms) ?? 0));
      },
      clearTimer: (id) => {
        this.clearTimer(number(id) ?? 0);
        return undefined;
      },
      done: (json) => {
        if (this.memory.settle()) this.finish({ type: 'failed', error: this.outOfMemory() });
        else this.finish({ type: 'done', result: text(json) });
        return undefined;
      },
      invalid: (message) => {
        this.finish({ type: 'invalid', error: text(message) || 'the result cannot be turned into JSON' });
        return undefined;
      },
      fail: (message) => {
        this.finish({ type: 'failed', error: this.memoryMessage(text(message) || 'the script failed') });
        return undefined;
      },
    };
    const host = vm.newObject();
    for (const [name, implementation] of Object.entries(functions)) {
      const fn = vm.newFunction(name, (...args) => {
        // The engine hands control to the host here: an allocation refused before it failed.
        this.memory.settle();
        // A host error must not reach the script as an object of Node's realm (its constructor
        // would lead to Node's Function): anything thrown here is dropped.
        try {
          return implementation(...args);
        } catch {
          return undefined;
        }
      });
      vm.setProp(host, name, fn);
      fn.dispose();
    }
    return host;
  }

  private log(line: string): void {
    if (this.finished) return;
    this.logLines += 1;
    if (this.logLines <= this.limits.logLines) {
      this.send({ type: 'log', line: line.slice(0, this.limits.logLineLength) });
    } else if (this.logLines === this.limits.logLines + 1) {
      this.send({ type: 'log-overflow' });
    }
  }

  private call(
    library: string | null,
    method: string | null,
    args: string | null,
    resolve: QuickJSHandle | undefined,
    reject: QuickJSHandle | undefined,
    isFunction: (handle: QuickJSHandle | undefined) => handle is QuickJSHandle,
  ): string {
    if (library === null || method === null || args === null || !isFunction(resolve) || !isFunction(reject)) {
      return 'the call cannot be sent';
    }
    if (this.finished) return 'the script has finished';
    if (args.length > this.limits.argsLength) return 'the arguments are too large';
    this.calls += 1;
    if (this.calls > this.limits.calls)
      return `too many library calls in one run (at most ${this.limits.calls})`;
    const id = this.nextId++;
    this.pending.set(id, { resolve: resolve.dup(), reject: reject.dup() });
    this.send({ type: 'call', id, library, method, args });
    return '';
  }

  private setTimer(callback: QuickJSHandle, ms: number): number {
    const id = this.nextId++;
    const delay = Math.min(Math.max(ms, 0), 2_147_483_647);
    const timer = setTimeout(() => {
      this.timers.delete(id);
      this.enter(() => this.callGuest(callback));
      callback.dispose();
    }, delay);
    this.timers.set(id, { timer, callback });
    return id;
  }

  private clearTimer(id: number): void {
    const entry = this.timers.get(id);
    if (!entry) return;
    clearTimeout(entry.timer);
    entry.callback.dispose();
    this.timers.delete(id);
  }

  private finish(message: FromHost): void {
    if (this.finished) return;
    this.finished = true;
    this.send(message);
    // Freed once the engine has returned to the host: this may be called from inside it.
    setImmediate(() => this.dispose());
  }

  private dispose(): void {
    for (const id of [...this.timers.keys()]) this.clearTimer(id);
    for (const entry of this.pending.values()) {
      entry.resolve.dispose();
      entry.reject.dispose();
    }
    this.pending.clear();
    try {
      this.guest?.start.dispose();
      this.guest?.unhandled.dispose();
      this.vm.dispose();
      this.runtime.dispose();
    } catch {
      // An engine that cannot be freed cleanly (out of memory midway) is left to the host's exit.
      this.healthy = false;
    }
    this.onEnd(this.healthy);
  }

  private errorText(error: QuickJSHandle): string {
    const vm = this.vm;
    const part = (name: string) => {
      const handle = vm.getProp(error, name);
      const value = vm.typeof(handle) === 'string' ? vm.getString(handle) : '';
      handle.dispose();
      return value;
    };
    return errorLine(part('name') || 'SyntaxError', part('message'), part('stack'));
  }

  private describeHandle(error: QuickJSHandle): string {
    try {
      return this.errorText(error);
    } catch {
      return 'the script failed';
    }
  }

  private outOfMemory(): string {
    return `the script ran out of memory (at most ${this.limits.memoryMb} MB)`;
  }

  /** The engine's "out of memory" error, in the service's words. */
  private memoryMessage(message: string): string {
    return /^InternalError: out of memory/.test(message) ? this.outOfMemory() : message;
  }

  private engineFailure(error: unknown): string {
    if (error instanceof RangeError) return 'the script ran out of stack';
    return `the script's engine failed: ${error instanceof Error ? error.message : String(error)}`;
  }
}
