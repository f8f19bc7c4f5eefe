import { sql } from 'kysely';
import type { Queryable } from '../db/database';

/** Room for a "-N" suffix within the 100 characters of a tag. */
const SLUG_MAX = 90;

/**
 * A tag made of a name: "Sales EU (night)" becomes "sales-eu-night"; `fallback` when nothing of
 * the name is left (a name of punctuation only).
 */
export function slugOf(name: string, fallback: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9_.-]+/g, '-')
    .replace(/^[^a-z0-9]+/, '')
    .slice(0, SLUG_MAX)
    .replace(/[-_.]+$/, '');
  return slug || fallback;
}

/**
 * The first tag among `slug`, `slug-2`, `slug-3`… that no row of `table` has and that is not in
 * `reserved` (tags a write is about to use, such as those an import names further on).
 */
export async function freeTag(
  db: Queryable,
  table: 'channels' | 'flows',
  slug: string,
  reserved: ReadonlySet<string> = new Set(),
): Promise<string> {
  const prefix = `${slug}-`;
  const rows = await db.kysely
    .selectFrom(table)
    .select('tag')
    .where((eb) =>
      eb.or([
        eb('tag', '=', slug),
        // substr rather than like: a slug may hold `_`, which like reads as a wildcard.
        eb(eb.fn('substr', ['tag', sql.lit(1), sql.lit(prefix.length)]), '=', prefix),
      ]),
    )
    .execute();
  const taken = new Set([...reserved, ...rows.map((row) => row.tag)]);
  if (!taken.has(slug)) return slug;
  let n = 2;
  while (taken.has(`${slug}-${n}`)) n += 1;
  return `${slug}-${n}`;
}

/**
 * The tag of a new flow for a widget of `variant` on the board `boardName`, as the console names
 * it too: `<board>-<variant>`, `-2`, `-3`… when taken (or `reserved`).
 */
export function freeFlowTag(
  db: Queryable,
  boardName: string,
  variant: string,
  reserved?: ReadonlySet<string>,
): Promise<string> {
  return freeTag(db, 'flows', slugOf(`${boardName}-${variant}`, variant), reserved);
}
