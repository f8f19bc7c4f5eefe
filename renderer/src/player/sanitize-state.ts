import { describeIssues } from '../../../src/shared/issues';
import { playlistItemSchema } from '../../../src/shared/playlist';

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Takes the items of a state's playlist that do not fit the schema out of it, each with a logged
 * reason, so one bad item costs that item rather than the whole state.
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
