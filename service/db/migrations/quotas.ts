import type { Queryable } from '../database';

/**
 * Version 12: quotas per account (service/accounts/quotas.ts). Each is the most an account may
 * hold; null is no limit, so every account made before, the default one included, goes on as it
 * was until an operator sets one (`account update`).
 */
export async function quotas({ kysely }: Queryable): Promise<void> {
  // SQLite adds one column per statement.
  await kysely.schema.alterTable('accounts').addColumn('quota_media_bytes', 'bigint').execute();
  for (const column of ['quota_media_files', 'quota_scripts', 'quota_devices', 'quota_users']) {
    await kysely.schema.alterTable('accounts').addColumn(column, 'integer').execute();
  }
}
