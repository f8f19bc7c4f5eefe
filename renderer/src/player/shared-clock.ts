import { ClockEstimator } from '../../../src/shared/sync-clock';

/** Samples while the filter fills, then one every 2 s. */
const FILLING_EVERY_MS = 100;
const STEADY_EVERY_MS = 2000;
const FILL = 8;

/** The shared clock as the sequencer reads it: the service's time now, or null while unknown. */
export interface SharedTime {
  now(): number | null;
}

/**
 * This page's monotonic clock on the scale of its wall clock: anchored once to `Date.now()`, then
 * moved by `performance.now()`, so a step of the system's clock does not jump the timeline.
 */
export function pageClock(): () => number {
  const anchor = Date.now() - performance.now();
  return () => anchor + performance.now();
}

/**
 * The service's time as this page estimates it (docs/sync.md): the agent answers `serviceTime`
 * with its own estimate of the service's clock, and the page filters those answers by their round
 * trip over the bridge as the agent filters the service's (src/shared/sync-clock.ts). So the
 * estimate composes both links, whatever this page's clock says. `onChange` hears the first estimate.
 */
export class SharedClock implements SharedTime {
  private readonly estimator = new ClockEstimator();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private taken = 0;
  private stopped = true;
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly ask: () => Promise<{ now: number | null }>,
    private readonly local: () => number = pageClock(),
  ) {}

  now(): number | null {
    return this.estimator.remoteAt(this.local());
  }

  /** Heard once the clock is first known (and again after a start that knew none). */
  onKnown(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(0);
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(ms: number): void {
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.sample();
    }, ms);
  }

  private async sample(): Promise<void> {
    const known = this.estimator.estimate() !== null;
    const sent = this.local();
    try {
      const answer = await this.ask();
      if (answer.now !== null) this.estimator.add({ sent, remote: answer.now, received: this.local() });
    } catch {
      // The agent away (a reconnecting page): one sample fewer.
    }
    if (this.stopped) return;
    if (!known && this.estimator.estimate() !== null) for (const listener of [...this.listeners]) listener();
    // While the agent knows no time yet, it is asked again as often as while filling.
    if (this.estimator.estimate() !== null) this.taken += 1;
    this.schedule(this.taken < FILL ? FILLING_EVERY_MS : STEADY_EVERY_MS);
  }
}

/** A timer is this late at most on an idle page; it is set this much early and then set again. */
const EARLY_MS = 4;

/**
 * Runs `run` at the instant `at` of the shared clock: a timer to shortly before it, then one for
 * what is left, read again on the shared clock (a timer counts on the page's clock, which may run
 * at another rate, and fires late by a few ms). The commit `run` makes is painted on the first
 * frame after `at`, so screens whose clocks agree paint it within one frame of each other
 * (docs/sync.md, why not on an animation frame). Returns how to cancel it.
 */
export function atSharedInstant(clock: SharedTime, at: number, run: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const arm = () => {
    const left = at - (clock.now() ?? at);
    if (left <= 0.5) {
      timer = null;
      run();
      return;
    }
    timer = setTimeout(arm, left > EARLY_MS * 2 ? left - EARLY_MS : left);
  };
  arm();
  return () => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
  };
}
