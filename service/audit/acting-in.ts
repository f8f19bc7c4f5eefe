import { sql } from 'kysely';
import type { Queryable } from '../db/database';
import { withActor, type Actor } from './actor';
import { PG_ACTOR_SETTING } from './triggers';

/**
 * Runs `work` in the transaction `tx` as `actor` (none: as no one), for a transaction that writes
 * for several callers at once (actions/coalesced-writes.ts): SQLite's triggers ask the async
 * context (sqlite-actor.ts); PostgreSQL's read the setting, which the connection took when the
 * transaction began (pg-actor.ts), so it is set for the transaction alone here, and put back.
 */
export async function actingIn<T>(
  tx: Queryable,
  actor: Actor | undefined,
  work: () => Promise<T>,
): Promise<T> {
  if (tx.kind === 'sqlite') return actor ? withActor(actor, work) : work();
  const set = (value: string) =>
    sql`select set_config(${PG_ACTOR_SETTING}, ${value}, true)`.execute(tx.kysely);
  await set(actor ? JSON.stringify(actor) : '');
  const result = await work();
  await set('');
  return result;
}
