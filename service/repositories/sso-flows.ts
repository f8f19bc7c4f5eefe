import type { Queryable } from '../db/database';

/** A sign-in through the provider under way: what the return from it is checked against. */
export interface SsoFlow {
  account: string;
  state: string;
  nonce: string;
  code_verifier: string;
}

/**
 * Sign-ins under way (migration 26), in the store so that any node finishes what another began.
 * Found by the hash of the browser's cookie, so the row alone does not finish a sign-in.
 */
export class SsoFlowRepository {
  constructor(private readonly db: Queryable) {}

  async create(id: string, flow: SsoFlow, expiresAt: Date): Promise<void> {
    await this.db.kysely
      .insertInto('sso_flows')
      .values({ id, ...flow, expires_at: expiresAt.toISOString() })
      .execute();
  }

  /**
   * Takes the flow of `id` away, live or not: each is used once, so a replayed return finds
   * nothing. Null when there is none or it expired.
   */
  async take(id: string, now: Date): Promise<SsoFlow | null> {
    const row = await this.db.kysely
      .deleteFrom('sso_flows')
      .where('id', '=', id)
      .returning(['account', 'state', 'nonce', 'code_verifier', 'expires_at'])
      .executeTakeFirst();
    if (!row || new Date(row.expires_at).getTime() <= now.getTime()) return null;
    const { expires_at: _expires, ...flow } = row;
    return flow;
  }

  /** Deletes the flows whose time is over: sign-ins begun and never finished. */
  async prune(now: Date): Promise<void> {
    await this.db.kysely.deleteFrom('sso_flows').where('expires_at', '<=', now.toISOString()).execute();
  }
}
