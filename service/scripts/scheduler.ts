import { ScriptRepository } from '../repositories/scripts';
import type { ServiceContext } from '../context';
import { RunnerStopped, type ScriptRunner } from './runner';

interface Entry {
  /** The script's `updated_at` when it was last seen: a change runs it again at once. */
  version: string;
  intervalMs: number;
  timer: NodeJS.Timeout | null;
  running: boolean;
  /** Changed while running: run again as soon as this run ends. */
  rerun: boolean;
}

/** How often the store is read again, for scripts written by others than the routes (the demo). */
export const RESYNC_MS = 5000;

/**
 * Runs every enabled script on its interval. A script runs at once when the scheduler first sees
 * it (service start, creation, enabling, any change), then `interval` after the start of each
 * run; a run still going when the next is due delays it rather than piling up.
 */
export class ScriptScheduler {
  private readonly entries = new Map<string, Entry>();
  private resync: NodeJS.Timeout | null = null;
  private syncing: Promise<void> = Promise.resolve();
  private started = false;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly runner: ScriptRunner,
    private readonly onError: (error: unknown) => void,
    private readonly resyncMs: number = RESYNC_MS,
  ) {}

  async start(): Promise<void> {
    this.started = true;
    await this.sync();
    this.resync = setInterval(() => void this.sync(), this.resyncMs);
    this.resync.unref();
  }

  /** Reads the scripts again and follows their changes; the routes call it after each write. */
  sync(): Promise<void> {
    if (!this.started) return Promise.resolve();
    this.syncing = this.syncing.then(() => this.reconcile()).catch(this.onError);
    return this.syncing;
  }

  stop(): void {
    this.started = false;
    if (this.resync) clearInterval(this.resync);
    this.resync = null;
    for (const entry of this.entries.values()) if (entry.timer) clearTimeout(entry.timer);
    this.entries.clear();
  }

  private async reconcile(): Promise<void> {
    const scripts = await new ScriptRepository(this.ctx.db).list();
    if (!this.started) return;
    const enabled = new Set<string>();
    for (const script of scripts) {
      if (!script.enabled) continue;
      enabled.add(script.id);
      const intervalMs = script.interval_seconds * 1000;
      const entry = this.entries.get(script.id);
      if (!entry) {
        const fresh: Entry = {
          version: script.updated_at,
          intervalMs,
          timer: null,
          running: false,
          rerun: false,
        };
        this.entries.set(script.id, fresh);
        this.schedule(script.id, fresh, 0);
      } else if (entry.version !== script.updated_at) {
        entry.version = script.updated_at;
        entry.intervalMs = intervalMs;
        if (entry.running) entry.rerun = true;
        else this.schedule(script.id, entry, 0);
      }
    }
    for (const [id, entry] of this.entries) {
      if (enabled.has(id)) continue;
      if (entry.timer) clearTimeout(entry.timer);
      this.entries.delete(id);
    }
  }

  private schedule(id: string, entry: Entry, delayMs: number): void {
    if (entry.timer) clearTimeout(entry.timer);
    entry.timer = setTimeout(() => this.fire(id, entry), delayMs);
    entry.timer.unref();
  }

  private fire(id: string, entry: Entry): void {
    entry.timer = null;
    if (this.entries.get(id) !== entry) return;
    entry.running = true;
    entry.rerun = false;
    const startedAt = Date.now();
    this.runner
      .run(id, 'schedule')
      .catch((error: unknown) => {
        if (!(error instanceof RunnerStopped)) this.onError(error);
      })
      .finally(() => {
        entry.running = false;
        if (!this.started || this.entries.get(id) !== entry) return;
        const wait = entry.rerun ? 0 : Math.max(0, entry.intervalMs - (Date.now() - startedAt));
        this.schedule(id, entry, wait);
      });
  }
}
