import { Script } from 'node:vm';
import { Worker } from 'node:worker_threads';
import { WORKER_SOURCE } from './worker-source';

/** Limits of one run; the defaults are documented in docs/scripts.md. */
export interface SandboxLimits {
  timeoutMs: number;
  /** Old-generation heap of the worker. */
  memoryMb: number;
  logLines: number;
  logLineLength: number;
  /** Library calls (notifications and http together) per run. */
  calls: number;
  /** Largest JSON text of one call's arguments. */
  argsLength: number;
}

export const DEFAULT_LIMITS: Omit<SandboxLimits, 'timeoutMs'> = {
  memoryMb: 64,
  logLines: 100,
  logLineLength: 1000,
  calls: 50,
  argsLength: 64 * 1024,
};

/** A library call of the script, carried out by the main thread. */
export interface LibraryCall {
  library: string;
  method: string;
  /** Decoded arguments; an argument the script left out is `undefined`. */
  args: unknown[];
}

/**
 * Answers a call (any JSON value) or throws an Error whose message the script sees. `signal`
 * aborts when the run ends; `log` adds a line to the run's log.
 */
export type LibraryHandler = (
  call: LibraryCall,
  signal: AbortSignal,
  log: (line: string) => void,
) => Promise<unknown>;

export type SandboxResult =
  /** `result` is the JSON text of what the script returned, or null when it returned nothing. */
  | { outcome: 'ok'; result: string | null; logs: string[] }
  | { outcome: 'error' | 'timeout' | 'invalid'; error: string; logs: string[] };

export interface SandboxRun {
  result: Promise<SandboxResult>;
  /** Stops the run at once (the service is stopping); it ends as an error. */
  abort(): void;
}

/** The script is the body of an async function: `return` and `await` work at its top level. */
export function wrapCode(code: string): string {
  // On the first line, so that line numbers in errors are the script's own.
  return `(async function () {${code}\n})`;
}

/** Why the code does not compile, or null; compiling runs nothing. */
export function syntaxProblem(code: string): string | null {
  try {
    new Script(wrapCode(code), { filename: 'script.js' });
    return null;
  } catch (error) {
    const where = /script\.js:(\d+)/.exec(String((error as Error).stack));
    const message = `${(error as Error).name}: ${(error as Error).message}`;
    return where ? `${message} (line ${where[1]})` : message;
  }
}

type WorkerMessage =
  | { type: 'log'; line: string }
  | { type: 'log-overflow' }
  | { type: 'call'; id: number; library: string; method: string; args: string }
  | { type: 'done'; result: string | null }
  | { type: 'invalid'; error: string }
  | { type: 'failed'; error: string };

function decodeArgs(json: string): unknown[] {
  const parsed: unknown = JSON.parse(json);
  if (!Array.isArray(parsed)) return [];
  return parsed.map((value: unknown) =>
    typeof value === 'object' && value !== null && '$undefined' in value ? undefined : value,
  );
}

function startWorker(code: string, previous: string, limits: SandboxLimits): Worker {
  return new Worker(WORKER_SOURCE, {
    eval: true,
    // Not the parent's flags (tsx and the like); this one lets import() be refused by the context.
    execArgv: ['--experimental-vm-modules', '--no-warnings'],
    argv: [],
    env: {},
    stdout: true,
    stderr: true,
    resourceLimits: {
      maxOldGenerationSizeMb: limits.memoryMb,
      maxYoungGenerationSizeMb: Math.max(4, Math.ceil(limits.memoryMb / 4)),
      stackSizeMb: 4,
    },
    workerData: {
      code: wrapCode(code),
      previous,
      limits: {
        logLines: limits.logLines,
        logLineLength: limits.logLineLength,
        calls: limits.calls,
        argsLength: limits.argsLength,
      },
    },
  });
}

/**
 * Runs `code` in a fresh worker thread (its own heap, an empty environment) inside a `vm`
 * context without Node's globals. The worker is terminated when the script settles, at the
 * deadline, or on `abort`; library calls are answered by `onCall` on this thread.
 */
export function runSandboxed(
  code: string,
  previous: string,
  limits: SandboxLimits,
  onCall: LibraryHandler,
): SandboxRun {
  const logs: string[] = [];
  const calls = new AbortController();
  const inFlight = new Set<Promise<unknown>>();
  let settle: (result: SandboxResult) => void = () => undefined;
  const result = new Promise<SandboxResult>((resolve) => {
    settle = resolve;
  });
  let ended = false;
  let overflow = false;

  let worker: Worker;
  try {
    worker = startWorker(code, previous, limits);
  } catch (error) {
    const failed = `the sandbox could not start: ${(error as Error).message}`;
    return { result: Promise.resolve({ outcome: 'error', error: failed, logs }), abort: () => undefined };
  }
  // Whatever the worker itself might print stays out of the service's output.
  worker.stdout.resume();
  worker.stderr.resume();

  const end = (outcome: SandboxResult) => {
    if (ended) return;
    ended = true;
    clearTimeout(timer);
    calls.abort();
    void worker.terminate();
    // Calls the script made without waiting for them (a notification) still finish.
    void Promise.allSettled([...inFlight]).then(() => {
      if (overflow) logs.push(`… more lines were not kept (at most ${limits.logLines} per run)`);
      settle(outcome);
    });
  };

  const addLog = (line: string) => {
    if (logs.length < limits.logLines) logs.push(line.slice(0, limits.logLineLength));
    else overflow = true;
  };

  const answer = (id: number, call: LibraryCall) => {
    const work = onCall(call, calls.signal, addLog).then(
      (value) => {
        if (!ended) worker.postMessage({ type: 'reply', id, ok: true, json: JSON.stringify(value) });
      },
      (error: unknown) => {
        const message = error instanceof Error ? error.message : String(error);
        if (!ended) worker.postMessage({ type: 'reply', id, ok: false, error: message });
        else if (call.library !== 'http') addLog(`[error] ${message}`);
      },
    );
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work));
  };

  worker.on('message', (message: WorkerMessage) => {
    if (ended) return;
    switch (message.type) {
      case 'log':
        addLog(message.line);
        break;
      case 'log-overflow':
        overflow = true;
        break;
      case 'call': {
        let args: unknown[];
        try {
          args = decodeArgs(message.args);
        } catch {
          args = [];
        }
        answer(message.id, { library: message.library, method: message.method, args });
        break;
      }
      case 'done':
        end({ outcome: 'ok', result: message.result, logs });
        break;
      case 'invalid':
        end({ outcome: 'invalid', error: message.error, logs });
        break;
      case 'failed':
        end({ outcome: 'error', error: message.error, logs });
        break;
    }
  });
  worker.on('error', (error: Error & { code?: string }) => {
    end({
      outcome: 'error',
      error:
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? `the script ran out of memory (at most ${limits.memoryMb} MB)`
          : `the script's worker failed: ${error.message}`,
      logs,
    });
  });
  worker.on('exit', () => end({ outcome: 'error', error: 'the script stopped without an answer', logs }));

  const timer = setTimeout(
    () => end({ outcome: 'timeout', error: `stopped after ${limits.timeoutMs / 1000} s`, logs }),
    limits.timeoutMs,
  );

  return {
    result,
    abort: () => end({ outcome: 'error', error: 'stopped: the service is stopping', logs }),
  };
}
