import type { Queryable } from '../database';

/**
 * Version 17: play reports across the account's screens (`GET /plays`, `GET /plays/totals`). They
 * read an account's plays by start: `plays_started` (start alone) walks every account's plays of
 * the range and `plays_device` one screen's. The id closes the key of the list's pages (by start,
 * then id), so that a page starts where the last one ended, in the index's own order.
 */
export async function playReports({ kysely }: Queryable): Promise<void> {
  await kysely.schema
    .createIndex('plays_account_started')
    .on('plays')
    .columns(['account_id', 'started_at', 'id'])
    .execute();
}
