import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Database } from './database';
import { DurabilityBarrier, SyncError, type SyncLog } from './durability';
import { openStore } from './open';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wallboard-durability-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A sync the test finishes by hand, counting those started. */
function manualSync() {
  const pending: { resolve: () => void; reject: (error: Error) => void }[] = [];
  const sync: SyncLog = () => new Promise((resolve, reject) => pending.push({ resolve, reject }));
  return { sync, pending };
}

const settled = async (promise: Promise<unknown>) => {
  let done = false;
  void promise.then(
    () => (done = true),
    () => (done = true),
  );
  // A turn of the event loop: what was due has settled by then.
  await new Promise((resolve) => setImmediate(resolve));
  return done;
};

describe('the durability barrier', () => {
  it('answers a commit only after a sync begun after it; the commits made during a sync share the next', async () => {
    const { sync, pending } = manualSync();
    const barrier = new DurabilityBarrier(sync);
    const first = barrier.durable(barrier.noteCommit());
    expect(pending).toHaveLength(1);
    // Committed while the first sync runs: it does not cover them, the next covers both.
    const second = barrier.durable(barrier.noteCommit());
    const third = barrier.durable(barrier.noteCommit());
    expect(pending).toHaveLength(1);
    expect(await settled(first)).toBe(false);
    pending[0]?.resolve();
    await first;
    expect(await settled(second)).toBe(false);
    expect(pending).toHaveLength(2);
    pending[1]?.resolve();
    await Promise.all([second, third]);
    // Already on disk: no sync needed.
    await barrier.durable(2);
    expect(pending).toHaveLength(2);
  });

  it('refuses the commits a failed sync covered, saying so, and syncs the next ones again', async () => {
    const { sync, pending } = manualSync();
    const barrier = new DurabilityBarrier(sync);
    const lost = barrier.durable(barrier.noteCommit());
    pending[0]?.reject(new Error('EIO: i/o error, fdatasync'));
    await expect(lost).rejects.toThrow(SyncError);
    await expect(lost).rejects.toThrow(
      'the disk did not confirm the write (EIO: i/o error, fdatasync): it may be lost',
    );
    const next = barrier.durable(barrier.noteCommit());
    pending[1]?.resolve();
    await next;
  });
});

describe('the embedded store on a slow disk', () => {
  const SYNC_MS = 100;
  let db: Database;
  let syncs: number;
  /** Holds every sync until opened: the test's own disk. */
  let gate: Promise<void>;
  beforeEach(async () => {
    syncs = 0;
    gate = Promise.resolve();
    // This machine's disk, 100 ms slower per sync: a slow disk cannot be had here on demand.
    const slow =
      (sync: SyncLog): SyncLog =>
      async () => {
        syncs += 1;
        await Promise.all([sync(), delay(SYNC_MS), gate]);
      };
    db = await openStore({ dataDir: dir, syncLog: slow });
  });
  afterEach(() => db.close());

  const insert = (id: string) =>
    db.transaction((tx) =>
      tx.kysely
        .insertInto('tokens')
        .values({ id, scope: 'full', secret_hash: `hash-${id}` })
        .execute(),
    );

  it('answers a write once synced, keeps the event loop free meanwhile, and groups the writes that arrive', async () => {
    syncs = 0;
    const loop = monitorEventLoopDelay({ resolution: 1 });
    loop.enable();
    const started = performance.now();
    const answered: number[] = [];
    // 200 writes arriving over about a second, one every 5 ms.
    const writes = Array.from({ length: 200 }, async (_, index) => {
      await delay(index * 5);
      const at = performance.now();
      await insert(`t${index}`);
      answered.push(performance.now() - at);
    });
    await Promise.all(writes);
    loop.disable();
    const elapsed = performance.now() - started;
    // Each waited for a sync of its own commit: at least the disk's 100 ms.
    expect(Math.min(...answered)).toBeGreaterThanOrEqual(SYNC_MS - 5);
    // The writes arriving during a sync share the next one: about one sync per 100 ms, not 200.
    expect(syncs).toBeLessThanOrEqual(Math.ceil(elapsed / SYNC_MS) + 2);
    // The loop never waited for the disk: its delays stay far below one sync.
    expect(loop.percentile(99) / 1e6).toBeLessThan(SYNC_MS / 2);
    const rows = await db.kysely
      .selectFrom('tokens')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .execute();
    expect(Number(rows[0]?.n)).toBe(200);
  });

  it('lets reads and other writes use the store while a commit syncs', async () => {
    await insert('first');
    let open!: () => void;
    gate = new Promise((resolve) => (open = resolve));
    const writing = insert('waiting');
    const read = () => db.kysely.selectFrom('tokens').select('id').where('id', '=', 'waiting').execute();
    // Once committed, while the write waits for its sync, the store answers reads (which see it)
    // and takes other writes, each at once.
    await vi.waitFor(async () => expect(await read()).toEqual([{ id: 'waiting' }]));
    expect(await settled(writing)).toBe(false);
    const at = performance.now();
    await read();
    expect(performance.now() - at).toBeLessThan(SYNC_MS / 2);
    const beside = db.kysely
      .insertInto('tokens')
      .values({ id: 'beside', scope: 'full', secret_hash: 'beside' })
      .execute();
    await vi.waitFor(async () =>
      expect(
        await db.kysely.selectFrom('tokens').select('id').where('id', '=', 'beside').execute(),
      ).toHaveLength(1),
    );
    // Both are still waiting for the disk.
    expect(await settled(writing)).toBe(false);
    expect(await settled(beside)).toBe(false);
    open();
    await Promise.all([writing, beside]);
  });

  it('copies the log into the database file in the background', async () => {
    const file = join(dir, 'wallboard.sqlite');
    const before = (await stat(file)).size;
    await Promise.all(Array.from({ length: 500 }, (_, index) => insert(`c${index}`)));
    // The service's connection never checkpoints (wal_autocheckpoint=0): the worker does.
    await vi.waitFor(async () => expect((await stat(file)).size).toBeGreaterThan(before), {
      timeout: 10_000,
    });
  });
});

describe('the embedded store under writes that never pause', () => {
  it('keeps its write-ahead log from growing: checkpoints between transactions let it start over', async () => {
    const db = await openStore({ dataDir: dir });
    try {
      let written = 0;
      await Promise.all(
        Array.from({ length: 16 }, async (_, writer) => {
          while (written < 6000) {
            const id = `w${writer}-${written++}`;
            await db.transaction((tx) =>
              tx.kysely
                .insertInto('tokens')
                .values({ id, scope: 'full', secret_hash: id, name: 'x'.repeat(200) })
                .execute(),
            );
          }
        }),
      );
      // 6,000 such writes append some 50 MB of frames; a log never started over keeps them all.
      const log = (await stat(join(dir, 'wallboard.sqlite-wal'))).size;
      expect(log).toBeLessThan(20 * 1024 * 1024);
    } finally {
      await db.close();
    }
  });
});
