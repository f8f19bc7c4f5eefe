// Checkpoints of the embedded store, off the event loop. A checkpoint copies the write-ahead log's
// frames into the database file and syncs both: left to SQLite (wal_autocheckpoint), the commit
// that crosses the log's threshold runs it, and its syncs, on the event loop. The service's
// connection turns that off (embedded.ts), and this worker thread, on a connection of its own to
// the same file, checkpoints in the background. A PASSIVE checkpoint never waits for the writer
// nor makes it wait: it copies what no reader still needs, and the writer starts the log over once
// everything was copied. A failed round (the disk full) leaves the frames in the log, which keeps
// them safe; the next round tries again, and the writes' own errors say what is wrong.
import { Worker } from 'node:worker_threads';

/** How often the worker checkpoints: the log grows by at most what the store writes meanwhile. */
const CHECKPOINT_INTERVAL_MS = 500;

// Plain CommonJS evaluated in the worker, so that the service's bundle needs no file of its own
// for it. synchronous=FULL there: a checkpoint syncs the log before it writes the database, and
// the database after.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { DatabaseSync } = require('node:sqlite');
const db = new DatabaseSync(workerData.path);
db.exec('pragma synchronous = FULL');
const checkpoint = db.prepare('pragma wal_checkpoint(PASSIVE)');
const round = () => { try { checkpoint.get(); } catch {} };
const timer = setInterval(round, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  round();
  db.close();
  parentPort.close();
});
`;

/** Starts checkpointing the store at `path`; the returned function stops it, after a last round. */
export function startCheckpointer(path: string): () => Promise<void> {
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { path, intervalMs: CHECKPOINT_INTERVAL_MS },
  });
  // A worker must not keep a process alive that is otherwise done: the store's close stops it.
  worker.unref();
  // A worker that cannot open the store ends at once; the service's own connection says why.
  worker.on('error', () => undefined);
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return async () => {
    // Stopping is awaited: the worker keeps the process up until its last round is done.
    worker.ref();
    worker.postMessage('stop');
    await exited;
  };
}
