/**
 * Timestamps come back as Date from PostgreSQL and as the ISO 8601 text they were written as
 * from SQLite; the API speaks ISO 8601.
 */
export function iso(value: Date | string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

export function isoRequired(value: Date | string): string {
  return iso(value) as string;
}

/**
 * Whether an `update … set` object sets nothing: Kysely leaves out the fields that are undefined,
 * so a patch can be handed over as it is, once it is known to set something.
 */
export function setsNothing(set: Record<string, unknown>): boolean {
  return Object.values(set).every((value) => value === undefined);
}
