// Upgrades lose nothing: a data folder of an older version holds its store in PGlite
// (`<data>/pgdata`). On the first start of the SQLite store in that folder its rows are copied
// over, in one transaction, and the old folder is renamed so that it is not imported twice (and
// stays as a copy until the operator removes it).
import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { Database, Queryable } from './database';
import { toJson, toTextArray } from './dialect';
import { openLegacyPglite } from './legacy-pglite';
import type { Schema } from './schema';
import { exists } from './sqlite-files';

type Table = Exclude<keyof Schema, 'schema_migrations'>;

/** Every table, parents before children (foreign keys), with its JSON columns. */
const TABLES: readonly { name: Table; json: readonly string[]; order: string }[] = [
  { name: 'tokens', json: [], order: 'created_at, id' },
  { name: 'channels', json: [], order: 'parent_channel_id nulls first, created_at, id' },
  { name: 'flows', json: ['parameters', 'data'], order: 'created_at, id' },
  { name: 'boards', json: ['settings'], order: 'created_at, id' },
  { name: 'widgets', json: [], order: 'id' },
  { name: 'notifications', json: [], order: 'created_at, id' },
  { name: 'playlists', json: ['items'], order: 'created_at, id' },
  { name: 'devices', json: ['diagnostics'], order: 'created_at, id' },
  { name: 'events', json: ['payload'], order: 'id' },
  { name: 'scripts', json: [], order: 'created_at, id' },
  { name: 'script_runs', json: ['logs'], order: 'seq' },
];

const BATCH = 200;

export const LEGACY_FOLDER = 'pgdata';

async function isEmpty(db: Queryable): Promise<boolean> {
  for (const { name } of TABLES) {
    const row = await db.kysely
      .selectFrom(name)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst();
    if (Number(row?.n ?? 0) > 0) return false;
  }
  return true;
}

/** A PGlite value as the SQLite store keeps it. */
function stored(column: string, value: unknown, json: readonly string[]): unknown {
  if (value === null || value === undefined) return null;
  if (column === 'rooms' && Array.isArray(value)) return toTextArray('sqlite', value as string[]);
  if (json.includes(column)) return toJson(value);
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'bigint') return Number(value);
  return value;
}

/**
 * Imports `<dataDir>/pgdata` into `db` (a freshly migrated SQLite store of that folder, whose lock
 * the caller holds) when it is there and the store is still empty. Returns the rows copied per
 * table, or null when there was nothing to import.
 */
export async function importLegacyStore(
  db: Database,
  dataDir: string,
  now: Date,
): Promise<Record<string, number> | null> {
  const legacy = join(dataDir, LEGACY_FOLDER);
  if (!(await exists(legacy))) return null;
  if (!(await isEmpty(db))) {
    throw new Error(
      `${legacy} holds an older version's store, and ${dataDir} has a store with data already; ` +
        `move one of them aside (the old folder is imported only into an empty store)`,
    );
  }
  const pglite = await openLegacyPglite(dataDir);
  const counts: Record<string, number> = {};
  try {
    await db.transaction(async (tx) => {
      for (const { name, json, order } of TABLES) {
        const { rows } = await pglite.query<Record<string, unknown>>(
          `select * from ${name} order by ${order}`,
        );
        counts[name] = rows.length;
        for (let start = 0; start < rows.length; start += BATCH) {
          const values = rows
            .slice(start, start + BATCH)
            .map((row) =>
              Object.fromEntries(Object.entries(row).map(([key, value]) => [key, stored(key, value, json)])),
            );
          // The rows have the table's own columns, as the older version wrote them.
          await tx.kysely
            .insertInto(name)
            .values(values as never)
            .execute();
        }
      }
    });
  } finally {
    await pglite.close();
  }
  await rename(legacy, `${legacy}.imported-${now.toISOString().replace(/[:.]/g, '-')}`);
  return counts;
}
