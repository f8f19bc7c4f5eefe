/** The window script time is counted over: the last hour. */
export const BUDGET_WINDOW_MS = 3_600_000;
/**
 * Time is kept in slices of this length, so an account costs at most 360 slices whatever its
 * number of runs; a slice leaves the window whole, so budget comes back at most this late.
 */
const SLICE_MS = 10_000;

interface Slice {
  /** The slice's start on the clock (ms since the epoch). */
  start: number;
  /** Run time ended in it. */
  spentMs: number;
  /** Runs refused in it for want of budget. */
  refused: number;
}

/** What an account used of its hour. */
export interface BudgetUse {
  /** Run time of the last hour: runs ended within it, and those under way so far. */
  spentMs: number;
  /** Runs refused within the last hour for want of budget. */
  refused: number;
}

/** An account's script time this hour, for GET /scripts/usage. */
export interface ScriptTimeUse extends BudgetUse {
  limitMs: number;
}

/**
 * The script time each account may use per hour (`--script-seconds-per-hour`), over a sliding
 * window of the last hour on the service's clock. What is counted is the wall time of each run
 * from the moment it holds its slot until it ends: a script host runs one script at a time, so
 * that bounds the CPU time the run can use. Kept in this node's memory: each node counts the runs
 * it made (the scheduled ones all run on the node that leads).
 */
export class RunBudget {
  private readonly accounts = new Map<string, Slice[]>();

  constructor(
    /** Run time an account may use per hour, in ms. */
    readonly limitMs: number,
    private readonly now: () => number,
  ) {}

  /** Counts a run's time once it ended. */
  charge(account: string, ms: number): void {
    this.slice(account).spentMs += Math.max(0, ms);
  }

  /** Counts a run refused for want of budget. */
  refuse(account: string): void {
    this.slice(account).refused += 1;
  }

  /** The account's use of the last hour; `runningMs`: its runs under way so far. */
  use(account: string, runningMs = 0): BudgetUse {
    const slices = this.live(account);
    return {
      spentMs: slices.reduce((sum, slice) => sum + slice.spentMs, 0) + runningMs,
      refused: slices.reduce((sum, slice) => sum + slice.refused, 0),
    };
  }

  /**
   * Null when the account may start a run; otherwise in how many seconds enough of its time
   * leaves the window for it to start one (at least 1).
   */
  retryAfterSeconds(account: string, runningMs = 0): number | null {
    let over = this.use(account, runningMs).spentMs - this.limitMs;
    if (over < 0) return null;
    for (const slice of this.live(account)) {
      over -= slice.spentMs;
      if (over < 0) {
        return Math.max(1, Math.ceil((slice.start + SLICE_MS + BUDGET_WINDOW_MS - this.now()) / 1000));
      }
    }
    // Only runs under way are over it: one of them ends within a run's timeout.
    return 1;
  }

  /** The account's slices still within the window, oldest first; the older ones are dropped. */
  private live(account: string): Slice[] {
    const slices = this.accounts.get(account);
    if (!slices) return [];
    const since = this.now() - BUDGET_WINDOW_MS;
    while (slices.length && (slices[0] as Slice).start + SLICE_MS <= since) slices.shift();
    if (!slices.length) this.accounts.delete(account);
    return slices;
  }

  private slice(account: string): Slice {
    const start = Math.floor(this.now() / SLICE_MS) * SLICE_MS;
    const slices = this.live(account);
    const last = slices.at(-1);
    if (last?.start === start) return last;
    const fresh = { start, spentMs: 0, refused: 0 };
    slices.push(fresh);
    this.accounts.set(account, slices);
    return fresh;
  }
}
