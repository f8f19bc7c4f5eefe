import { sql, type ColumnDefinitionBuilder } from 'kysely';
import type { StoreKind } from './database';

/** The column types that differ between the stores; everything else is named alike. */
export function columnTypes(kind: StoreKind) {
  const postgres = kind === 'postgres';
  return {
    /** jsonb, or JSON text (SQLite's JSON functions read text). */
    json: postgres ? ('jsonb' as const) : ('text' as const),
    /** timestamptz, or ISO 8601 text in UTC, which sorts and compares as time does. */
    timestamp: postgres ? ('timestamptz' as const) : ('text' as const),
    /** `not null default now()`, the current time in the column's form. */
    stamped: (column: ColumnDefinitionBuilder) =>
      column.notNull().defaultTo(postgres ? sql`now()` : sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`),
    jsonDefault: (json: string) => (postgres ? sql`${sql.lit(json)}::jsonb` : sql.lit(json)),
    textArray: postgres ? sql`text[]` : ('text' as const),
    /** An ever-increasing integer key. */
    serial: (column: ColumnDefinitionBuilder) =>
      postgres ? column.primaryKey() : column.primaryKey().autoIncrement(),
    serialType: postgres ? ('bigserial' as const) : ('integer' as const),
  };
}
