import type { Clock, Logger, TimerHandle } from '../agent/ports';

/** How one run of the kiosk browser ended. */
export interface KioskExit {
  code: number | null;
  signal: string | null;
  /** It could not be started at all (spawn's error). */
  error?: string;
}

/** One run of the kiosk browser. */
export interface KioskRun {
  exited: Promise<KioskExit>;
  stop(): Promise<void>;
}

/** How often the browser may be restarted, and how long each restart waits. */
export interface KioskBudget {
  /** Restarts allowed within `windowMs`; one exit more and the launcher gives up. */
  restarts: number;
  windowMs: number;
  /** The first restart waits this long, each further one within the window twice as long... */
  firstDelayMs: number;
  /** ...up to this. */
  maxDelayMs: number;
}

export const KIOSK_BUDGET: KioskBudget = {
  restarts: 5,
  windowMs: 10 * 60 * 1000,
  firstDelayMs: 1000,
  maxDelayMs: 30_000,
};

/** The launcher's exit status once the budget is spent: a failure, which systemd's `Restart=on-failure` restarts. */
export const KIOSK_GAVE_UP_STATUS = 1;

export interface HealingKiosk {
  /** Resolves, with why, once the browser ended more often than the budget allows. */
  gaveUp: Promise<string>;
  stop(): Promise<void>;
}

export interface HealingOptions {
  /** Starts one run of the browser. */
  open(): Promise<KioskRun>;
  clock: Clock;
  log: Logger;
  /** Told of each restart once the new browser runs: the agent reports it in its next heartbeat. */
  recovered(what: string): void;
  budget?: KioskBudget;
}

function describeExit(exit: KioskExit): string {
  if (exit.error !== undefined) return `could not be started (${exit.error})`;
  if (exit.signal) return `was killed by ${exit.signal}`;
  return `exited with status ${exit.code ?? 'unknown'}`;
}

/**
 * Keeps the kiosk browser on screen: when it exits or crashes (whatever the reason: a kiosk has
 * nobody to start it again), it is started again after a delay that doubles with each restart
 * within the budget's window. One exit more than the budget allows within the window means
 * something is wrong that restarting will not fix: `gaveUp` resolves, and the launcher exits
 * with a failure status for its supervisor (systemd) to act on.
 */
export async function healingKiosk(options: HealingOptions): Promise<HealingKiosk> {
  const { clock, log, recovered } = options;
  const budget = options.budget ?? KIOSK_BUDGET;
  const restarts: number[] = [];
  let stopping = false;
  let timer: TimerHandle | null = null;
  /** A restart under way: stopping waits for it, so no browser is left behind. */
  let restarting: Promise<void> = Promise.resolve();
  let giveUp: (reason: string) => void = () => undefined;
  const gaveUp = new Promise<string>((resolve) => (giveUp = resolve));

  const ended = (exit: KioskExit): void => {
    const now = clock.now();
    while (restarts.length > 0 && now - (restarts[0] ?? now) > budget.windowMs) restarts.shift();
    const how = describeExit(exit);
    if (restarts.length >= budget.restarts) {
      const reason = `the kiosk browser ${how}, after ${restarts.length} restarts within ${budget.windowMs / 60_000} minutes: giving up`;
      log.error(reason);
      giveUp(reason);
      return;
    }
    const delay = Math.min(budget.firstDelayMs * 2 ** restarts.length, budget.maxDelayMs);
    log.warn(`the kiosk browser ${how}; starting it again in ${delay / 1000} s`);
    timer = clock.setTimeout(() => {
      timer = null;
      restarting = restart(how);
    }, delay);
  };

  const watch = (current: KioskRun): void => {
    void current.exited.then((exit) => {
      if (!stopping && current === run) ended(exit);
    });
  };

  const restart = async (how: string): Promise<void> => {
    if (stopping) return;
    restarts.push(clock.now());
    let next: KioskRun;
    try {
      next = await options.open();
    } catch (error) {
      ended({ code: null, signal: null, error: (error as Error).message });
      return;
    }
    run = next;
    if (stopping) {
      await next.stop();
      return;
    }
    recovered(`kiosk browser restarted after it ${how}`);
    watch(next);
  };

  let run = await options.open();
  watch(run);
  return {
    gaveUp,
    async stop() {
      stopping = true;
      timer?.cancel();
      await restarting;
      await run.stop();
    },
  };
}
