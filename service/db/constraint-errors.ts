/**
 * The store's refusals that repositories and routes turn into answers (a taken tag is a 409, a
 * row that names a deleted one a 400 or 404), recognised the same way on both stores.
 */

/** PostgreSQL's SQLSTATE codes (pg puts them in `code`). */
const PG_UNIQUE_VIOLATION = '23505';
const PG_FOREIGN_KEY_VIOLATION = '23503';
/** disk_full, out_of_memory's sibling: the class "insufficient resources". */
const PG_DISK_FULL = '53100';
const SQLITE_FULL = 13;
const NO_SPACE = new Set(['ENOSPC', 'EDQUOT']);
/** read_only_sql_transaction: a standby, or `default_transaction_read_only`. */
const PG_READ_ONLY = '25006';
/** SQLite's primary code; its extended codes (a read-only file, database, directory) keep it in their low byte. */
const SQLITE_READONLY = 8;

/** SQLite's extended result codes (node:sqlite puts them in `errcode`). */
const SQLITE_CONSTRAINT_UNIQUE = 2067;
const SQLITE_CONSTRAINT_PRIMARYKEY = 1555;
const SQLITE_CONSTRAINT_FOREIGNKEY = 787;

function field(error: unknown, name: 'code' | 'errcode'): unknown {
  return typeof error === 'object' && error !== null && name in error
    ? (error as Record<typeof name, unknown>)[name]
    : undefined;
}

/** A unique (or primary key) constraint refused the write. */
export function isUniqueViolation(error: unknown): boolean {
  const errcode = field(error, 'errcode');
  return (
    field(error, 'code') === PG_UNIQUE_VIOLATION ||
    errcode === SQLITE_CONSTRAINT_UNIQUE ||
    errcode === SQLITE_CONSTRAINT_PRIMARYKEY
  );
}

/** A foreign key refused the write: the row it names is not there (any more). */
export function isForeignKeyViolation(error: unknown): boolean {
  return (
    field(error, 'code') === PG_FOREIGN_KEY_VIOLATION ||
    field(error, 'errcode') === SQLITE_CONSTRAINT_FOREIGNKEY
  );
}

/** Each error of the chain `error` and its causes, the first few. */
function* chain(error: unknown): Generator<unknown> {
  for (let at = error, depth = 0; at && depth < 4; at = (at as { cause?: unknown }).cause, depth += 1)
    yield at;
}

/** The store's or the system's code for a full disk, or null. */
function noRoomCode(error: unknown): string | null {
  for (const at of chain(error)) {
    const code = field(at, 'code');
    if (code === PG_DISK_FULL || NO_SPACE.has(code as string)) return code as string;
    if (field(at, 'errcode') === SQLITE_FULL) return 'SQLITE_FULL';
  }
  return null;
}

/** The store's or the system's code for a store that takes no writes, or null. */
function readOnlyCode(error: unknown): string | null {
  for (const at of chain(error)) {
    const code = field(at, 'code');
    if (code === PG_READ_ONLY || code === 'EROFS') return code;
    const errcode = field(at, 'errcode');
    if (typeof errcode === 'number' && (errcode & 0xff) === SQLITE_READONLY) return 'SQLITE_READONLY';
  }
  return null;
}

/**
 * The store (or a file of the service) found no room: the disk is full. Nothing was written; the
 * same request succeeds once there is room again.
 */
export function isStorageFull(error: unknown): boolean {
  return noRoomCode(error) !== null;
}

/** The store takes no writes (a read-only file or file system, a PostgreSQL standby). Nothing was written. */
export function isReadOnlyStore(error: unknown): boolean {
  return readOnlyCode(error) !== null;
}

/**
 * Why no write can succeed on this node now, with the code that said so ("the disk is full
 * (ENOSPC)"), or null for any other failure: one write's own fault says nothing of the next.
 */
export function whyWritesFail(error: unknown): string | null {
  const full = noRoomCode(error);
  if (full) return `the ${full === 'EDQUOT' ? 'disk quota is used up' : 'disk is full'} (${full})`;
  const readOnly = readOnlyCode(error);
  return readOnly ? `the store is read-only (${readOnly})` : null;
}
