// The build's maker of the new store's template (store-template.ts): tools/node-bundles.ts
// bundles this and runs it with the file to write.
import { rm } from 'node:fs/promises';
import { sql } from 'kysely';
import { openEmbedded } from './embedded';
import { migrate } from './migrate';

/** Writes the template to `file`: a store with every migration applied and nothing else. */
export async function makeStoreTemplate(file: string): Promise<void> {
  const db = await openEmbedded();
  try {
    await migrate(db);
    await rm(file, { force: true });
    await sql`vacuum into ${file}`.execute(db.kysely);
  } finally {
    await db.close();
  }
}
