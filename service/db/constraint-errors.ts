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

/**
 * The store (or a file of the service) found no room: the disk is full. Nothing was written; the
 * same request succeeds once there is room again.
 */
export function isStorageFull(error: unknown): boolean {
  for (let at = error, depth = 0; at && depth < 4; at = (at as { cause?: unknown }).cause, depth += 1) {
    const code = field(at, 'code');
    if (code === PG_DISK_FULL || NO_SPACE.has(code as string) || field(at, 'errcode') === SQLITE_FULL)
      return true;
  }
  return false;
}
