import type { Queryable } from '../database';
import { columnTypes } from '../column-types';
import { allowWebPlays } from './web-plays';

/**
 * Version 9, content from the web: a custom widget's own HTML, CSS and JavaScript (`widgets.code`,
 * JSON, null for every other variant: src/shared/web-content.ts, customCodeSchema).
 */
export async function webContent({ kysely, kind }: Queryable): Promise<void> {
  await kysely.schema.alterTable('widgets').addColumn('code', columnTypes(kind).json).execute();
  // Proof of play of web page items.
  await allowWebPlays({ kysely, kind });
}
