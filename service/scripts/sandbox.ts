import { z } from 'zod';
import { HostPool, type HostPoolOptions, type ScriptHost } from './host-pool';
import { DEFAULT_MEMORY_MB, type FromHost, type ToHost } from './host/protocol';
import { SecretMask } from './secret-mask';

/** Limits of one run; the defaults are documented in docs/scripts.md. */
export interface SandboxLimits {
  timeoutMs: number;
  /** Memory of the run's engine: its heap and everything it allocates. */
  memoryMb: number;
  logLines: number;
  logLineLength: number;
  /** Library calls (notifications and http together) per run. */
  calls: number;
  /** Largest JSON text of one call's arguments. */
  argsLength: number;
}

export const DEFAULT_LIMITS: Omit<SandboxLimits, 'timeoutMs'> = {
  memoryMb: DEFAULT_MEMORY_MB,
  logLines: 100,
  logLineLength: 1000,
  calls: 50,
  argsLength: 64 * 1024,
};

/** A library call of the script, carried out by the service. */
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

/** The script's secrets for one run, and the mask of their values. */
export interface RunSecrets {
  values: Readonly<Record<string, string>>;
  mask: SecretMask;
}

const NO_SECRETS: RunSecrets = { values: {}, mask: new SecretMask([]) };

/** The outcome with the run's secret values masked in its error and in every string of its result. */
function masked(outcome: SandboxResult, mask: SecretMask): SandboxResult {
  if (mask.empty) return outcome;
  if (outcome.outcome !== 'ok') return { ...outcome, error: mask.text(outcome.error) };
  if (outcome.result === null) return outcome;
  try {
    return { ...outcome, result: JSON.stringify(mask.json(JSON.parse(outcome.result))) };
  } catch {
    // Not JSON (a broken host): masked as text all the same.
    return { ...outcome, result: mask.text(outcome.result) };
  }
}

export interface SandboxRun {
  result: Promise<SandboxResult>;
  /** Stops the run at once (the service is stopping); it ends as an error. */
  abort(): void;
}

const MESSAGE_LIMIT = 1024 * 1024;
/** How often a running host's resident memory is read. */
const MEMORY_WATCH_MS = 250;
const text = z.string().max(MESSAGE_LIMIT);
/** What a host may say; anything else ends the run and the host. */
const fromHostSchema: z.ZodType<FromHost> = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('log'), line: text }),
  z.object({ type: z.literal('log-overflow') }),
  z.object({
    type: z.literal('call'),
    id: z.number().int().positive(),
    library: z.string().max(100),
    method: z.string().max(100),
    args: text,
  }),
  z.object({ type: z.literal('done'), result: text.nullable() }),
  z.object({ type: z.literal('invalid'), error: text }),
  z.object({ type: z.literal('failed'), error: text }),
]);

function decodeArgs(json: string): unknown[] {
  const parsed: unknown = JSON.parse(json);
  if (!Array.isArray(parsed)) return [];
  return parsed.map((value: unknown) =>
    typeof value === 'object' && value !== null && '$undefined' in value ? undefined : value,
  );
}

/**
 * Runs scripts in host processes (host-pool.ts), each run in a fresh QuickJS engine. The service
 * keeps the deadline (the host is killed at it), counts what the host reports against the limits
 * again, and carries out the library calls.
 */
export class ScriptSandbox {
  private readonly pool: HostPool;

  constructor(options: Partial<HostPoolOptions> = {}) {
    this.pool = new HostPool(options);
  }

  /**
   * Runs `code` with `secrets` as its `secrets` global; their values are masked in everything
   * the run gives back: its log lines, its error and its result.
   */
  run(
    code: string,
    previous: string,
    limits: SandboxLimits,
    onCall: LibraryHandler,
    secrets: RunSecrets = NO_SECRETS,
  ): SandboxRun {
    const { mask } = secrets;
    const logs: string[] = [];
    const calls = new AbortController();
    const inFlight = new Set<Promise<unknown>>();
    let settle: (result: SandboxResult) => void = () => undefined;
    const result = new Promise<SandboxResult>((resolve) => {
      settle = resolve;
    });
    let ended = false;
    let overflow = false;
    let callCount = 0;
    let host: ScriptHost | null = null;

    const end = (outcome: SandboxResult, reusable = false) => {
      if (ended) return;
      ended = true;
      clearTimeout(timer);
      clearInterval(watch);
      calls.abort();
      if (host) {
        host.child.off('message', onMessage);
        host.child.off('exit', onExit);
        if (reusable) this.pool.release(host);
        else this.pool.discard(host);
      }
      // Calls the script made without waiting for them (a notification) still finish.
      void Promise.allSettled([...inFlight]).then(() => {
        if (overflow) logs.push(`… more lines were not kept (at most ${limits.logLines} per run)`);
        settle(masked(outcome, mask));
      });
    };

    const addLog = (line: string) => {
      // Masked before it is cut, and with what its host may have cut off a value at its end.
      if (logs.length < limits.logLines) {
        logs.push(mask.line(line, limits.logLineLength).slice(0, limits.logLineLength));
      } else overflow = true;
    };

    const post = (message: ToHost) => {
      if (!ended && host?.alive) host.child.send(message);
    };

    const answer = (id: number, call: LibraryCall) => {
      const work = onCall(call, calls.signal, addLog).then(
        (value) => post({ type: 'reply', id, ok: true, json: JSON.stringify(value) ?? 'null' }),
        (error: unknown) => {
          const message = error instanceof Error ? error.message : String(error);
          if (!ended) post({ type: 'reply', id, ok: false, error: message });
          else if (call.library !== 'http') addLog(`[error] ${message}`);
        },
      );
      inFlight.add(work);
      void work.finally(() => inFlight.delete(work));
    };

    const breach = (what: string) =>
      end({ outcome: 'error', error: `the script's sandbox broke its protocol: ${what}`, logs });

    const onMessage = (raw: unknown) => {
      if (ended) return;
      const parsed = fromHostSchema.safeParse(raw);
      if (!parsed.success) return breach('a message of unknown form');
      const message = parsed.data;
      switch (message.type) {
        case 'ready':
          return;
        case 'log':
          return addLog(message.line);
        case 'log-overflow':
          overflow = true;
          return;
        case 'call': {
          callCount += 1;
          if (callCount > limits.calls || message.args.length > limits.argsLength) {
            return breach('more library calls than its limits allow');
          }
          let args: unknown[];
          try {
            args = decodeArgs(message.args);
          } catch {
            args = [];
          }
          return answer(message.id, { library: message.library, method: message.method, args });
        }
        case 'done':
          return end({ outcome: 'ok', result: message.result, logs }, true);
        case 'invalid':
          return end({ outcome: 'invalid', error: message.error, logs }, true);
        case 'failed':
          return end({ outcome: 'error', error: message.error, logs }, true);
      }
    };

    const onExit = () => end({ outcome: 'error', error: 'the script stopped without an answer', logs });

    const timer = setTimeout(
      () => end({ outcome: 'timeout', error: `stopped after ${limits.timeoutMs / 1000} s`, logs }),
      limits.timeoutMs,
    );

    // The engine's memory is bounded inside the host; this is the bound measured from outside, as
    // the kernel counts the host's memory, should anything in the host outgrow it.
    const ceiling = this.pool.runningCeilingBytes(limits.memoryMb);
    let watch: NodeJS.Timeout | undefined;
    const watchMemory = (watched: ScriptHost) => {
      watch = setInterval(() => {
        void watched.residentBytes().then((resident) => {
          if (resident !== null && resident > ceiling) {
            end({
              outcome: 'error',
              error: `the script ran out of memory (its host held ${Math.round(resident / 1048576)} MB)`,
              logs,
            });
          }
        });
      }, MEMORY_WATCH_MS);
      watch.unref();
    };

    this.pool.acquire().then(
      (acquired) => {
        if (ended) return this.pool.release(acquired);
        host = acquired;
        watchMemory(acquired);
        acquired.child.on('message', onMessage);
        acquired.child.on('exit', onExit);
        const { memoryMb, logLines, logLineLength, calls: callLimit, argsLength } = limits;
        post({
          type: 'run',
          code,
          previous,
          secrets: JSON.stringify(secrets.values),
          limits: { memoryMb, logLines, logLineLength, calls: callLimit, argsLength },
        });
      },
      (error: unknown) =>
        end({
          outcome: 'error',
          error: `the sandbox could not start: ${error instanceof Error ? error.message : String(error)}`,
          logs,
        }),
    );

    return {
      result,
      abort: () => end({ outcome: 'error', error: 'stopped: the service is stopping', logs }),
    };
  }

  /** Stops the idle hosts; runs under way end on their own (or by `abort`). */
  close(): void {
    this.pool.close();
  }
}
