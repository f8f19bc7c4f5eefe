// Group commit for the embedded store. With synchronous=FULL every commit waits for the disk, and
// SQLite has one writer: writes that arrive while one commits would each wait for their own sync.
// Instead, the writes waiting when a commit ends run together in the next transaction, each in a
// savepoint of its own (one that fails is rolled back alone and answered with its error), and are
// answered once that transaction is on disk: one sync for all of them. A write arriving at a quiet
// store starts at once, so nothing waits that did not have to.
import { boundToAccount } from '../accounts/scope';
import { sql, type Kysely } from 'kysely';
import type { Queryable, StoreKind } from './database';
import type { Schema } from './schema';

interface Job {
  work: (tx: Queryable) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** Writes in one transaction at most: a bound on how long the last of them waits. */
const BATCH_MAX = 64;

export function groupCommit(
  kind: StoreKind,
  kysely: Kysely<Schema>,
): <T>(work: (tx: Queryable) => Promise<T>) => Promise<T> {
  const queue: Job[] = [];
  let running = false;

  /** Runs `jobs` in one transaction; those it did not reach go back to the front of the queue. */
  async function runBatch(jobs: Job[]): Promise<void> {
    const done: { job: Job; value: unknown }[] = [];
    let reached = 0;
    try {
      await kysely.transaction().execute(async (trx) => {
        const tx: Queryable = { kind, kysely: trx };
        for (const [index, job] of jobs.entries()) {
          reached = index + 1;
          await sql.raw(`savepoint write_${index}`).execute(trx);
          try {
            done.push({ job, value: await job.work(tx) });
            await sql.raw(`release write_${index}`).execute(trx);
          } catch (error) {
            try {
              await sql.raw(`rollback to write_${index}`).execute(trx);
              await sql.raw(`release write_${index}`).execute(trx);
            } catch {
              // Some errors (a full disk) make SQLite roll the whole transaction back itself:
              // there is no savepoint to return to, and the batch fails with this error.
              throw error;
            }
            job.reject(error);
          }
        }
      });
    } catch (error) {
      // Nothing of the batch was kept: those that had succeeded fail with it, and those it did not
      // reach get their own turn.
      for (const { job } of done) job.reject(error);
      const failing = jobs[reached - 1];
      if (failing && !done.some((entry) => entry.job === failing)) failing.reject(error);
      queue.unshift(...jobs.slice(reached));
      return;
    }
    for (const { job, value } of done) job.resolve(value);
  }

  async function drain(): Promise<void> {
    running = true;
    try {
      while (queue.length > 0) {
        // A turn of the event loop first: requests reading before they write (on the same
        // connection, which the batch holds) get to their write and join this batch.
        await new Promise((resolve) => setImmediate(resolve));
        await runBatch(queue.splice(0, BATCH_MAX));
      }
    } finally {
      running = false;
    }
  }

  return <T>(work: (tx: Queryable) => Promise<T>) =>
    new Promise<T>((resolve, reject) => {
      // Run in the batch, but as the account that asked (accounts/scope.ts).
      queue.push({ work: boundToAccount(work), resolve: resolve as (value: unknown) => void, reject });
      if (!running) void drain();
    });
}
