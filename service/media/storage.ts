import { acrossAccounts } from '../accounts/scope';
import type { Readable } from 'node:stream';
import type { Queryable } from '../db/database';

/** A file received whole into a temporary file, hashed on the way (receive.ts). */
export interface ReceivedFile {
  path: string;
  sha256: string;
  bytes: number;
}

/** Bytes `start` to `end` of a content, both included (an HTTP range). */
export interface ByteSpan {
  start: number;
  end: number;
}

/**
 * Where the library's bytes live: one interface, two implementations chosen by the store
 * (files of the data folder for the embedded store, chunked rows on PostgreSQL). Bytes are kept
 * once per content (its sha256), whichever media share them; the media rows say which contents
 * are still needed, and a content no row names is removed.
 */
export interface MediaStorage {
  /** A folder for uploads being received: the file storage's own, so that keeping one is a rename. */
  incomingDir(): Promise<string>;
  /**
   * Keeps the bytes of `file` (taken away from its temporary path) and runs `record`, which writes
   * the row naming them, in one step: a removal of the same content cannot come in between.
   */
  keep<T>(file: ReceivedFile, record: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Inside the transaction that deleted media rows: removes the contents no row names any more (PostgreSQL). */
  releaseIn(tx: Queryable, sha256s: readonly string[]): Promise<void>;
  /** After that transaction committed: the same for contents kept outside the store (files). */
  released(sha256s: readonly string[]): Promise<void>;
  /** The bytes of a content, or of a span of it, as a stream that reads them as it goes. */
  read(sha256: string, span: ByteSpan | null): Promise<Readable>;
  /** Frees what the storage holds for the app (a temporary folder). */
  close(): Promise<void>;
}

/** Whether any medium, or any player release's file (docs/updates.md), still names the content `sha256`. */
export async function isReferenced(db: Queryable, sha256: string): Promise<boolean> {
  // By any account: the same content uploaded by two accounts is kept once, for both.
  const row = await acrossAccounts(() =>
    db.kysely.selectFrom('media').select('id').where('sha256', '=', sha256).executeTakeFirst(),
  );
  if (row !== undefined) return true;
  const file = await acrossAccounts(() =>
    db.kysely
      .selectFrom('release_files')
      .select('release_id')
      .where('sha256', '=', sha256)
      .executeTakeFirst(),
  );
  return file !== undefined;
}
