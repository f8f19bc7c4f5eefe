import { isForeignKeyViolation, isUniqueViolation } from '../db/constraint-errors';
import type { DomainError } from '../domain/errors';

/** What a write's refusals by the store mean, for the constraints it can break. */
export interface Refusals {
  /** A unique value was taken. */
  unique?: () => DomainError;
  /** A row it names is not there (any more). */
  foreignKey?: () => DomainError;
}

/**
 * Runs a write and turns the store's refusals into domain errors, so that no caller reads a
 * store's error codes. Anything else (a full disk, a lost connection) goes on as it was.
 */
export async function refusing<T>(write: Promise<T>, refusals: Refusals): Promise<T> {
  try {
    return await write;
  } catch (error) {
    if (refusals.unique && isUniqueViolation(error)) throw refusals.unique();
    if (refusals.foreignKey && isForeignKeyViolation(error)) throw refusals.foreignKey();
    throw error;
  }
}
