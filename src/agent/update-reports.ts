import { z } from 'zod';
import { updateReportSchema, type UpdateReport } from '../shared/release';
import { backoffDelay } from './backoff';
import type { Clock, KeyValueStore, Logger, TimerHandle } from './ports';
import { ServiceError } from './service-client';

export interface UpdateReportDeps {
  clock: Clock;
  random: () => number;
  log: Logger;
  store: KeyValueStore;
}

/** Sends one report (POST /devices/:tag/update-reports); throws when it could not. */
export type SendUpdateReport = (report: UpdateReport) => Promise<void>;

/** Where the reports the service has not had yet are kept across restarts. */
export const UPDATE_REPORTS_KEY = 'update-reports';
/** Reports kept while the service is away; updates are rare, so past this the oldest are stale anyway. */
export const UPDATE_REPORTS_KEPT_MAX = 50;

const storedSchema = z.array(z.unknown());

/**
 * The outcomes of updates on their way to the service: each is written to disk as soon as it is
 * made (updates are rare, and the one that says an install is under way must survive the restart
 * the install makes), then sent in order; while the service is away they wait and are sent again
 * with backoff, and at once when `flush` says it is back. A report the service refuses for good
 * (400, 404 from a service without the route, 422) is dropped, logged.
 */
export class UpdateReportQueue {
  private pending: UpdateReport[] = [];
  private send: SendUpdateReport | null = null;
  private timer: TimerHandle | null = null;
  private sending = false;
  private attempt = 0;
  private written: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(private readonly deps: UpdateReportDeps) {}

  async restore(): Promise<void> {
    const stored = storedSchema.safeParse(await this.deps.store.read(UPDATE_REPORTS_KEY));
    if (!stored.success) return;
    for (const entry of stored.data) {
      const report = updateReportSchema.safeParse(entry);
      if (report.success) this.pending.push(report.data);
    }
  }

  /** Where reports go from now on (a session with the service); what waits goes now. */
  connect(send: SendUpdateReport): void {
    this.send = send;
    this.flush();
  }

  /** Reports waiting for the service. */
  get waiting(): readonly UpdateReport[] {
    return this.pending;
  }

  /** Keeps a report (on disk before it resolves) and sends it. */
  add(report: UpdateReport): Promise<void> {
    this.pending.push({ ...report, detail: report.detail.slice(0, 1024) });
    this.pending.splice(0, Math.max(0, this.pending.length - UPDATE_REPORTS_KEPT_MAX));
    const written = this.persist();
    if (!this.timer && !this.sending) this.schedule(0);
    return written;
  }

  /** The service is reachable again: what waits goes now, not after the backoff. */
  flush(): void {
    if (this.pending.length === 0 || this.sending) return;
    this.attempt = 0;
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.timer?.cancel();
    this.timer = null;
    await this.written;
  }

  private schedule(delayMs: number): void {
    this.timer?.cancel();
    this.timer = this.deps.clock.setTimeout(() => {
      this.timer = null;
      void this.sendAll();
    }, delayMs);
  }

  private async sendAll(): Promise<void> {
    const send = this.send;
    if (this.sending || this.stopped || !send) return;
    this.sending = true;
    try {
      for (let report = this.pending[0]; report && !this.stopped; report = this.pending[0]) {
        try {
          await send(report);
        } catch (error) {
          if (!refusedForGood(error)) {
            const delay = backoffDelay(this.attempt++, this.deps.random);
            if (this.attempt === 1) {
              this.deps.log.warn(`update reports wait for the service (${(error as Error).message})`);
            }
            this.schedule(delay);
            return;
          }
          this.deps.log.error(`the service refused an update report, dropped: ${(error as Error).message}`);
        }
        this.pending = this.pending.filter((kept) => kept !== report);
        this.attempt = 0;
        await this.persist();
      }
    } finally {
      this.sending = false;
    }
  }

  /** Writes are chained, so the last one on disk is the newest list. */
  private persist(): Promise<void> {
    const snapshot = [...this.pending];
    this.written = this.written.then(() =>
      this.deps.store.write(UPDATE_REPORTS_KEY, snapshot).catch((error: unknown) => {
        this.deps.log.warn(`could not keep the update reports on disk: ${(error as Error).message}`);
      }),
    );
    return this.written;
  }
}

function refusedForGood(error: unknown): boolean {
  return error instanceof ServiceError && [400, 404, 422].includes(error.status);
}
