/**
 * The selection of many rows and the work done on them one by one (bulk actions on screens,
 * media and playlists). Pure, so its rules are tested without a page: the pages keep a Set of
 * ids in state and hand it to these.
 */

/** `selection` with `id` in it or out of it. */
export function toggled(selection: ReadonlySet<string>, id: string): Set<string> {
  const next = new Set(selection);
  if (next.has(id)) next.delete(id);
  else next.add(id);
  return next;
}

/**
 * The header's checkbox: when every row shown is selected it clears them; otherwise it selects
 * them all. Rows hidden by a search keep their state either way.
 */
export function allToggled(selection: ReadonlySet<string>, shown: readonly string[]): Set<string> {
  const next = new Set(selection);
  const every = shown.length > 0 && shown.every((id) => next.has(id));
  for (const id of shown) {
    if (every) next.delete(id);
    else next.add(id);
  }
  return next;
}

/** How the header's checkbox looks for the rows shown. */
export function headerState(
  selection: ReadonlySet<string>,
  shown: readonly string[],
): { checked: boolean; indeterminate: boolean } {
  const count = shown.filter((id) => selection.has(id)).length;
  return { checked: count > 0 && count === shown.length, indeterminate: count > 0 && count < shown.length };
}

/** The selection without what no longer exists (deleted here or elsewhere). */
export function kept(selection: ReadonlySet<string>, existing: readonly string[]): Set<string> {
  const present = new Set(existing);
  return new Set([...selection].filter((id) => present.has(id)));
}

/** What a bulk action came to: what was done, and what was refused with the service's reason. */
export interface BulkOutcome {
  total: number;
  done: string[];
  failed: { name: string; reason: string }[];
}

/**
 * Runs `action` on each item in turn (one request at a time: the service answers each in order,
 * and a refusal is told with its item), reporting progress after each; a failure does not stop
 * the rest. Never throws.
 */
export async function runBulk<T>(
  items: readonly T[],
  nameOf: (item: T) => string,
  action: (item: T) => Promise<unknown>,
  onProgress?: (finished: number, total: number) => void,
): Promise<BulkOutcome> {
  const outcome: BulkOutcome = { total: items.length, done: [], failed: [] };
  for (const item of items) {
    try {
      await action(item);
      outcome.done.push(nameOf(item));
    } catch (error) {
      outcome.failed.push({
        name: nameOf(item),
        reason: error instanceof Error ? error.message : String(error),
      });
    }
    onProgress?.(outcome.done.length + outcome.failed.length, items.length);
  }
  return outcome;
}

/** "3 screens" / "1 screen". */
export function counted(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** One line for the outcome: "Deleted 5 media files." or "Tagged 8 of 10 media files; 2 failed." */
export function summary(outcome: BulkOutcome, verb: string, noun: string): string {
  const done = outcome.done.length;
  if (outcome.failed.length === 0) return `${verb} ${counted(done, noun)}.`;
  return `${verb} ${done} of ${counted(outcome.total, noun)}; ${outcome.failed.length} failed.`;
}
