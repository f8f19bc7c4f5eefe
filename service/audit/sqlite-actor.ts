import type { DatabaseSync } from 'node:sqlite';
import { currentActor } from './actor';

/** The SQL function the embedded store's audit triggers call (triggers.ts). */
export const SQLITE_ACTOR_FUNCTION = 'wallboard_actor';

/**
 * Gives `database` the function its audit triggers test: the actor of the work that runs the
 * statement, as JSON, or NULL (nothing is recorded). node:sqlite calls it synchronously inside
 * the statement, in the caller's async context; the group commit runs each write bound to its
 * caller's context (db/group-commit.ts), so each savepoint sees its own actor. Every connection
 * that writes must have it: a trigger calling an unknown function fails the write.
 */
export function registerActorFunction(database: DatabaseSync): void {
  database.function(SQLITE_ACTOR_FUNCTION, { deterministic: false }, () => {
    const actor = currentActor();
    return actor ? JSON.stringify(actor) : null;
  });
}
