import { sql, type Expression, type SqlBool } from 'kysely';
import type { StoreKind } from './database';

/**
 * The few SQL fragments that differ between PostgreSQL and SQLite. Repositories are written once
 * with Kysely's query builder and call these where the two stores truly disagree; everything
 * else is the same query on both.
 */

/** JSON for a JSON column: text on both stores (PostgreSQL's jsonb takes it typed by the column). */
export function toJson(value: unknown): string {
  return JSON.stringify(value);
}

/**
 * JSON text as a JSON value where no column types it (a `case` expression): PostgreSQL's jsonb
 * needs the cast, SQLite keeps the text.
 */
export function jsonValue(kind: StoreKind, text: string): Expression<string> {
  return kind === 'postgres' ? sql<string>`cast(${text} as jsonb)` : sql<string>`${text}`;
}

/** A JSON column as read: both stores hand back its text (see postgres.ts). */
export function fromJson<T>(text: string): T {
  return JSON.parse(text) as T;
}

/** A JSON column that may be null. */
export function fromJsonOrNull<T>(text: string | null): T | null {
  return text === null ? null : fromJson<T>(text);
}

/** `events.rooms` as written: PostgreSQL's `text[]`, or a JSON array in SQLite, which has no arrays. */
export function toTextArray(kind: StoreKind, values: readonly string[]): string[] | string {
  return kind === 'postgres' ? [...values] : JSON.stringify(values);
}

/** `events.rooms` as read back, from either store. */
export function fromTextArray(value: string[] | string): string[] {
  return typeof value === 'string' ? (JSON.parse(value) as string[]) : value;
}

/** Whether the `text[]` (PostgreSQL) or JSON array (SQLite) column `column` shares a value with `values`. */
export function overlaps(kind: StoreKind, column: string, values: readonly string[]): Expression<SqlBool> {
  if (values.length === 0) return sql<SqlBool>`1 = 0`;
  if (kind === 'postgres') return sql<SqlBool>`${sql.ref(column)} && cast(${[...values]} as text[])`;
  return sql<SqlBool>`exists (select 1 from json_each(${sql.ref(column)}) as e where e.value in (${sql.join(values)}))`;
}

/**
 * Whether the JSON array `array` holds an element among `values`; with `key`, an object element
 * whose field `key` is among them. `->>` reads a field the same way in both stores; only the
 * function that lists an array's elements is named differently.
 */
export function jsonArrayHasAny(
  kind: StoreKind,
  array: Expression<unknown>,
  values: readonly string[],
  key?: string,
): Expression<SqlBool> {
  if (values.length === 0) return sql<SqlBool>`1 = 0`;
  const elements =
    kind === 'postgres'
      ? key === undefined
        ? sql`jsonb_array_elements_text(${array})`
        : sql`jsonb_array_elements(${array})`
      : sql`json_each(${array})`;
  const element = key === undefined ? sql`e.value` : sql`e.value ->> ${sql.lit(key)}`;
  return sql<SqlBool>`exists (select 1 from ${elements} as e where ${element} in (${sql.join(values)}))`;
}

/** The JSON value at `key` of the JSON object column `column`, as JSON (for jsonArrayHasAny). */
export function jsonField(column: string, key: string): Expression<unknown> {
  return sql`${sql.ref(column)} -> ${sql.lit(key)}`;
}

/**
 * Locks the rows a select reads until the transaction ends, so a read-then-write cannot lose a
 * concurrent write. PostgreSQL needs `for update`; SQLite has none and needs none: the store has
 * one connection and a transaction holds it (Kysely's SQLite driver queues everyone else), so no
 * other write can come between.
 */
export function lockRows<Query extends { forUpdate(): Query }>(kind: StoreKind, query: Query): Query {
  return kind === 'postgres' ? query.forUpdate() : query;
}

/** SQLite's booleans are 0 and 1. */
export function flag(value: boolean | number): boolean {
  return value === true || value === 1;
}

/** The length in bytes of a JSON (or text) column as the store keeps it. */
export function textLength(kind: StoreKind, column: string): Expression<number> {
  return kind === 'postgres'
    ? sql<number>`octet_length(${sql.ref(column)}::text)`
    : sql<number>`length(cast(${sql.ref(column)} as blob))`;
}
