import { useMemo, useState } from 'react';

/**
 * The screens a playlist is assigned to, as part of the playlist's draft: picked screens wait
 * for the page's one Save with the items (docs/console.md), never applied on their own.
 */

/** What saving the edited assignment does: the screens given the playlist, and those taken off it. */
export function assignmentChanges(
  saved: readonly string[],
  edited: readonly string[],
): { added: string[]; removed: string[] } {
  return {
    added: edited.filter((tag) => !saved.includes(tag)),
    removed: saved.filter((tag) => !edited.includes(tag)),
  };
}

/**
 * Whether saving would leave screens on a playlist with no items (they show "Waiting for a
 * playlist"): the screens it would do that to, among those the edited assignment has. Only the
 * ones the save changes something for count, plus every one of them when the items are emptied.
 */
export function emptiedScreens(
  items: number,
  itemsChanged: boolean,
  saved: readonly string[],
  edited: readonly string[],
): string[] {
  if (items > 0) return [];
  return itemsChanged ? [...edited] : assignmentChanges(saved, edited).added;
}

/** The edited assignment over the service's (`saved`, kept live by its notices). */
export function useAssignmentDraft(saved: readonly string[]) {
  const [edited, setEdited] = useState<string[] | null>(null);
  const tags = edited ?? saved;
  const changes = useMemo(() => assignmentChanges(saved, tags), [saved, tags]);
  return {
    tags,
    changes,
    dirty: edited !== null && (changes.added.length > 0 || changes.removed.length > 0),
    set: (next: string[]) => setEdited(next),
    drop: () => setEdited(null),
  };
}
