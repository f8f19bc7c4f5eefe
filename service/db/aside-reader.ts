// Long reads of the embedded store off the event loop. node:sqlite runs a statement on the thread
// that calls it: a report that reads millions of rows (the fleet's play totals over 30 days, some
// seconds) would hold the event loop that long, and every screen and operator of every account
// would wait. Such reads go to a worker thread instead, on a read-only connection of its own to the
// same file: WAL lets it read beside the service's writer, and it sees what was committed. The
// statement is compiled (and so kept to the caller's account, accounts/account-plugin.ts) on the
// event loop; only its text and parameters cross to the worker, and only rows come back.
import { Worker } from 'node:worker_threads';
import type { CompiledQuery } from 'kysely';
import { sqliteParameters } from './node-sqlite-adapter';

// Plain CommonJS evaluated in the worker, as checkpointer.ts's: the bundle needs no file for it.
// Reads one statement at a time, in the order asked; a failure answers its own request only.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { DatabaseSync } = require('node:sqlite');
const db = new DatabaseSync(workerData.path, { readOnly: true });
db.exec('pragma busy_timeout = 5000');
parentPort.on('message', (message) => {
  if (message === 'stop') {
    db.close();
    parentPort.close();
    return;
  }
  try {
    parentPort.postMessage({ rows: db.prepare(message.sql).all(...message.parameters) });
  } catch (error) {
    parentPort.postMessage({ error: String(error && error.message ? error.message : error) });
  }
});
`;

type Answer = { rows: unknown[] } | { error: string };

export interface AsideReader {
  /** The rows of a compiled select, read on the worker. */
  all<R>(query: CompiledQuery<R>): Promise<R[]>;
  /** Stops the worker (if it ever started), once the reads under way are answered. */
  stop(): Promise<void>;
}

/**
 * A reader of the store at `path`. Its worker starts at the first read: most services never run a
 * report, and need no thread for it.
 */
export function asideReader(path: string): AsideReader {
  let worker: Worker | undefined;
  let exited: Promise<void> = Promise.resolve();
  const waiting: { resolve: (rows: unknown[]) => void; reject: (error: Error) => void }[] = [];

  const start = (): Worker => {
    const started = new Worker(WORKER_SOURCE, { eval: true, workerData: { path } });
    exited = new Promise<void>((resolve) =>
      started.once('exit', () => {
        worker = undefined;
        for (const { reject } of waiting.splice(0)) reject(new Error('the store closed during a read'));
        resolve();
      }),
    );
    // A worker that cannot open the store ends; its reads fail with what it said.
    started.on('error', (error) => {
      for (const { reject } of waiting.splice(0)) reject(error);
    });
    // Answers come in the order of the requests; the process stays up while one is awaited.
    started.on('message', (answer: Answer) => {
      const next = waiting.shift();
      if (waiting.length === 0) started.unref();
      if ('rows' in answer) next?.resolve(answer.rows);
      else next?.reject(new Error(answer.error));
    });
    started.unref();
    return started;
  };

  return {
    all<R>(query: CompiledQuery<R>): Promise<R[]> {
      worker ??= start();
      const reading = worker;
      return new Promise<R[]>((resolve, reject) => {
        waiting.push({ resolve: (rows) => resolve(rows as R[]), reject });
        reading.ref();
        reading.postMessage({ sql: query.sql, parameters: sqliteParameters(query.parameters) });
      });
    },
    async stop() {
      if (!worker) return;
      // Asked after the reads under way: the worker answers them first. Awaited, it keeps the
      // process up until then.
      worker.ref();
      worker.postMessage('stop');
      await exited;
    },
  };
}
