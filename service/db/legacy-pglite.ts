import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';

/**
 * Opens the PGlite store of an older version's data folder (`<data>/pgdata`), for importing it
 * into SQLite. PGlite is loaded here only, on first use: PostgreSQL compiled to WebAssembly is
 * megabytes the service otherwise never needs. The caller holds the data folder's lock, so a
 * `postmaster.pid` left by a killed PGlite is stale (PGlite would hang on it) and goes.
 */
export async function openLegacyPglite(dataDir: string): Promise<PGlite> {
  const pgdata = join(dataDir, 'pgdata');
  await rm(join(pgdata, 'postmaster.pid'), { force: true });
  const { PGlite } = await import('@electric-sql/pglite');
  return PGlite.create(pgdata);
}
