import type { CapAlert } from './alert';
import { readDocument, readLinkedAlert } from './document';
import { CAP_FETCH_LIMITS, fetchText, type FetchLimits } from './fetch';
import { CapFeedError } from './xml';

/**
 * The most alerts one poll follows links to. Each is a request of its own within the same
 * limits; a feed that links more fails whole (its overrides kept), rather than being read in part:
 * a part would make the alerts left unread look gone from the feed, and clear their overrides.
 */
export const MAX_LINKED_ALERTS = 50;
/** Linked alerts are fetched this many at a time. */
const LINK_CONCURRENCY = 4;

/**
 * Every CAP alert the feed at `url` holds now, read in full or not at all: any failure (the feed
 * or one linked alert unreachable, too large, too slow, not XML, not CAP) is a CapFeedError, so
 * the poll changes nothing.
 */
export async function readFeed(
  url: string,
  limits: FetchLimits = CAP_FETCH_LIMITS,
  signal?: AbortSignal,
): Promise<CapAlert[]> {
  const document = readDocument(await fetchText(url, limits, signal), url);
  const links = [...new Set(document.links)];
  if (links.length > MAX_LINKED_ALERTS)
    throw new CapFeedError(
      `the feed links to ${links.length} alerts, more than the ${MAX_LINKED_ALERTS} a poll follows`,
    );
  const linked: CapAlert[] = new Array<CapAlert>(links.length);
  // The first failure decides the poll: the requests still under way are cut short.
  const failed = new AbortController();
  const each = signal ? AbortSignal.any([signal, failed.signal]) : failed.signal;
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < links.length; i = next++) {
      const link = links[i] as string;
      linked[i] = readLinkedAlert(await fetchText(link, limits, each), link);
    }
  };
  // The first failure is the reason, not the aborts it then caused in the other workers.
  let reason: { error: unknown } | null = null;
  const workers = Array.from({ length: Math.min(LINK_CONCURRENCY, links.length) }, () =>
    worker().catch((error: unknown) => {
      reason ??= { error };
      failed.abort();
    }),
  );
  await Promise.all(workers);
  if (reason) throw (reason as { error: unknown }).error;
  return [...document.alerts, ...linked];
}
