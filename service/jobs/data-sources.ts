import { withAccount } from '../accounts/scope';
import type { ServiceContext } from '../context';
import { refreshSource } from '../data-sources/refresh';
import { DataSourceRepository, type StoredSource } from '../repositories/data-sources';
import { every, type Job } from './jobs';

/**
 * How often the sources are looked over: a source runs at most this late on its interval. A
 * pass is one read of the sources that feed flows, so four a second cost little.
 */
export const DATA_PASS_MS = 250;
/** Sources refreshed at once: queries wait on the network and databases, not on this process. */
const REFRESH_CONCURRENCY = 16;

/** The due sources, accounts in turn: one account with many sources does not go first with all of them. */
function accountsInTurn(due: readonly StoredSource[]): StoredSource[] {
  const byAccount = new Map<string, StoredSource[]>();
  for (const source of due) {
    const list = byAccount.get(source.account_id) ?? [];
    list.push(source);
    byAccount.set(source.account_id, list);
  }
  const lists = [...byAccount.values()];
  const turns: StoredSource[] = [];
  for (let index = 0; turns.length < due.length; index++) {
    for (const list of lists) if (index < list.length) turns.push(list[index] as StoredSource);
  }
  return turns;
}

/**
 * Data sources (docs/data-sources.md): every DATA_PASS_MS, the sources due are queued, most
 * overdue first and accounts in turn; they are refreshed (data-sources/refresh.ts), each in its
 * account's scope, at most REFRESH_CONCURRENCY at once and never one twice at once, the next
 * starting as soon as a slot frees, so a pass never caps how many run in a second and a slow
 * source (up to its timeout) holds only its own slot. It runs once across the service's nodes
 * (the `once` jobs, under the lease): when a source last ran is in its row, so the node that
 * leads next goes on from there.
 */
export class DataSourceJob implements Job {
  readonly name = 'data sources';
  private readonly passes: Job;
  private abort = new AbortController();
  private readonly running = new Map<string, Promise<void>>();
  /** The sources found due and not started yet, in the order they start. */
  private queue: StoredSource[] = [];

  constructor(private readonly ctx: ServiceContext) {
    this.passes = every(ctx, 'data sources', DATA_PASS_MS, () => this.pass());
  }

  start(): void {
    this.abort = new AbortController();
    this.passes.start();
  }

  /** The queries under way are cut short: closing the service never waits for a source. */
  async stop(): Promise<void> {
    this.abort.abort();
    this.queue = [];
    await this.passes.stop();
    await Promise.all(this.running.values());
  }

  private async pass(): Promise<void> {
    const due = await new DataSourceRepository(this.ctx.db).due(this.ctx.clock.now());
    this.queue = accountsInTurn(due.filter((source) => !this.running.has(source.id)));
    this.fill();
  }

  /** Starts queued sources while slots are free. */
  private fill(): void {
    while (this.running.size < REFRESH_CONCURRENCY && !this.abort.signal.aborted) {
      const source = this.queue.shift();
      if (!source) return;
      if (this.running.has(source.id)) continue;
      const signal = this.abort.signal;
      const run = withAccount(source.account_id, () => refreshSource(this.ctx, source, signal))
        .catch((error: unknown) =>
          this.ctx.log.error({ err: error }, `data source ${source.id} could not be refreshed`),
        )
        .finally(() => {
          this.running.delete(source.id);
          this.fill();
        });
      this.running.set(source.id, run);
    }
  }
}
