import type { Media } from '../../../../src/shared/media';

/** Tags as people read them: "Lobby" and "lobby" are one (as the service keeps them). */
const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** Every tag of the library once, sorted as people read them, with how many media have it. */
export function libraryTags(media: readonly Media[]): { tag: string; count: number }[] {
  const counts = new Map<string, { tag: string; count: number }>();
  for (const medium of media) {
    for (const tag of medium.tags) {
      const key = tag.toLowerCase();
      const entry = counts.get(key) ?? { tag, count: 0 };
      counts.set(key, { ...entry, count: entry.count + 1 });
    }
  }
  const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });
  return [...counts.values()].sort((a, b) => collator.compare(a.tag, b.tag));
}

/** The media with `tag` (all of them for null), and those whose name holds every word of `search`. */
export function filterMedia(media: readonly Media[], tag: string | null, search: string): Media[] {
  const words = search.toLowerCase().split(/\s+/).filter(Boolean);
  return media.filter(
    (medium) =>
      (tag === null || medium.tags.some((own) => same(own, tag))) &&
      words.every((word) => medium.name.toLowerCase().includes(word)),
  );
}

/** A medium's tags with `added` and without `removed`, each once: what a bulk tagging sends. */
export function retagged(
  tags: readonly string[],
  added: readonly string[],
  removed: readonly string[],
): string[] {
  const next = tags.filter((tag) => !removed.some((gone) => same(gone, tag)));
  for (const tag of added) if (!next.some((own) => same(own, tag))) next.push(tag.trim());
  return next;
}
