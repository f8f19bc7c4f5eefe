// Group commit for the embedded store. SQLite has one writer, and each transaction costs its own
// begin, commit and log frames: the writes waiting when a transaction ends run together in the
// next, each in a savepoint of its own (one that fails is rolled back alone and answered with its
// error), and are answered once that transaction is on disk (durability.ts). The next transaction
// runs while the last one's sync is under way, so writes keep arriving and grouping while the disk
// works. A write arriving at a quiet store starts at once, so nothing waits that did not have to.
import { boundToAccount } from '../accounts/scope';
import { sql, type Kysely } from 'kysely';
import type { Queryable, StoreKind } from './database';
import { CHECKPOINT_EVERY_MS } from './checkpointer';
import { withoutWaitingForSync, type DurabilityBarrier } from './durability';
import { inTurns } from './in-turns';
import type { Schema } from './schema';

interface Job {
  work: (tx: Queryable) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** Writes in one transaction at most: a bound on how long the last of them waits. */
const BATCH_MAX = 64;

/**
 * node:sqlite answers at once, so a transaction's writes run one after another without the event
 * loop getting a turn: past this much of its time, a transaction takes no further write (those
 * go to the next), so that requests are read and sockets served in between.
 */
const BATCH_MAX_MS = 4;

export function groupCommit(
  kind: StoreKind,
  kysely: Kysely<Schema>,
  barrier: DurabilityBarrier | undefined,
  checkpoint?: () => Promise<void>,
): <T>(work: (tx: Queryable) => Promise<T>) => Promise<T> {
  const queue: Job[] = [];
  let running = false;
  let lastCheckpoint = performance.now();

  /**
   * Runs `jobs` in one transaction, and returns once it has committed, answering them once it is
   * on disk; those it did not reach go back to the front of the queue.
   */
  async function runBatch(jobs: Job[]): Promise<void> {
    const done: { job: Job; value: unknown }[] = [];
    let reached = 0;
    let commit: number;
    const runJobs = async (trx: Kysely<Schema>): Promise<void> => {
      const tx: Queryable = { kind, kysely: trx };
      const started = performance.now();
      for (const [index, job] of jobs.entries()) {
        if (index > 0 && performance.now() - started > BATCH_MAX_MS) break;
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
    };
    try {
      ({ commit } = await withoutWaitingForSync((inside) =>
        kysely.transaction().execute((trx) => inside(() => runJobs(trx))),
      ));
    } catch (error) {
      // Nothing of the batch was kept: those that had succeeded fail with it.
      for (const { job } of done) job.reject(error);
      const failing = jobs[reached - 1];
      if (failing && !done.some((entry) => entry.job === failing)) failing.reject(error);
      return;
    } finally {
      // Those it did not reach get their own turn.
      queue.unshift(...jobs.slice(reached));
    }
    // Answered a few per turn of the event loop (in-turns.ts).
    const answer = () => inTurns(done, ({ job, value }) => job.resolve(value));
    if (!barrier || commit === 0) answer();
    else
      barrier.durable(commit).then(answer, (error: unknown) => {
        for (const { job } of done) job.reject(error);
      });
  }

  async function drain(): Promise<void> {
    running = true;
    try {
      while (queue.length > 0) {
        // A turn of the event loop first: requests reading before they write (on the same
        // connection, which the batch holds) get to their write and join this batch.
        await new Promise((resolve) => setImmediate(resolve));
        // Between transactions, so that the checkpoint copies every frame and the next
        // transaction starts the log over (checkpointer.ts); the writes wait, the loop does not.
        if (checkpoint && performance.now() - lastCheckpoint >= CHECKPOINT_EVERY_MS) {
          await checkpoint();
          lastCheckpoint = performance.now();
        }
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
