import type { Selectable } from 'kysely';
import type { Queryable } from '../db/database';
import type { UsersTable } from '../db/schema';
import { lockRows } from '../db/dialect';
import { conflict } from '../domain/errors';
import { newId } from '../ids';
import { refusing } from './refusals';
import { fromJson } from '../db/dialect';
import { isoRequired } from './rows';

export type Role = UsersTable['role'];

/** A user as the API shows it: never its password hash. */
export interface User {
  id: string;
  login: string;
  role: Role;
  /** The screen groups the role applies to; empty: the whole account (src/shared/user.ts). */
  groups: string[];
  /** Made by single sign-on: no password. */
  sso: boolean;
  created_at: string;
  updated_at: string;
}

export interface StoredUser extends User {
  /** Empty for a user of single sign-on: no password signs them in. */
  password_hash: string;
  /** `issuer subject` of a user made by single sign-on, or null. */
  sso_subject: string | null;
  account_id: string;
}

function fromRow(row: Selectable<UsersTable>): StoredUser {
  return {
    id: row.id,
    login: row.login,
    role: row.role,
    groups: fromJson<string[]>(row.groups),
    sso: row.sso_subject !== null,
    password_hash: row.password_hash,
    sso_subject: row.sso_subject,
    account_id: row.account_id,
    created_at: isoRequired(row.created_at),
    updated_at: isoRequired(row.updated_at),
  };
}

export function publicUser({
  password_hash: _hash,
  sso_subject: _subject,
  account_id: _account,
  ...user
}: StoredUser): User {
  return user;
}

/** Logins are case-insensitive: this is the key they are unique by. */
export const loginKey = (login: string) => login.toLowerCase();

export class UserRepository {
  constructor(private readonly db: Queryable) {}

  /** Conflict when the login (in any case) is taken in the account. */
  async create(input: {
    login: string;
    passwordHash: string;
    role: Role;
    groups?: readonly string[];
    ssoSubject?: string;
  }): Promise<StoredUser> {
    const insert = this.db.kysely
      .insertInto('users')
      .values({
        id: newId('usr'),
        login: input.login,
        login_key: loginKey(input.login),
        password_hash: input.passwordHash,
        role: input.role,
        groups: JSON.stringify(input.groups ?? []),
        sso_subject: input.ssoSubject ?? null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return fromRow(await refusing(insert, { unique: () => conflict(`user ${input.login} exists`) }));
  }

  async list(): Promise<StoredUser[]> {
    const rows = await this.db.kysely.selectFrom('users').selectAll().orderBy('login_key').execute();
    return rows.map(fromRow);
  }

  /**
   * The users of `login`, oldest first: within an account one at most; outside any account (signing
   * in, the command line) one per account that has the login, since logins are unique per account.
   */
  async findAllByLogin(login: string): Promise<StoredUser[]> {
    const rows = await this.db.kysely
      .selectFrom('users')
      .selectAll()
      .where('login_key', '=', loginKey(login))
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(fromRow);
  }

  /** The user single sign-on made for `subject` (`issuer subject`) in the current account, or null. */
  async findBySsoSubject(subject: string): Promise<StoredUser | null> {
    const row = await this.db.kysely
      .selectFrom('users')
      .selectAll()
      .where('sso_subject', '=', subject)
      .executeTakeFirst();
    return row ? fromRow(row) : null;
  }

  async findById(id: string): Promise<StoredUser | null> {
    const row = await this.db.kysely.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? fromRow(row) : null;
  }

  /**
   * The ids of the admins, locked until the transaction ends on PostgreSQL (SQLite runs one write
   * transaction at a time): two requests demoting the last two admins cannot both see another left.
   */
  async lockAdmins(): Promise<string[]> {
    const query = this.db.kysely.selectFrom('users').select('id').where('role', '=', 'admin');
    const rows = await lockRows(this.db.kind, query).execute();
    return rows.map((row) => row.id);
  }

  async update(
    id: string,
    set: { role?: Role; passwordHash?: string; groups?: readonly string[] },
    at: Date,
  ): Promise<StoredUser | null> {
    const row = await this.db.kysely
      .updateTable('users')
      .set({
        role: set.role,
        password_hash: set.passwordHash,
        groups: set.groups === undefined ? undefined : JSON.stringify(set.groups),
        updated_at: at.toISOString(),
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row ? fromRow(row) : null;
  }

  async deleteById(id: string): Promise<boolean> {
    const result = await this.db.kysely.deleteFrom('users').where('id', '=', id).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }
}
