import { useCallback, useMemo, useState } from 'react';

/**
 * A page's draft of a record's fields (docs/console.md, "One save model"): edits wait for the
 * page's one Save. Only the fields edited are held; the others follow the saved record, so a
 * save by someone else (a notice) is taken in wherever this page has not edited.
 */

/** The fields of `edited` that differ from `saved` (compared as JSON: schedules are objects). */
export function changedFields<T extends object>(saved: T, edited: Partial<T>): Partial<T> {
  const changed: Partial<T> = {};
  for (const key of Object.keys(edited) as (keyof T)[]) {
    if (JSON.stringify(edited[key]) !== JSON.stringify(saved[key])) changed[key] = edited[key];
  }
  return changed;
}

export function useFieldDraft<T extends object>(saved: T) {
  const [edits, setEdits] = useState<Partial<T>>({});
  const values = useMemo(() => ({ ...saved, ...edits }), [saved, edits]);
  const changes = useMemo(() => changedFields(saved, edits), [saved, edits]);
  const set = useCallback(
    <K extends keyof T>(key: K, value: T[K]) => setEdits((current) => ({ ...current, [key]: value })),
    [],
  );
  /** Several fields at once, or fields set by a part of the page that knows only some of them. */
  const patch = useCallback((fields: Partial<T>) => setEdits((current) => ({ ...current, ...fields })), []);
  const drop = useCallback(() => setEdits({}), []);
  return { values, changes, dirty: Object.keys(changes).length > 0, set, patch, drop };
}
