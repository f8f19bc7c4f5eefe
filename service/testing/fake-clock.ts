import type { Cancel, Clock } from '../context';

interface Timer {
  at: number;
  seq: number;
  run: () => unknown;
}

/**
 * Time that moves only when a test says so. Its timers run in order as it passes, and each is
 * awaited (a job's pass, a script's run), so once `advance` resolves the work that was due is
 * done: a test can assert that something did not happen without sleeping on the wall clock.
 */
export class FakeClock implements Clock {
  private current: number;
  private timers: Timer[] = [];
  private seq = 0;

  constructor(start: string | Date = '2026-11-21T07:00:00.000Z') {
    this.current = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  setTimeout(run: () => unknown, ms: number): Cancel {
    const timer = { at: this.current + Math.max(0, ms), seq: this.seq++, run };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((t) => t !== timer);
    };
  }

  /** Timers waiting to run: none once every job has stopped. */
  get pending(): number {
    return this.timers.length;
  }

  /**
   * Moves time forward by `ms`, running every timer due on the way (those they set too, when due
   * by then) and waiting for each to finish.
   */
  async advance(ms: number): Promise<void> {
    const target = this.current + ms;
    for (;;) {
      const due = this.timers.filter((t) => t.at <= target).sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.current = due.at;
      await due.run();
    }
    this.current = target;
  }

  /**
   * Moves time forward by `ms` in one step, as a machine waking from sleep: each timer that fell
   * due meanwhile runs once, at the new time, rather than once per period missed. For spans of
   * days, which `advance` would walk through every periodic job's every pass.
   */
  async jump(ms: number): Promise<void> {
    this.current += ms;
    const due = this.timers.filter((t) => t.at <= this.current).sort((a, b) => a.at - b.at || a.seq - b.seq);
    this.timers = this.timers.filter((t) => !due.includes(t));
    for (const timer of due) await timer.run();
  }
}
