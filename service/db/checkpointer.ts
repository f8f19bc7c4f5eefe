// Checkpoints of the embedded store, off the event loop. A checkpoint copies the write-ahead log's
// frames into the database file and syncs both: left to SQLite (wal_autocheckpoint), the commit
// that crosses the log's threshold runs it, and its syncs, on the event loop. The service's
// connection turns that off (embedded.ts), and this worker thread, on a connection of its own to
// the same file, checkpoints instead. The writer starts the log over (and so keeps it from
// growing) only at a transaction that begins once a checkpoint has copied every frame: a checkpoint
// beside a writer that never pauses never gets there (the log grew by 100 MB a second). So the
// group commit asks for one between its transactions every CHECKPOINT_EVERY_MS while it writes
// (group-commit.ts), waiting for it off the event loop, and the worker also checkpoints on its
// own while the store is quiet. A failed round (the disk full) leaves the frames in the log,
// which keeps them safe; the next round tries again, and the writes' own errors say what is wrong.
import { Worker } from 'node:worker_threads';

/** While the store writes, a checkpoint between its transactions this often. */
export const CHECKPOINT_EVERY_MS = 100;

/** A quiet store's last writes go to the database file this long after, at most. */
const IDLE_CHECKPOINT_MS = 1_000;

// Plain CommonJS evaluated in the worker, so that the service's bundle needs no file of its own
// for it. synchronous=FULL there: a checkpoint syncs the log before it writes the database, and
// the database after. A PASSIVE checkpoint never waits for a reader nor makes one wait.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { DatabaseSync } = require('node:sqlite');
const db = new DatabaseSync(workerData.path);
db.exec('pragma synchronous = FULL');
const checkpoint = db.prepare('pragma wal_checkpoint(PASSIVE)');
const round = () => { try { checkpoint.get(); } catch {} };
const timer = setInterval(round, workerData.idleMs);
parentPort.on('message', (message) => {
  if (message === 'checkpoint') {
    round();
    parentPort.postMessage('done');
    return;
  }
  clearInterval(timer);
  round();
  db.close();
  parentPort.close();
});
`;

export interface Checkpointer {
  /** Checkpoints now, on the worker; resolves once done (at once when the worker is gone). */
  checkpoint(): Promise<void>;
  /** Stops the worker, after a last round. */
  stop(): Promise<void>;
}

/** Starts checkpointing the store at `path`. */
export function startCheckpointer(path: string): Checkpointer {
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { path, idleMs: IDLE_CHECKPOINT_MS },
  });
  // A worker must not keep a process alive that is otherwise done: the store's close stops it.
  worker.unref();
  let gone = false;
  const waiting: (() => void)[] = [];
  const exited = new Promise<void>((resolve) =>
    worker.once('exit', () => {
      gone = true;
      for (const resolveWaiting of waiting.splice(0)) resolveWaiting();
      resolve();
    }),
  );
  // A worker that cannot open the store ends at once; the service's own connection says why.
  worker.on('error', () => undefined);
  // Answers come in the order of the requests; the process stays up while one is awaited.
  worker.on('message', () => {
    waiting.shift()?.();
    if (waiting.length === 0) worker.unref();
  });
  return {
    checkpoint: () =>
      gone
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            waiting.push(resolve);
            worker.ref();
            worker.postMessage('checkpoint');
          }),
    stop: async () => {
      // Stopping is awaited: the worker keeps the process up until its last round is done.
      worker.ref();
      worker.postMessage('stop');
      await exited;
    },
  };
}
