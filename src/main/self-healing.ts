import type { Clock, Logger, TimerHandle } from '../agent/ports';

/** What the self-healing does to the app; the shell wires them to Electron (see shell.ts). */
export interface HealingActions {
  /** Reloads the page in a (new) renderer. */
  reload(): void;
  /** Kills a hung renderer; its render-process-gone follows and reloads it. */
  crashRenderer(): void;
  /** Ends this process and starts a new one; `extraArgs` are added to its command line. */
  restartApp(reason: string, extraArgs?: string[]): void;
  /** Makes the next starts run without hardware acceleration. */
  disableGpu(): Promise<void>;
  /** The renderer's working set, or null while there is no renderer to measure. */
  rendererMemoryBytes(): number | null;
  /** Logs a recovery and hands it to the agent for the next heartbeat. */
  record(what: string): void;
}

export interface HealingLimits {
  /** This many renderer crashes within `crashWindowMs` restart the whole app instead. */
  crashBudget: number;
  crashWindowMs: number;
  /** A renderer unresponsive for this long is killed and reloaded. */
  unresponsiveMs: number;
  /** This many GPU process crashes within `gpuWindowMs` turn hardware acceleration off. */
  gpuCrashBudget: number;
  gpuWindowMs: number;
  /** Above this working set the renderer is recycled at the next change of what is shown. */
  memoryLimitBytes: number;
  memoryCheckMs: number;
  /** A playlist of one board never changes: recycle anyway after this long above the limit. */
  recycleFallbackMs: number;
}

export const HEALING_DEFAULTS: HealingLimits = {
  crashBudget: 3,
  crashWindowMs: 5 * 60_000,
  unresponsiveMs: 30_000,
  gpuCrashBudget: 3,
  gpuWindowMs: 30 * 60_000,
  memoryLimitBytes: 1024 ** 3,
  memoryCheckMs: 60_000,
  recycleFallbackMs: 15 * 60_000,
};

const MB = 1024 * 1024;

/**
 * Keeps the screen alive without anyone at it: a renderer that crashes is reloaded, a crash loop
 * restarts the app, a hung renderer is killed and reloaded, repeated GPU crashes turn hardware
 * acceleration off, and a renderer growing past its memory limit is recycled between two
 * playlist items so nobody sees it happen.
 */
export class SelfHealing {
  private crashes: number[] = [];
  private gpuCrashes: number[] = [];
  private unresponsiveTimer: TimerHandle | null = null;
  private memoryTimer: TimerHandle | null = null;
  private recycleTimer: TimerHandle | null = null;
  private recyclePending = false;
  private killedByUs = false;
  private stopped = false;

  constructor(
    private readonly clock: Clock,
    private readonly actions: HealingActions,
    private readonly log: Logger,
    private readonly options: { limits?: Partial<HealingLimits>; gpuDisabled?: boolean } = {},
  ) {}

  private get limits(): HealingLimits {
    return { ...HEALING_DEFAULTS, ...this.options.limits };
  }

  start(): void {
    this.scheduleMemoryCheck();
  }

  /** While quitting, nothing is healed any more. */
  stop(): void {
    this.stopped = true;
    for (const timer of [this.unresponsiveTimer, this.memoryTimer, this.recycleTimer]) timer?.cancel();
  }

  rendererGone(reason: string): void {
    if (this.stopped) return;
    this.unresponsiveTimer?.cancel();
    this.unresponsiveTimer = null;
    this.cancelRecycle();
    const { crashBudget, crashWindowMs } = this.limits;
    this.crashes = recent([...this.crashes, this.clock.now()], this.clock.now(), crashWindowMs);
    const killed = this.killedByUs;
    this.killedByUs = false;
    if (this.crashes.length >= crashBudget) {
      const why = `the renderer went away ${this.crashes.length} times within ${minutes(crashWindowMs)} (last: ${reason})`;
      this.actions.record(`${why}; restarting the app`);
      this.stopped = true;
      this.actions.restartApp(why);
      return;
    }
    if (!killed) this.actions.record(`the renderer went away (${reason}); reloaded it`);
    this.actions.reload();
  }

  unresponsive(): void {
    if (this.stopped || this.unresponsiveTimer) return;
    const { unresponsiveMs } = this.limits;
    this.log.warn('the renderer is unresponsive');
    this.unresponsiveTimer = this.clock.setTimeout(() => {
      this.unresponsiveTimer = null;
      this.actions.record(
        `the renderer was unresponsive for ${unresponsiveMs / 1000} s; killed and reloaded it`,
      );
      this.killedByUs = true;
      this.actions.crashRenderer();
    }, unresponsiveMs);
  }

  responsive(): void {
    if (!this.unresponsiveTimer) return;
    this.unresponsiveTimer.cancel();
    this.unresponsiveTimer = null;
    this.log.info('the renderer is responsive again');
  }

  /** From app 'child-process-gone'. */
  childProcessGone(type: string, reason: string): void {
    if (this.stopped || type !== 'GPU' || reason === 'clean-exit') return;
    const { gpuCrashBudget, gpuWindowMs } = this.limits;
    this.gpuCrashes = recent([...this.gpuCrashes, this.clock.now()], this.clock.now(), gpuWindowMs);
    this.log.warn(`the GPU process went away (${reason}), ${this.gpuCrashes.length} times recently`);
    if (this.gpuCrashes.length < gpuCrashBudget) return;
    if (this.options.gpuDisabled) {
      this.actions.record(
        `the GPU process went away ${this.gpuCrashes.length} times with acceleration already off`,
      );
      this.gpuCrashes = [];
      return;
    }
    const why = `the GPU process went away ${this.gpuCrashes.length} times within ${minutes(gpuWindowMs)}`;
    this.actions.record(`${why}; restarting without hardware acceleration`);
    this.stopped = true;
    this.actions
      .disableGpu()
      .catch((error: unknown) => this.log.error(`could not save the GPU setting: ${String(error)}`))
      .finally(() => this.actions.restartApp(why, ['--disable-gpu']));
  }

  /** The renderer reported that something else is on screen: a quiet moment to recycle it. */
  showingChanged(): void {
    if (this.recyclePending && !this.stopped) this.recycle('between two playlist items');
  }

  checkMemory(): void {
    if (this.stopped || this.recyclePending) return;
    const bytes = this.actions.rendererMemoryBytes();
    const { memoryLimitBytes, recycleFallbackMs } = this.limits;
    if (bytes === null || bytes <= memoryLimitBytes) return;
    this.recyclePending = true;
    this.log.warn(
      `the renderer uses ${Math.round(bytes / MB)} MB, above ${Math.round(memoryLimitBytes / MB)} MB; ` +
        'recycling it at the next change of board',
    );
    this.recycleTimer = this.clock.setTimeout(() => {
      this.recycleTimer = null;
      this.recycle(`after waiting ${minutes(recycleFallbackMs)} for a change of board`);
    }, recycleFallbackMs);
  }

  private recycle(when: string): void {
    this.cancelRecycle();
    this.actions.record(
      `the renderer grew past ${Math.round(this.limits.memoryLimitBytes / MB)} MB; reloaded it ${when}`,
    );
    this.actions.reload();
  }

  private cancelRecycle(): void {
    this.recyclePending = false;
    this.recycleTimer?.cancel();
    this.recycleTimer = null;
  }

  private scheduleMemoryCheck(): void {
    if (this.stopped) return;
    this.memoryTimer = this.clock.setTimeout(() => {
      try {
        this.checkMemory();
      } catch (error) {
        this.log.warn(`could not measure the renderer: ${String(error)}`);
      }
      this.scheduleMemoryCheck();
    }, this.limits.memoryCheckMs);
  }
}

function recent(times: number[], now: number, windowMs: number): number[] {
  return times.filter((time) => now - time < windowMs);
}

function minutes(ms: number): string {
  return ms % 60_000 === 0 ? `${ms / 60_000} min` : `${Math.round(ms / 1000)} s`;
}
