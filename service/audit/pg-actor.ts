import type { PostgresPool, PostgresPoolClient } from 'kysely';
import { currentActor } from './actor';
import { PG_ACTOR_SETTING } from './triggers';

/**
 * `pool`, whose connections carry the actor of the work that checks them out, for the audit
 * triggers to read (triggers.ts): the setting is the session's, so it is written only when the
 * actor differs from the one the connection last carried; work without an actor clears it. Kysely
 * checks a connection out per statement, or once for a whole transaction, in the caller's async
 * context.
 */
export function actorCarryingPool(pool: PostgresPool): PostgresPool {
  const carried = new WeakMap<PostgresPoolClient, string>();
  return {
    options: pool.options,
    async connect() {
      const client = await pool.connect();
      const actor = currentActor();
      const wanted = actor ? JSON.stringify(actor) : '';
      if ((carried.get(client) ?? '') !== wanted) {
        try {
          await client.query(`select set_config('${PG_ACTOR_SETTING}', $1, false)`, [wanted]);
        } catch (error) {
          // A connection that could not take the setting is not handed to anyone else.
          client.release(true);
          throw error;
        }
        carried.set(client, wanted);
      }
      return client;
    },
    end: () => pool.end(),
  };
}
