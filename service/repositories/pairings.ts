import { accountOrDefault } from '../accounts/scope';
import { isUniqueViolation } from '../db/constraint-errors';
import type { Queryable } from '../db/database';
import { newId } from '../ids';
import { iso, isoRequired } from './rows';

/** A pairing as stored; the secret only as its hash, the claimed token's secret until it is read. */
export interface StoredPairing {
  id: string;
  code: string;
  secretHash: string;
  expiresAt: string;
  claimedAt: string | null;
  deviceTag: string | null;
  tokenId: string | null;
  tokenSecret: string | null;
  readAt: string | null;
}

const COLUMNS = [
  'id',
  'code',
  'secret_hash',
  'expires_at',
  'claimed_at',
  'device_tag',
  'token_id',
  'token_secret',
  'read_at',
] as const;

function fromRow(row: {
  id: string;
  code: string;
  secret_hash: string;
  expires_at: Date | string;
  claimed_at: Date | string | null;
  device_tag: string | null;
  token_id: string | null;
  token_secret: string | null;
  read_at: Date | string | null;
}): StoredPairing {
  return {
    id: row.id,
    code: row.code,
    secretHash: row.secret_hash,
    expiresAt: isoRequired(row.expires_at),
    claimedAt: iso(row.claimed_at),
    deviceTag: row.device_tag,
    tokenId: row.token_id,
    tokenSecret: row.token_secret,
    readAt: iso(row.read_at),
  };
}

export class PairingRepository {
  constructor(private readonly db: Queryable) {}

  /** Null when another pairing, live or not yet swept, has the code (the caller draws another). */
  async create(input: { code: string; secretHash: string; expiresAt: Date }): Promise<StoredPairing | null> {
    const insert = this.db.kysely
      .insertInto('pairings')
      .values({
        id: newId('pair'),
        code: input.code,
        secret_hash: input.secretHash,
        expires_at: input.expiresAt.toISOString(),
      })
      .returning(COLUMNS)
      .executeTakeFirstOrThrow();
    try {
      return fromRow(await insert);
    } catch (error) {
      if (isUniqueViolation(error)) return null;
      throw error;
    }
  }

  async find(id: string): Promise<StoredPairing | null> {
    const row = await this.db.kysely
      .selectFrom('pairings')
      .select(COLUMNS)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? fromRow(row) : null;
  }

  /** The pairing waiting for a claim under `code` at `now`, or null. */
  async findClaimable(code: string, now: Date): Promise<StoredPairing | null> {
    const row = await this.db.kysely
      .selectFrom('pairings')
      .select(COLUMNS)
      .where('code', '=', code)
      .where('claimed_at', 'is', null)
      .where('expires_at', '>', now.toISOString())
      .executeTakeFirst();
    return row ? fromRow(row) : null;
  }

  /** How many pairings are live at `now` (waiting for a claim or for their device's read). */
  async countLive(now: Date): Promise<number> {
    const row = await this.db.kysely
      .selectFrom('pairings')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('expires_at', '>', now.toISOString())
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /**
   * Marks the pairing claimed for `deviceTag` with the token, if no one claimed it first; the
   * device has until `expiresAt` to read it. False when it was claimed meanwhile.
   */
  async claim(
    id: string,
    claim: { at: Date; deviceTag: string; tokenId: string; tokenSecret: string; expiresAt: Date },
  ): Promise<boolean> {
    const result = await this.db.kysely
      .updateTable('pairings')
      .set({
        claimed_at: claim.at.toISOString(),
        device_tag: claim.deviceTag,
        token_id: claim.tokenId,
        token_secret: claim.tokenSecret,
        expires_at: claim.expiresAt.toISOString(),
        // Pairings are found by code before anyone's account is known; the claimer's is the screen's.
        account_id: accountOrDefault(),
      })
      .where('id', '=', id)
      .where('claimed_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /**
   * Forgets the token's secret, as its one read; true only for the request that did so, so of
   * two reads racing each other one gets the token and the other does not.
   */
  async markRead(id: string, at: Date): Promise<boolean> {
    const result = await this.db.kysely
      .updateTable('pairings')
      .set({ token_secret: null, read_at: at.toISOString() })
      .where('id', '=', id)
      .where('token_secret', 'is not', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** The tokens of pairings claimed but not read by `now`: their secrets reached no one. */
  async unreadExpiredTokens(now: Date): Promise<string[]> {
    const rows = await this.db.kysely
      .selectFrom('pairings')
      .select('token_id')
      .where('token_secret', 'is not', null)
      .where('expires_at', '<=', now.toISOString())
      .execute();
    return rows.flatMap((row) => (row.token_id ? [row.token_id] : []));
  }

  /** Lets go of the secrets and tokens of pairings expired unread by `now` (kept to answer 410). */
  async forgetUnreadExpired(now: Date): Promise<void> {
    await this.db.kysely
      .updateTable('pairings')
      .set({ token_secret: null, token_id: null })
      .where('token_secret', 'is not', null)
      .where('expires_at', '<=', now.toISOString())
      .execute();
  }

  /** Deletes the pairings that expired before `before`; how many. */
  async deleteExpiredBefore(before: Date): Promise<number> {
    const result = await this.db.kysely
      .deleteFrom('pairings')
      .where('expires_at', '<', before.toISOString())
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
