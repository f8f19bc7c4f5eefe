import { describeIssues } from './issues';
import { playlistItemSchema } from './playlist';

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A player state with the playlist items that do not fit the schema taken out of it, each with a
 * logged reason, before the state is checked: one bad item costs that item rather than the whole
 * state.
 */
export function dropBadItems(candidate: unknown, log: (message: string) => void): unknown {
  if (!isRecord(candidate) || !isRecord(candidate.playlist)) return candidate;
  const items = candidate.playlist.items;
  if (!Array.isArray(items)) return candidate;
  const good = items.filter((item: unknown, index) => {
    const parsed = playlistItemSchema.safeParse(item);
    if (!parsed.success) log(`skipped item ${index + 1} of the playlist: ${describeIssues(parsed.error)}`);
    return parsed.success;
  });
  if (good.length === items.length) return candidate;
  return { ...candidate, playlist: { ...candidate.playlist, items: good } };
}
