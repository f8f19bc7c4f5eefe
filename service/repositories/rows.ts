/** Timestamps come back as Date from both stores; the API speaks ISO 8601. */
export function iso(value: Date | string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

export function isoRequired(value: Date | string): string {
  return iso(value) as string;
}

/** Builds "a = $1, b = $2" and its parameters from the defined fields of a patch. */
export function setClause(
  patch: Record<string, unknown>,
  columns: Record<string, string>,
  firstParam = 1,
): { sql: string; params: unknown[] } {
  const parts: string[] = [];
  const params: unknown[] = [];
  for (const [field, column] of Object.entries(columns)) {
    if (patch[field] === undefined) continue;
    params.push(patch[field]);
    parts.push(`${column} = $${firstParam + params.length - 1}`);
  }
  return { sql: parts.join(', '), params };
}

/** The row an `insert … returning` or `update … returning` must give back. */
export function one<T>(rows: readonly T[]): T {
  const row = rows[0];
  if (row === undefined) throw new Error('the database returned no row where one was expected');
  return row;
}
