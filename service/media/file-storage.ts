import { chmod, mkdir, mkdtemp, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import type { Database, Queryable } from '../db/database';
import { isReferenced, type ByteSpan, type MediaStorage, type ReceivedFile } from './storage';

const FOLDER_MODE = 0o700;

/** The largest read of a content at once. */
const READ_MAX = 1024 * 1024;

/**
 * A read's size: the whole range a screen asks for (a player's ranges are a few hundred kB) in
 * one read up to READ_MAX, rather than a stream's 64 kB at a time, each a trip to the thread pool.
 */
const chunkOf = (span: ByteSpan | null) =>
  span ? Math.min(READ_MAX, Math.max(64 * 1024, span.end - span.start + 1)) : READ_MAX;
const INCOMING = 'incoming';

/**
 * The embedded store's library: each content a file `<dir>/<sha256>` (the data folder's
 * `media/`), uploads received in `<dir>/incoming/` and renamed into place. SQLite has one process
 * per data folder (its lock), so keeping and removing a content are put in order per content in
 * memory: a removal checks the store once any keeping of the same content has recorded its row.
 * The order is the process's, by the content's path, since the library and the player releases
 * each open a storage on the same folder.
 */
const queues = new Map<string, Promise<unknown>>();

export class FileMediaStorage implements MediaStorage {
  private constructor(
    private readonly db: Database,
    private readonly dir: string,
    private readonly temporary: boolean,
  ) {}

  /** In `dir`, or a temporary folder when null (an in-memory store's, removed on close). */
  static async open(db: Database, dir: string | null): Promise<FileMediaStorage> {
    const incoming = await openIncoming(dir);
    return new FileMediaStorage(db, dirname(incoming.dir), incoming.temporary);
  }

  async incomingDir(): Promise<string> {
    return join(this.dir, INCOMING);
  }

  keep<T>(file: ReceivedFile, record: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.inOrder(file.sha256, async () => {
      const target = this.pathOf(file.sha256);
      if (await exists(target)) await rm(file.path, { force: true });
      else await rename(file.path, target);
      try {
        return await this.db.transaction(record);
      } catch (error) {
        await this.removeUnreferenced(file.sha256);
        throw error;
      }
    });
  }

  async releaseIn(): Promise<void> {
    // The files go once the rows' deletion is committed: released().
  }

  async released(sha256s: readonly string[]): Promise<void> {
    for (const sha256 of new Set(sha256s)) await this.inOrder(sha256, () => this.removeUnreferenced(sha256));
  }

  async read(sha256: string, span: ByteSpan | null): Promise<Readable> {
    // Opened before answering, so that a missing file is an error of the request, not of the
    // stream; the stream reads from that descriptor and closes it.
    const file = await open(this.pathOf(sha256), 'r');
    return file.createReadStream({ highWaterMark: chunkOf(span), ...(span ?? {}) });
  }

  async close(): Promise<void> {
    if (this.temporary) await rm(this.dir, { recursive: true, force: true });
  }

  private pathOf(sha256: string): string {
    if (!/^[0-9a-f]{64}$/.test(sha256)) throw new Error(`not a sha256: ${sha256}`);
    return join(this.dir, sha256);
  }

  private async removeUnreferenced(sha256: string): Promise<void> {
    if (!(await isReferenced(this.db, sha256))) await rm(this.pathOf(sha256), { force: true });
  }

  /** Runs `work` after whatever runs for the same content. */
  private inOrder<T>(sha256: string, work: () => Promise<T>): Promise<T> {
    const key = this.pathOf(sha256);
    const previous = queues.get(key) ?? Promise.resolve();
    const run = previous.catch(() => undefined).then(work);
    const settled = run.catch(() => undefined);
    queues.set(key, settled);
    void settled.then(() => {
      if (queues.get(key) === settled) queues.delete(key);
    });
    return run;
  }
}

/**
 * The folder uploads are received in: `<dir>/incoming`, or one in a new temporary folder when
 * `dir` is null. Made private to the service's user, and emptied: uploads cut off by a stop of
 * the service are of no use.
 */
export async function openIncoming(dir: string | null): Promise<{ dir: string; temporary: boolean }> {
  const folder = dir ?? (await mkdtemp(join(tmpdir(), 'wallboard-media-')));
  const incoming = join(folder, INCOMING);
  await mkdir(incoming, { recursive: true, mode: FOLDER_MODE });
  await chmod(folder, FOLDER_MODE);
  for (const name of await readdir(incoming)) await rm(join(incoming, name), { force: true });
  return { dir: incoming, temporary: dir === null };
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}
