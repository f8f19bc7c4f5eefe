import { sql } from 'kysely';
import type { Queryable } from '../database';

/**
 * Version 29: a release's bytes on its row, written with the row in the transaction that checks
 * the account's media quota (accounts/quotas.ts), so that two uploads at once cannot both take the
 * last room while their files are still being kept. Releases made before it get their files' sum.
 */
export async function releaseBytes({ kysely }: Queryable): Promise<void> {
  await kysely.schema
    .alterTable('releases')
    .addColumn('bytes', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`update releases set bytes = (select coalesce(sum(size), 0) from release_files where release_files.release_id = releases.id)`.execute(
    kysely,
  );
}
