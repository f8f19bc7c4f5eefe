import { sql } from 'kysely';
import { accountOrDefault } from '../accounts/scope';
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
  polledAt: string | null;
}

/** An unclaimed live pairing of one source, as the cap per source weighs it. */
export interface WaitingPairing {
  id: string;
  expiresAt: string;
  polled: boolean;
}

/** Any number, the same in every service: PostgreSQL's advisory lock on starting pairings. */
const PAIRING_START_LOCK = 2_707_311;

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
  'polled_at',
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
  polled_at: Date | string | null;
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
    polledAt: iso(row.polled_at),
  };
}

export class PairingRepository {
  constructor(private readonly db: Queryable) {}

  /**
   * Starting pairings take turns, so that the counts of the caps hold: PostgreSQL's transactions
   * wait for each other here; SQLite has one writer, whose transaction holds the store.
   */
  async lockStarts(): Promise<void> {
    if (this.db.kind === 'postgres') {
      await sql`select pg_advisory_xact_lock(${sql.lit(PAIRING_START_LOCK)})`.execute(this.db.kysely);
    }
  }

  /**
   * Null when another pairing, live or not yet swept, has the code (the caller draws another).
   * The clash does nothing rather than failing, which would end a PostgreSQL transaction.
   */
  async create(input: {
    code: string;
    secretHash: string;
    expiresAt: Date;
    source: string;
  }): Promise<StoredPairing | null> {
    const row = await this.db.kysely
      .insertInto('pairings')
      .values({
        id: newId('pair'),
        code: input.code,
        secret_hash: input.secretHash,
        expires_at: input.expiresAt.toISOString(),
        source: input.source,
      })
      .onConflict((conflict) => conflict.column('code').doNothing())
      .returning(COLUMNS)
      .executeTakeFirst();
    return row ? fromRow(row) : null;
  }

  /** The unclaimed pairings of `source` live at `now`, oldest first. */
  async waitingFrom(source: string, now: Date): Promise<WaitingPairing[]> {
    const rows = await this.db.kysely
      .selectFrom('pairings')
      .select(['id', 'expires_at', 'polled_at'])
      .where('source', '=', source)
      .where('claimed_at', 'is', null)
      .where('expires_at', '>', now.toISOString())
      .orderBy('expires_at')
      .execute();
    return rows.map((row) => ({
      id: row.id,
      expiresAt: isoRequired(row.expires_at),
      polled: row.polled_at !== null,
    }));
  }

  /** The ids of the `limit` oldest live pairings no one claimed and no screen ever polled. */
  async oldestUnpolled(now: Date, limit: number): Promise<string[]> {
    const rows = await this.db.kysely
      .selectFrom('pairings')
      .select('id')
      .where('claimed_at', 'is', null)
      .where('polled_at', 'is', null)
      .where('expires_at', '>', now.toISOString())
      .orderBy('expires_at')
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((row) => row.id);
  }

  /** Lets go of unclaimed pairings (a flood's, to make room): nothing of theirs reached anyone. */
  async deleteUnclaimed(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db.kysely
      .deleteFrom('pairings')
      .where('id', 'in', ids)
      .where('claimed_at', 'is', null)
      .execute();
  }

  /** Notes the screen's first poll; later ones write nothing. */
  async markPolled(id: string, at: Date): Promise<void> {
    await this.db.kysely
      .updateTable('pairings')
      .set({ polled_at: at.toISOString() })
      .where('id', '=', id)
      .where('polled_at', 'is', null)
      .execute();
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
