import type { TokenScope } from '../src/shared/token';
import type { Database } from './db/database';
import { hashSecret } from './http/auth';
import { newId } from './ids';

export const DEFAULT_CHANNEL_ID = 'ch_default';

/** The account's own channel: flows and boards created without one belong to it. */
export async function ensureDefaultChannel(db: Database): Promise<void> {
  await db.query(
    `insert into channels (id, type, name, tag, parent_channel_id)
     values ($1, 'default', 'Default', 'default', null) on conflict do nothing`,
    [DEFAULT_CHANNEL_ID],
  );
}

/** Makes sure a token with this secret exists (WALLBOARD_ADMIN_TOKEN at start). */
export async function ensureToken(
  db: Database,
  secret: string,
  scope: TokenScope,
  name: string,
): Promise<void> {
  if (secret.length < 16) throw new Error('a bootstrap token must be at least 16 characters long');
  await db.query(
    'insert into tokens (id, scope, name, secret_hash) values ($1, $2, $3, $4) on conflict (secret_hash) do nothing',
    [newId('tok'), scope, name, hashSecret(secret)],
  );
}
