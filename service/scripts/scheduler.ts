import type { Script } from '../../src/shared/script';
import type { Cancel, ServiceContext } from '../context';
import { ScriptRepository } from '../repositories/scripts';
import { RunnerStopped, type ScriptRunner } from './runner';

interface Entry {
  intervalMs: number;
  cancel: Cancel | null;
  running: boolean;
  /** Changed while running: run again as soon as this run ends. */
  rerun: boolean;
}

/**
 * Runs every enabled script on its interval, on the context's clock. A script runs at once when
 * the scheduler first sees it (its start, creation, enabling, any change), then `interval` after
 * the start of each run; a run still going when the next is due delays it rather than piling up.
 * It reads the scripts once when it starts; after that the script actions tell it of each write
 * (`changed`), so it never polls the table.
 */
export class ScriptScheduler {
  private readonly entries = new Map<string, Entry>();
  /** Reads of the store, one after the other, so a later change is never applied before an earlier one. */
  private following: Promise<void> = Promise.resolve();
  private started = false;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly runner: ScriptRunner,
    private readonly onError: (error: unknown) => void,
  ) {}

  /**
   * Schedules the enabled scripts, those written before the start (the demo's) among them. One
   * that ran before (on this node or the one that led before it) runs next `interval` after that
   * run's start, so that a new leader keeps each script to once per interval.
   */
  start(): Promise<void> {
    this.started = true;
    return this.follow(async () => {
      const scripts = new ScriptRepository(this.ctx.db);
      const lastRuns = await scripts.lastRunStarts();
      for (const script of await scripts.list()) this.apply(script.id, script, lastRuns.get(script.id));
    });
  }

  /** The script was created, changed or deleted: resolves once the schedule follows. */
  changed(id: string): Promise<void> {
    return this.follow(async () => this.apply(id, await new ScriptRepository(this.ctx.db).get(id)));
  }

  stop(): void {
    this.started = false;
    for (const entry of this.entries.values()) entry.cancel?.();
    this.entries.clear();
  }

  private follow(read: () => Promise<void>): Promise<void> {
    if (!this.started) return Promise.resolve();
    this.following = this.following.then(read).catch(this.onError);
    return this.following;
  }

  private apply(id: string, script: Script | null, lastRun?: Date): void {
    // Stopped while the store was being read.
    if (!this.started) return;
    const entry = this.entries.get(id);
    if (!script?.enabled) {
      entry?.cancel?.();
      this.entries.delete(id);
      return;
    }
    const intervalMs = script.interval_seconds * 1000;
    if (!entry) {
      const fresh: Entry = { intervalMs, cancel: null, running: false, rerun: false };
      this.entries.set(id, fresh);
      const due = lastRun ? lastRun.getTime() + intervalMs - this.ctx.clock.now().getTime() : 0;
      this.schedule(id, fresh, Math.max(0, due));
    } else {
      // Told of a write: whatever changed (its code, its flow), it runs again at once.
      entry.intervalMs = intervalMs;
      if (entry.running) entry.rerun = true;
      else this.schedule(id, entry, 0);
    }
  }

  private schedule(id: string, entry: Entry, delayMs: number): void {
    entry.cancel?.();
    entry.cancel = this.ctx.clock.setTimeout(() => this.fire(id, entry), delayMs);
  }

  private async fire(id: string, entry: Entry): Promise<void> {
    entry.cancel = null;
    if (this.entries.get(id) !== entry) return;
    entry.running = true;
    entry.rerun = false;
    const startedAt = this.ctx.clock.now().getTime();
    try {
      await this.runner.run(id, 'schedule');
    } catch (error) {
      if (!(error instanceof RunnerStopped)) this.onError(error);
    }
    entry.running = false;
    if (!this.started || this.entries.get(id) !== entry) return;
    const elapsed = this.ctx.clock.now().getTime() - startedAt;
    this.schedule(id, entry, entry.rerun ? 0 : Math.max(0, entry.intervalMs - elapsed));
  }
}
