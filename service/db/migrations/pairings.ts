import type { Queryable } from '../database';
import { columnTypes } from '../column-types';

/**
 * Version 3: pairing screens by a code, and tokens bound to one device.
 *
 * `tokens.device_tag` names the device a token acts for alone. Devices are addressed by tag (it
 * never changes), so the key is the tag, and deleting a device deletes its tokens with it (the
 * action that deletes it also tells the authenticator, which caches tokens).
 *
 * A pairing keeps the hash of its secret, never the secret. Once claimed it holds the new
 * token's secret until its device reads it (`token_secret`, set to null by that read); deleting
 * the device or the token deletes the pairing, and the secret with it.
 */
export async function pairings({ kysely, kind }: Queryable): Promise<void> {
  const t = columnTypes(kind);
  const { schema } = kysely;
  await schema
    .alterTable('tokens')
    .addColumn('device_tag', 'text', (c) => c.references('devices.tag').onDelete('cascade'))
    .execute();
  await schema.createIndex('tokens_device').on('tokens').column('device_tag').execute();

  await schema
    .createTable('pairings')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('code', 'text', (c) => c.notNull().unique())
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, t.stamped)
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .addColumn('claimed_at', t.timestamp)
    .addColumn('device_tag', 'text', (c) => c.references('devices.tag').onDelete('cascade'))
    .addColumn('token_id', 'text', (c) => c.references('tokens.id').onDelete('cascade'))
    .addColumn('token_secret', 'text')
    .addColumn('read_at', t.timestamp)
    .execute();
  await schema.createIndex('pairings_expiry').on('pairings').column('expires_at').execute();
  await schema.createIndex('pairings_device').on('pairings').column('device_tag').execute();
  await schema.createIndex('pairings_token').on('pairings').column('token_id').execute();
}
