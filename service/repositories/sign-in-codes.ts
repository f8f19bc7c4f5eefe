import type { Queryable } from '../db/database';
import { newId } from '../ids';

/** One-time sign-in codes, kept as hashes (actions/sign-in-codes.ts). */
export class SignInCodeRepository {
  constructor(private readonly db: Queryable) {}

  async create(input: { userId: string; codeHash: string; now: Date; expiresAt: Date }): Promise<void> {
    await this.db.kysely
      .insertInto('sign_in_codes')
      .values({
        id: newId('sic'),
        user_id: input.userId,
        code_hash: input.codeHash,
        created_at: input.now.toISOString(),
        expires_at: input.expiresAt.toISOString(),
      })
      .execute();
  }

  /**
   * Takes the code: deletes it and answers its user's id when it was still valid at `now`. One
   * statement, so of two requests with the same code one alone gets the user.
   */
  async take(codeHash: string, now: Date): Promise<string | null> {
    const row = await this.db.kysely
      .deleteFrom('sign_in_codes')
      .where('code_hash', '=', codeHash)
      .returning(['user_id', 'expires_at'])
      .executeTakeFirst();
    if (!row) return null;
    return new Date(row.expires_at).getTime() > now.getTime() ? row.user_id : null;
  }

  /** Deletes the codes past their time; how many. */
  async prune(now: Date): Promise<number> {
    const result = await this.db.kysely
      .deleteFrom('sign_in_codes')
      .where('expires_at', '<=', now.toISOString())
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
