import { withAccount } from '../accounts/scope';
import { applyCapPoll, recordCapFailure } from '../actions/cap-feeds';
import { withActor } from '../audit/actor';
import { CAP_FETCH_LIMITS, type FetchLimits } from '../cap/fetch';
import { readFeed } from '../cap/read-feed';
import type { ServiceContext } from '../context';
import { CapFeedRepository, type PolledFeed } from '../repositories/cap-feeds';
import { every, type Job } from './jobs';

/** How often the feeds are looked over: a feed is polled at most this late on its `poll_seconds`. */
export const CAP_PASS_MS = 5_000;
/** Feeds read at once: one slow feed (up to its fetch time) does not hold the others back. */
const POLL_CONCURRENCY = 4;

/**
 * CAP feeds (docs/api/overrides.md, "CAP feeds"): every CAP_PASS_MS, each feed due is read
 * (cap/read-feed.ts) and what it holds applied to its overrides (actions/cap-feeds.ts), as its
 * account. A feed that cannot be read keeps its overrides as they are and records why. It runs
 * once across the service's nodes (the `once` jobs, under the lease): what a feed raised is in its
 * rows, so the node that leads next goes on from there.
 */
export class CapFeedJob implements Job {
  readonly name = 'cap feeds';
  private readonly passes: Job;
  private abort = new AbortController();

  constructor(
    private readonly ctx: ServiceContext,
    private readonly limits: FetchLimits = CAP_FETCH_LIMITS,
  ) {
    this.passes = every(ctx, 'cap feeds', CAP_PASS_MS, () => this.pass());
  }

  start(): void {
    this.abort = new AbortController();
    this.passes.start();
  }

  /** A request under way is cut short: closing the service never waits for a feed. */
  stop(): Promise<void> {
    this.abort.abort();
    return this.passes.stop();
  }

  private async pass(): Promise<void> {
    const due = await new CapFeedRepository(this.ctx.db).due(this.ctx.clock.now());
    let next = 0;
    const worker = async () => {
      for (let feed = due[next++]; feed; feed = due[next++]) {
        const polled = feed;
        // One feed's failure, even a store error on its rows, leaves the others going.
        await withAccount(polled.account_id, () => this.poll(polled)).catch((error: unknown) =>
          this.ctx.log.error({ err: error }, `CAP feed ${polled.id} could not be polled`),
        );
      }
    };
    await Promise.all(Array.from({ length: Math.min(POLL_CONCURRENCY, due.length) }, worker));
  }

  private async poll(feed: PolledFeed): Promise<void> {
    const signal = this.abort.signal;
    let alerts;
    try {
      alerts = await readFeed(feed.url, this.limits, signal);
    } catch (error) {
      // Stopping is no failure of the feed's.
      if (signal.aborted) return;
      await recordCapFailure(this.ctx, feed.id, (error as Error).message);
      return;
    }
    if (signal.aborted) return;
    try {
      // The overrides a feed raises and clears are in the audit trail as the feed's (docs/audit.md).
      const actor = { kind: 'system' as const, id: feed.id, name: `CAP feed ${feed.name}`, address: null };
      await withActor(actor, () => applyCapPoll(this.ctx, feed.id, alerts));
    } catch (error) {
      // What the store refuses for this feed (its group deleted since): said on the feed.
      await recordCapFailure(
        this.ctx,
        feed.id,
        `its alerts could not be applied: ${(error as Error).message}`,
      );
    }
  }
}
