import type { Queryable } from '../database';
import { columnTypes } from '../column-types';

/**
 * Version 21: organising the media library (docs/api/media.md). `tags` are the operator's labels
 * (a JSON array of strings, many per medium), `expires_at` the time after which screens stop
 * playing it (null: never). A replaced file keeps its row and id: only `sha256`, `bytes`,
 * `content_type` change, so nothing new is needed for it.
 */
export async function mediaOrganisation({ kysely, kind }: Queryable): Promise<void> {
  const t = columnTypes(kind);
  await kysely.schema
    .alterTable('media')
    .addColumn('tags', t.json, (c) => c.notNull().defaultTo(t.jsonDefault('[]')))
    .execute();
  await kysely.schema.alterTable('media').addColumn('expires_at', t.timestamp).execute();
}
