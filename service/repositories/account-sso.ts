import type { Selectable } from 'kysely';
import type { UserRole } from '../../src/shared/user';
import type { Queryable } from '../db/database';
import { flag, fromJson, toJson } from '../db/dialect';
import type { AccountSsoTable } from '../db/schema';
import { isoRequired } from './rows';

/** An account's single sign-on as stored, the client secret with it (never answered). */
export interface StoredSso {
  issuer: string;
  client_id: string;
  client_secret: string | null;
  scopes: string[];
  role_claim: string | null;
  role_map: Record<string, UserRole>;
  group_claim: string | null;
  group_map: Record<string, string>;
  default_role: UserRole | null;
  sso_only: boolean;
  created_at: string;
  updated_at: string;
}

/** What a save writes: everything but the times. */
export type SsoWrite = Omit<StoredSso, 'created_at' | 'updated_at'>;

function fromRow(row: Selectable<AccountSsoTable>): StoredSso {
  return {
    issuer: row.issuer,
    client_id: row.client_id,
    client_secret: row.client_secret,
    scopes: fromJson<string[]>(row.scopes),
    role_claim: row.role_claim,
    role_map: fromJson<Record<string, UserRole>>(row.role_map),
    group_claim: row.group_claim,
    group_map: fromJson<Record<string, string>>(row.group_map),
    default_role: row.default_role as UserRole | null,
    sso_only: flag(row.sso_only),
    created_at: isoRequired(row.created_at),
    updated_at: isoRequired(row.updated_at),
  };
}

/** The current account's single sign-on (accounts/account-plugin.ts keeps it to that account). */
export class AccountSsoRepository {
  constructor(private readonly db: Queryable) {}

  async find(): Promise<StoredSso | null> {
    const row = await this.db.kysely.selectFrom('account_sso').selectAll().executeTakeFirst();
    return row ? fromRow(row) : null;
  }

  /** Replaces the account's configuration, or makes it; run in a transaction (read, then write). */
  async save(sso: SsoWrite, at: Date): Promise<StoredSso> {
    const values = {
      ...sso,
      scopes: toJson(sso.scopes),
      role_map: toJson(sso.role_map),
      group_map: toJson(sso.group_map),
      updated_at: at.toISOString(),
    };
    const updated = await this.db.kysely
      .updateTable('account_sso')
      .set(values)
      .returningAll()
      .executeTakeFirst();
    if (updated) return fromRow(updated);
    const created = await this.db.kysely
      .insertInto('account_sso')
      .values({ ...values, created_at: at.toISOString() })
      .returningAll()
      .executeTakeFirstOrThrow();
    return fromRow(created);
  }

  /** Whether there was one. */
  async delete(): Promise<boolean> {
    const result = await this.db.kysely.deleteFrom('account_sso').executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
