import type { DataSource } from '../../../../src/shared/data-source';
import { ago } from '../../ui/time';

/** A source's state in a few words, for the list: when it last answered, or why it did not. */
export function lastRunWords(
  source: Pick<DataSource, 'last_run_at' | 'last_ok_at' | 'last_error'>,
  now = Date.now(),
): { text: string; failed: boolean } {
  if (!source.last_run_at) return { text: 'Not run yet', failed: false };
  if (source.last_error)
    return { text: `Failed ${ago(source.last_run_at, now)}: ${source.last_error}`, failed: true };
  return { text: `Answered ${ago(source.last_ok_at ?? source.last_run_at, now)}`, failed: false };
}

/** "feeds 1 widget's flow", "feeds no flow yet". */
export function feedsWords(count: number): string {
  if (count === 0) return 'No flow yet';
  return count === 1 ? '1 flow' : `${count} flows`;
}

/** What the question says a deletion takes away: the flows fed, read afresh. */
export function deletionWords(name: string, flowTags: readonly string[]): string {
  if (flowTags.length === 0) return `${name} feeds no flow. Nothing else changes.`;
  const flows = flowTags.length === 1 ? 'this flow' : `these ${flowTags.length} flows`;
  return `${name} feeds ${flows}. They stop being updated and keep the data they have now.`;
}
