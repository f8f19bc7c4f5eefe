import { sql } from 'kysely';
import type { Queryable } from '../database';
import { columnTypes } from '../column-types';

/**
 * Version 10: several service nodes on one store (docs/deployment.md).
 *
 * - `leases`: work that must happen once across the nodes (the sweep, scripts' schedules, the
 *   weather feed, expiring pairings and commands) runs on the node holding its lease until
 *   `expires_at` (service/cluster/leases.ts).
 * - `socket_io_attachments` (PostgreSQL only): the socket.io PostgreSQL adapter's table for the
 *   messages too large for a NOTIFY, exactly as its documentation gives it.
 */
export async function cluster({ kysely, kind }: Queryable): Promise<void> {
  const t = columnTypes(kind);
  await kysely.schema
    .createTable('leases')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('holder', 'text', (c) => c.notNull())
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .execute();
  if (kind !== 'postgres') return;
  await sql`create table socket_io_attachments (
    id bigserial unique,
    created_at timestamptz default now(),
    payload bytea
  )`.execute(kysely);
}
