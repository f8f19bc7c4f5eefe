import type { Queryable } from '../db/database';
import { fromJson } from '../db/dialect';
import { newId } from '../ids';
import type { Role } from './users';
import { isoRequired } from './rows';

/** A session joined with its user: what a signed-in request acts as. */
export interface SessionWithUser {
  id: string;
  user_id: string;
  login: string;
  role: Role;
  /** The screen groups the user's role is kept to; empty: the whole account. */
  groups: string[];
  /** The user was made by single sign-on. */
  sso: boolean;
  /** The user's account, which the session acts for. */
  account_id: string;
  created_at: string;
  expires_at: string;
  last_seen_at: string;
}

export class SessionRepository {
  constructor(private readonly db: Queryable) {}

  async create(input: { userId: string; secretHash: string; now: Date; expiresAt: Date }): Promise<string> {
    const id = newId('ses');
    await this.db.kysely
      .insertInto('sessions')
      .values({
        id,
        user_id: input.userId,
        secret_hash: input.secretHash,
        created_at: input.now.toISOString(),
        expires_at: input.expiresAt.toISOString(),
        last_seen_at: input.now.toISOString(),
      })
      .execute();
    return id;
  }

  async findByHash(secretHash: string): Promise<SessionWithUser | null> {
    const row = await this.db.kysely
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select([
        'sessions.id',
        'sessions.user_id',
        'users.login',
        'users.role',
        'users.groups',
        'users.sso_subject',
        'users.account_id',
        'sessions.created_at',
        'sessions.expires_at',
        'sessions.last_seen_at',
      ])
      .where('sessions.secret_hash', '=', secretHash)
      .executeTakeFirst();
    if (!row) return null;
    const { groups, sso_subject: subject, ...rest } = row;
    return {
      ...rest,
      groups: fromJson<string[]>(groups),
      sso: subject !== null,
      created_at: isoRequired(row.created_at),
      expires_at: isoRequired(row.expires_at),
      last_seen_at: isoRequired(row.last_seen_at),
    };
  }

  async touch(id: string, at: Date): Promise<void> {
    await this.db.kysely
      .updateTable('sessions')
      .set({ last_seen_at: at.toISOString() })
      .where('id', '=', id)
      .execute();
  }

  async delete(id: string): Promise<void> {
    await this.db.kysely.deleteFrom('sessions').where('id', '=', id).execute();
  }

  async deleteOfUser(userId: string): Promise<void> {
    await this.db.kysely.deleteFrom('sessions').where('user_id', '=', userId).execute();
  }

  /**
   * Deletes the sessions past their absolute expiry or idle since before `idleSince`; their ids.
   * Both are ISO 8601 in UTC, which compare as time does on both stores.
   */
  async prune(now: Date, idleSince: Date): Promise<string[]> {
    const rows = await this.db.kysely
      .deleteFrom('sessions')
      .where((eb) =>
        eb.or([eb('expires_at', '<=', now.toISOString()), eb('last_seen_at', '<', idleSince.toISOString())]),
      )
      .returning('id')
      .execute();
    return rows.map((row) => row.id);
  }
}
