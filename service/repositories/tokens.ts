import type { Selectable } from 'kysely';
import type { Token, TokenScope } from '../../src/shared/token';
import type { Queryable } from '../db/database';
import type { TokensTable } from '../db/schema';
import { invalid } from '../domain/errors';
import { newId } from '../ids';
import { refusing } from './refusals';
import { iso, isoRequired } from './rows';

export interface StoredToken extends Token {
  secret_hash: string;
  /** The account the token acts for (never shown: a token sees its own account only). */
  account_id: string;
}

function fromRow(row: Selectable<TokensTable>): StoredToken {
  return {
    id: row.id,
    scope: row.scope,
    name: row.name,
    secret_hash: row.secret_hash,
    created_at: isoRequired(row.created_at),
    last_used_at: iso(row.last_used_at),
    device_tag: row.device_tag,
    account_id: row.account_id,
  };
}

export function publicToken({ secret_hash: _hash, account_id: _account, ...token }: StoredToken): Token {
  return token;
}

export const unknownDevice = (tag: string) =>
  invalid(`device ${tag} does not exist`, [
    { path: 'body.device_tag', message: 'must name an existing device' },
  ]);

export class TokenRepository {
  constructor(private readonly db: Queryable) {}

  /** Invalid when `deviceTag` names no device. */
  async create(input: {
    scope: TokenScope;
    name: string;
    secretHash: string;
    deviceTag?: string | null;
  }): Promise<StoredToken> {
    const insert = this.db.kysely
      .insertInto('tokens')
      .values({
        id: newId('tok'),
        scope: input.scope,
        name: input.name,
        secret_hash: input.secretHash,
        device_tag: input.deviceTag ?? null,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return fromRow(await refusing(insert, { foreignKey: () => unknownDevice(input.deviceTag ?? '') }));
  }

  /** The ids of the tokens bound to the device `tag`. */
  async idsBoundTo(tag: string): Promise<string[]> {
    const rows = await this.db.kysely
      .selectFrom('tokens')
      .select('id')
      .where('device_tag', '=', tag)
      .execute();
    return rows.map((row) => row.id);
  }

  async list(scopes: readonly TokenScope[]): Promise<StoredToken[]> {
    const rows = await this.db.kysely
      .selectFrom('tokens')
      .selectAll()
      .$if(scopes.length > 0, (query) => query.where('scope', 'in', scopes))
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(fromRow);
  }

  async findByHash(secretHash: string): Promise<StoredToken | null> {
    const row = await this.db.kysely
      .selectFrom('tokens')
      .selectAll()
      .where('secret_hash', '=', secretHash)
      .executeTakeFirst();
    return row ? fromRow(row) : null;
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.db.kysely.deleteFrom('tokens').where('id', '=', id).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  async touch(id: string, at: Date): Promise<void> {
    await this.db.kysely
      .updateTable('tokens')
      .set({ last_used_at: at.toISOString() })
      .where('id', '=', id)
      .execute();
  }
}
