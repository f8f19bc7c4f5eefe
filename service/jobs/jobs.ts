import type { Cancel, Clock, ServiceLog } from '../context';

/** Work the service does by itself, on a timer, while it runs. */
export interface Job {
  readonly name: string;
  start(): void | Promise<void>;
  /** Resolves once the work under way has finished, so the store can be closed right after. */
  stop(): Promise<void>;
}

/**
 * The service's jobs, started together when the app is ready and stopped together when it
 * closes (app.ts): adding one is a call to `add`.
 */
export class Jobs {
  private readonly all: Job[] = [];
  private stopping: Promise<void> | null = null;

  add<J extends Job>(job: J): J {
    this.all.push(job);
    return job;
  }

  /** Starts every job; after a stop, again (a node that leads again: cluster/leases.ts). */
  async start(): Promise<void> {
    this.stopping = null;
    for (const job of this.all) await job.start();
  }

  /** Stops every job; calling it again waits for the same stop. */
  stop(): Promise<void> {
    this.stopping ??= Promise.all(this.all.map((job) => job.stop())).then(() => undefined);
    return this.stopping;
  }
}

/**
 * A job that runs `pass` every `ms` on the clock, counted from the end of the previous pass, so
 * a pass slower than the period never piles up behind itself. A failed pass is logged and the
 * next one comes all the same.
 */
export function every(
  ctx: { clock: Clock; log: ServiceLog },
  name: string,
  ms: number,
  pass: () => Promise<unknown>,
): Job {
  let cancel: Cancel | null = null;
  let running: Promise<void> | null = null;
  let stopped = false;

  const tick = async () => {
    cancel = null;
    running = pass().then(
      () => undefined,
      (error: unknown) => ctx.log.error({ err: error }, `${name} failed`),
    );
    await running;
    running = null;
    if (!stopped) cancel = ctx.clock.setTimeout(tick, ms);
  };

  return {
    name,
    start() {
      stopped = false;
      cancel = ctx.clock.setTimeout(tick, ms);
    },
    async stop() {
      stopped = true;
      cancel?.();
      cancel = null;
      await running;
    },
  };
}
