import type { Queryable } from '../database';
import { columnTypes } from '../column-types';

/**
 * Version 13: pairings know where they came from and whether their screen has asked about them
 * (issue 27). `source` (an IPv4 address, or an IPv6 /64) caps the live pairings one source holds;
 * `polled_at`, set by the screen's first poll, tells a screen that waits for its code from a
 * flood's pairings that nobody watches, which make room first when the table is full. Pairings
 * made before have neither: they count for no source, and were polled or are soon gone.
 */
export async function pairingSources({ kysely, kind }: Queryable): Promise<void> {
  const t = columnTypes(kind);
  const { schema } = kysely;
  // One column per statement: SQLite's alter table adds one at a time.
  await schema.alterTable('pairings').addColumn('source', 'text').execute();
  await schema.alterTable('pairings').addColumn('polled_at', t.timestamp).execute();
  await schema.createIndex('pairings_source').on('pairings').columns(['source', 'expires_at']).execute();
}
