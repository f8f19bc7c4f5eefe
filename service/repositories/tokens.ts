import type { Token, TokenScope } from '../../src/shared/token';
import type { Queryable } from '../db/database';
import { newId } from '../ids';
import { iso, isoRequired, one } from './rows';

interface TokenRow {
  id: string;
  scope: TokenScope;
  name: string;
  secret_hash: string;
  created_at: Date;
  last_used_at: Date | null;
}

export interface StoredToken extends Token {
  secret_hash: string;
}

function fromRow(row: TokenRow): StoredToken {
  return {
    id: row.id,
    scope: row.scope,
    name: row.name,
    secret_hash: row.secret_hash,
    created_at: isoRequired(row.created_at),
    last_used_at: iso(row.last_used_at),
  };
}

export function publicToken({ secret_hash: _hash, ...token }: StoredToken): Token {
  return token;
}

export class TokenRepository {
  constructor(private readonly db: Queryable) {}

  async create(input: { scope: TokenScope; name: string; secretHash: string }): Promise<StoredToken> {
    const rows = await this.db.query<TokenRow>(
      'insert into tokens (id, scope, name, secret_hash) values ($1, $2, $3, $4) returning *',
      [newId('tok'), input.scope, input.name, input.secretHash],
    );
    return fromRow(one(rows));
  }

  async list(scopes: readonly TokenScope[]): Promise<StoredToken[]> {
    const rows = scopes.length
      ? await this.db.query<TokenRow>('select * from tokens where scope = any($1) order by created_at, id', [
          scopes,
        ])
      : await this.db.query<TokenRow>('select * from tokens order by created_at, id');
    return rows.map(fromRow);
  }

  async findByHash(secretHash: string): Promise<StoredToken | null> {
    const rows = await this.db.query<TokenRow>('select * from tokens where secret_hash = $1', [secretHash]);
    return rows[0] ? fromRow(rows[0]) : null;
  }

  async delete(id: string): Promise<boolean> {
    const rows = await this.db.query('delete from tokens where id = $1 returning id', [id]);
    return rows.length > 0;
  }

  async touch(id: string, at: Date): Promise<void> {
    await this.db.query('update tokens set last_used_at = $2 where id = $1', [id, at]);
  }
}
