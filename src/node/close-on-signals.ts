// How a process in plain Node (the service, the web player, `npm start`) stops: close-with-grace,
// the helper of Fastify's authors, rather than signal handlers of our own.
import closeWithGrace from 'close-with-grace';

export interface StopLog {
  info(line: string): void;
  error(line: string): void;
}

/** How long a stop may take before the process exits anyway. */
export const FORCE_EXIT_MS = 10_000;

/**
 * On SIGTERM, SIGINT (and the other stop signals), an uncaught exception or an unhandled
 * rejection: runs `stop`, then exits, 0 after a signal and 1 after an error. A second signal, or
 * a stop still under way after FORCE_EXIT_MS, exits 1 at once, so a stop that hangs (a peer that
 * never closes its connection) cannot keep the process, and its locks, alive.
 */
export function closeOnSignals(stop: () => Promise<void>, log: StopLog, forceAfterMs = FORCE_EXIT_MS): void {
  closeWithGrace(
    {
      delay: forceAfterMs,
      logger: { error: (message: unknown) => log.error(String(message)) },
      onSecondSignal: (signal) => log.error(`${signal} again: forcing the exit without finishing the stop`),
      onTimeout: (delay) => log.error(`the stop did not finish in ${delay / 1000} s: forcing the exit`),
    },
    async ({ signal, err }) => {
      if (err) log.error(`stopping after an uncaught error: ${err.stack ?? err.message}`);
      else
        log.info(
          `${signal ?? 'nothing left to do'}: stopping (a second signal, or ${forceAfterMs / 1000} s, forces the exit)`,
        );
      await stop();
    },
  );
}
