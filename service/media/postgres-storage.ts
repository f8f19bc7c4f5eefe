import { open, rm } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { Database, Queryable } from '../db/database';
import { lockRows } from '../db/dialect';
import { openIncoming } from './file-storage';
import { isReferenced, type ByteSpan, type MediaStorage, type ReceivedFile } from './storage';

/** Each row of `media_chunks` holds this many bytes (the last one fewer). */
export const CHUNK_BYTES = 1024 * 1024;

/**
 * PostgreSQL's library: each content a row of `media_blobs` and its bytes in rows of
 * `media_chunks`, so that every service node on the database reads them, and a range reads only
 * its chunks. The blob's row lock puts keeping and removing a content in order across nodes.
 */
export class PostgresMediaStorage implements MediaStorage {
  private constructor(
    private readonly db: Database,
    private readonly incoming: { dir: string; temporary: boolean },
  ) {}

  /** Uploads are received in `<dir>/incoming`, or in a temporary folder when `dir` is null. */
  static async open(db: Database, dir: string | null): Promise<PostgresMediaStorage> {
    return new PostgresMediaStorage(db, await openIncoming(dir));
  }

  async incomingDir(): Promise<string> {
    return this.incoming.dir;
  }

  async keep<T>(file: ReceivedFile, record: (tx: Queryable) => Promise<T>): Promise<T> {
    try {
      return await this.keepIn(file, record);
    } finally {
      await rm(file.path, { force: true });
    }
  }

  private keepIn<T>(file: ReceivedFile, record: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.db.transaction(async (tx) => {
      if (!(await this.lockBlob(tx, file.sha256))) {
        const inserted = await tx.kysely
          .insertInto('media_blobs')
          .values({ sha256: file.sha256, bytes: file.bytes, chunk_bytes: CHUNK_BYTES })
          .onConflict((oc) => oc.column('sha256').doNothing())
          .returning('sha256')
          .executeTakeFirst();
        // Another upload of the same content committed it meanwhile: its bytes are there.
        if (inserted) await writeChunks(tx, file);
        else await this.lockBlob(tx, file.sha256);
      }
      return record(tx);
    });
  }

  async releaseIn(tx: Queryable, sha256s: readonly string[]): Promise<void> {
    for (const sha256 of new Set(sha256s)) {
      // Locked first: an upload of the same content holds it until its row is committed.
      if (!(await this.lockBlob(tx, sha256)) || (await isReferenced(tx, sha256))) continue;
      await tx.kysely.deleteFrom('media_blobs').where('sha256', '=', sha256).execute();
    }
  }

  async released(): Promise<void> {
    // Removed with the rows, in releaseIn.
  }

  async read(sha256: string, span: ByteSpan | null): Promise<Readable> {
    const blob = await this.db.kysely
      .selectFrom('media_blobs')
      .select(['bytes', 'chunk_bytes'])
      .where('sha256', '=', sha256)
      .executeTakeFirst();
    if (!blob) throw new Error(`the bytes of content ${sha256} are missing`);
    const { start, end } = span ?? { start: 0, end: blob.bytes - 1 };
    return Readable.from(this.chunks(sha256, blob.chunk_bytes, start, end));
  }

  async close(): Promise<void> {
    if (this.incoming.temporary) await rm(this.incoming.dir, { recursive: true, force: true });
  }

  /** One chunk at a time, so that memory holds one chunk however large the answer. */
  private async *chunks(sha256: string, size: number, start: number, end: number): AsyncGenerator<Buffer> {
    for (let seq = Math.floor(start / size); seq <= Math.floor(end / size); seq++) {
      const row = await this.db.kysely
        .selectFrom('media_chunks')
        .select('bytes')
        .where('sha256', '=', sha256)
        .where('seq', '=', seq)
        .executeTakeFirst();
      if (!row) throw new Error(`chunk ${seq} of content ${sha256} is missing`);
      const bytes = Buffer.from(row.bytes.buffer, row.bytes.byteOffset, row.bytes.byteLength);
      const from = seq * size;
      yield bytes.subarray(Math.max(0, start - from), Math.min(bytes.length, end - from + 1));
    }
  }

  private async lockBlob(tx: Queryable, sha256: string): Promise<boolean> {
    const row = await lockRows(
      tx.kind,
      tx.kysely.selectFrom('media_blobs').select('sha256').where('sha256', '=', sha256),
    ).executeTakeFirst();
    return row !== undefined;
  }
}

/** The received file's bytes as chunk rows, read one chunk at a time. */
async function writeChunks(tx: Queryable, file: ReceivedFile): Promise<void> {
  const handle = await open(file.path, 'r');
  try {
    const buffer = Buffer.alloc(CHUNK_BYTES);
    for (let seq = 0; seq * CHUNK_BYTES < file.bytes; seq++) {
      const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, seq * CHUNK_BYTES);
      await tx.kysely
        .insertInto('media_chunks')
        .values({ sha256: file.sha256, seq, bytes: buffer.subarray(0, bytesRead) })
        .execute();
    }
  } finally {
    await handle.close();
  }
}
