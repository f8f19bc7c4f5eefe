// When a write to the embedded store is on disk. SQLite runs with synchronous=NORMAL: a commit
// appends its pages to the write-ahead log and returns without waiting for the disk, so the event
// loop never waits for a sync. What synchronous=FULL promised (a write answered is on disk) is kept
// here instead: a write is answered once a sync of the log, begun after its commit, has finished.
// The sync (fdatasync) runs on libuv's thread pool, and one sync covers every commit before it:
// writes that commit while one syncs share the next, so a busy store syncs as often as the disk
// allows and no more. The log's frames are written in commit order, so syncing the file up to
// its end also keeps every earlier commit; a checkpoint syncs the log itself before it copies
// frames into the database (checkpointer.ts).
import { AsyncLocalStorage } from 'node:async_hooks';
import { open, type FileHandle } from 'node:fs/promises';

/** Makes everything written to the log so far durable. */
export type SyncLog = () => Promise<void>;

interface Waiter {
  commit: number;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** The disk failed to sync: what a write that waited for it is refused with. */
export class SyncError extends Error {
  constructor(cause: unknown) {
    super(
      `the disk did not confirm the write (${cause instanceof Error ? cause.message : String(cause)}): it may be lost`,
      { cause },
    );
    this.name = 'SyncError';
  }
}

/** Numbers the store's commits and tells when each is on disk. */
export class DurabilityBarrier {
  private committed = 0;
  private synced = 0;
  private syncing = false;
  private waiters: Waiter[] = [];

  constructor(private readonly sync: SyncLog) {}

  /** Notes a commit that just returned; its number, for `durable`. */
  noteCommit(): number {
    this.committed += 1;
    return this.committed;
  }

  /** Resolves once commit `commit` is on disk; rejects with a SyncError when the disk failed. */
  durable(commit: number): Promise<void> {
    if (commit <= this.synced) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.waiters.push({ commit, resolve, reject });
      this.next();
    });
  }

  /** Starts a sync of everything committed so far, unless one runs: the next starts when it ends. */
  private next(): void {
    if (this.syncing || this.waiters.length === 0) return;
    this.syncing = true;
    const upTo = this.committed;
    const settle = (error: unknown) => {
      if (error === undefined) this.synced = upTo;
      const covered = this.waiters.filter((waiter) => waiter.commit <= upTo);
      this.waiters = this.waiters.filter((waiter) => waiter.commit > upTo);
      for (const waiter of covered) {
        if (error === undefined) waiter.resolve();
        else waiter.reject(new SyncError(error));
      }
      this.syncing = false;
      this.next();
    };
    this.sync().then(() => settle(undefined), settle);
  }
}

/**
 * Syncs the file at `path` (the store's write-ahead log), opened at the first sync: SQLite creates
 * the log at the first write, and keeps it until the last connection closes. Closing returns the
 * handle.
 */
export function fileSync(path: string): { sync: SyncLog; close: () => Promise<void> } {
  let handle: Promise<FileHandle> | undefined;
  return {
    sync: async () => {
      handle ??= open(path, 'r');
      await (await handle).datasync();
    },
    close: async () => {
      await (await handle?.catch(() => undefined))?.close();
    },
  };
}

/** The commit numbers of work that waits for its own sync (the embedded store's group commit). */
const unsynced = new AsyncLocalStorage<{ commit: number }>();

/** Where a connection of the store leaves its last commit: for `withoutWaitingForSync`, or null. */
export function unsyncedCommits(): { commit: number } | undefined {
  return unsynced.getStore();
}

/**
 * Runs `work` on the store without its commits waiting for the disk, and says the number of its
 * last commit (0 when it committed nothing), for DurabilityBarrier.durable: the group commit
 * starts its next transaction while the last one syncs. Only the store's own connection handling
 * sees the mark (AsyncLocalStorage.exit around what `work` runs keeps it from anything it starts).
 */
export async function withoutWaitingForSync<T>(
  work: (inside: <R>(run: () => R) => R) => Promise<T>,
): Promise<{ value: T; commit: number }> {
  const noted = { commit: 0 };
  const value = await unsynced.run(noted, () => work((run) => unsynced.exit(run)));
  return { value, commit: noted.commit };
}
