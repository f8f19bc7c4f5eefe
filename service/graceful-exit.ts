// How a process that runs the service (or a player beside it) stops on SIGTERM or SIGINT. Kept
// here, the lowest Node layer, so server.ts and the launchers in src/ share one stop path.
import type { FastifyInstance } from 'fastify';
import type { Database } from './db/database';

/** How long a stop may take before the process exits anyway. */
export const FORCE_EXIT_MS = 10_000;

export const STOP_SIGNALS: readonly NodeJS.Signals[] = ['SIGTERM', 'SIGINT'];

/** The parts of `process` the stop uses; tests pass a fake. */
export type SignalProcess = Pick<NodeJS.Process, 'on' | 'off' | 'exit'>;

export interface ExitOnSignalsOptions {
  /** Stops everything; the process exits 0 once it resolves, 1 if it throws. */
  stop(): Promise<void>;
  log: { info(line: string): void; error(line: string): void };
  /** Default FORCE_EXIT_MS. */
  forceAfterMs?: number;
  proc?: SignalProcess;
}

/**
 * On the first SIGTERM or SIGINT runs `stop`, then exits 0. The stop has a deadline: a stop
 * still under way after `forceAfterMs`, or a second signal, ends the process at once with
 * status 1 and a line saying so. Without this an operator's stop that hangs (a peer that never
 * closes its connection) keeps the process alive, and with it the store's lock on its folder.
 * Returns a function that removes the handlers (for tests and for callers that exit themselves).
 */
export function exitOnSignals(options: ExitOnSignalsOptions): () => void {
  const proc = options.proc ?? process;
  const forceAfterMs = options.forceAfterMs ?? FORCE_EXIT_MS;
  const { log } = options;
  let stopping = false;

  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      log.error(`${signal} again: forcing the exit without finishing the stop`);
      proc.exit(1);
      return;
    }
    stopping = true;
    log.info(`${signal}: stopping (a second signal, or ${forceAfterMs / 1000} s, forces the exit)`);
    // Not unref'd: should the stop leave nothing else running, this still ends the process.
    const deadline = setTimeout(() => {
      log.error(`the stop did not finish in ${forceAfterMs / 1000} s: forcing the exit`);
      proc.exit(1);
    }, forceAfterMs);
    options.stop().then(
      () => {
        clearTimeout(deadline);
        proc.exit(0);
      },
      (error: unknown) => {
        clearTimeout(deadline);
        log.error(`the stop failed: ${error instanceof Error ? error.message : String(error)}`);
        proc.exit(1);
      },
    );
  };
  for (const signal of STOP_SIGNALS) proc.on(signal, onSignal);
  return () => {
    for (const signal of STOP_SIGNALS) proc.off(signal, onSignal);
  };
}

/**
 * The service's stop, in order: the app (no new requests, every device socket closed, scripts
 * stopped; app.ts bounds how long requests under way may hold it), then the store, which
 * releases the data folder's lock even when the app's close failed.
 */
export async function stopService(app: FastifyInstance, db: Database): Promise<void> {
  try {
    await app.close();
  } finally {
    await db.close();
  }
}
