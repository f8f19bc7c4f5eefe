import type { TokenScope } from '../src/shared/token';
import type { Database } from './db/database';
import { hashSecret } from './http/auth';
import { newId } from './ids';

/** Makes sure a token with this secret exists (WALLBOARD_ADMIN_TOKEN at start). */
export async function ensureToken(
  db: Database,
  secret: string,
  scope: TokenScope,
  name: string,
): Promise<void> {
  if (secret.length < 16) throw new Error('a bootstrap token must be at least 16 characters long');
  await db.kysely
    .insertInto('tokens')
    .values({ id: newId('tok'), scope, name, secret_hash: hashSecret(secret) })
    .onConflict((conflict) => conflict.column('secret_hash').doNothing())
    .execute();
}
