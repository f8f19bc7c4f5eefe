import type { Queryable } from '../database';
import { columnTypes } from '../column-types';

/**
 * Version 6: the media library. A medium is a row of `media`; its bytes are kept once per
 * content (`sha256`), whichever media share them: on the embedded store as files of the data
 * folder (service/media/file-storage.ts), on PostgreSQL in the database, so that every service
 * node on it reads them: `media_blobs` per content, and its bytes in `media_chunks` of 1 MiB
 * each (service/media/postgres-storage.ts), so that a range reads only the chunks it needs.
 */
export async function media({ kysely, kind }: Queryable): Promise<void> {
  const t = columnTypes(kind);
  const { schema } = kysely;
  await schema
    .createTable('media')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('bytes', 'bigint', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await schema.createIndex('media_sha256').on('media').column('sha256').execute();
  if (kind !== 'postgres') return;

  await schema
    .createTable('media_blobs')
    .addColumn('sha256', 'text', (c) => c.primaryKey())
    .addColumn('bytes', 'bigint', (c) => c.notNull())
    .addColumn('chunk_bytes', 'integer', (c) => c.notNull())
    .execute();
  await schema
    .createTable('media_chunks')
    .addColumn('sha256', 'text', (c) => c.notNull().references('media_blobs.sha256').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('bytes', 'bytea', (c) => c.notNull())
    .addPrimaryKeyConstraint('media_chunks_pk', ['sha256', 'seq'])
    .execute();
}
