import { sql } from 'kysely';
import type { Queryable } from '../database';
import { columnTypes } from '../column-types';

/**
 * Version 5: people who sign in to the console, and their sessions.
 *
 * `login_key` is the login in lower case and carries the unique constraint, so "Ada" and "ada"
 * are one user on both stores (SQLite and PostgreSQL compare text differently); `login` keeps
 * the spelling given. `password_hash` holds the scrypt parameters and salt with the hash
 * (`scrypt$N$r$p$salt$hash`), so they can be raised later without breaking stored passwords.
 *
 * A session keeps the hash of its secret, never the secret; deleting a user deletes its sessions.
 * Its times are written by the service's clock (not the store's), which decides when it expires.
 */
export async function users({ kysely, kind }: Queryable): Promise<void> {
  const t = columnTypes(kind);
  const { schema } = kysely;
  await schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('login', 'text', (c) => c.notNull())
    .addColumn('login_key', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('admin', 'viewer')`))
    .addColumn('created_at', t.timestamp, t.stamped)
    .addColumn('updated_at', t.timestamp, t.stamped)
    .execute();

  await schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('secret_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .addColumn('last_seen_at', t.timestamp, (c) => c.notNull())
    .execute();
  await schema.createIndex('sessions_user').on('sessions').column('user_id').execute();
  await schema.createIndex('sessions_expiry').on('sessions').column('expires_at').execute();
}
