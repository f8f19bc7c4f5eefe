// The messages between the service and a script host process (service/scripts/host/main.ts).
// Only plain JSON data crosses. The service validates every message of a host (a host that a
// script escaped into is not to be trusted); the schema lives on the service's side, so that the
// host's bundle holds no validation library.

/** A run's memory unless the service says otherwise: its engine's whole WebAssembly memory. */
export const DEFAULT_MEMORY_MB = 64;

/** What one run may use, as the host enforces it (the service checks again on its side). */
export interface HostRunLimits {
  /** The run's engine's whole memory: its heap, its stack and all it allocates (ArrayBuffers too). */
  memoryMb: number;
  logLines: number;
  logLineLength: number;
  calls: number;
  argsLength: number;
}

export type ToHost =
  /** `secrets`: the JSON text of the script's secrets by name, for this run only. */
  | { type: 'run'; code: string; previous: string; secrets: string; limits: HostRunLimits }
  | { type: 'reply'; id: number; ok: true; json: string }
  | { type: 'reply'; id: number; ok: false; error: string };

export type FromHost =
  | { type: 'ready' }
  | { type: 'log'; line: string }
  | { type: 'log-overflow' }
  | { type: 'call'; id: number; library: string; method: string; args: string }
  /** `result` is the JSON text of what the script returned, or null when it returned nothing. */
  | { type: 'done'; result: string | null }
  | { type: 'invalid'; error: string }
  | { type: 'failed'; error: string };

/**
 * The engine's own stack limit. Its frames also run on Node's native stack, which the host is
 * started with room for (`--stack-size`), so that a deep recursion ends as the script's own
 * "stack overflow" error before Node's stack runs out.
 */
export const ENGINE_STACK_BYTES = 1024 * 1024;

/** The script's file name in errors: the host and the syntax check show lines of it. */
export const SCRIPT_FILENAME = 'script.js';

/** The script is the body of an async function: `return` and `await` work at its top level. */
export function wrapCode(code: string): string {
  // On the first line, so that line numbers in errors are the script's own.
  return `(async function () {${code}\n})`;
}

/** `Name: message (line N)` from an error's name, message and stack, as scripts see them. */
export function errorLine(name: unknown, message: unknown, stack: unknown): string {
  const where = /script\.js:(\d+)/.exec(String(stack));
  const description = `${String(name)}: ${String(message)}`;
  return where ? `${description} (line ${where[1]})` : description;
}
