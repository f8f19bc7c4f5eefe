import { CONSOLE_BASE } from '../../../../src/shared/console-page';

/** The Screens page's search parameter that opens its pair dialog with this code filled in. */
export const PAIR_PARAM = 'pair';

/**
 * Where a screen's pairing link leads, or null for any other address. A screen shows the link in
 * its QR code, `<service>/#/pair?code=7K4QXM` (src/agent/pairing.ts); the console's routes are
 * paths, so that address alone is its home page with a fragment nobody reads. It leads to the
 * Screens page instead, under /console/ so that a reload finds the page again.
 */
export function pairLinkTarget(hash: string): string | null {
  const query = /^#\/pair\?(.*)$/.exec(hash)?.[1];
  const code = query === undefined ? null : new URLSearchParams(query).get('code')?.trim();
  if (!code) return null;
  return `${CONSOLE_BASE}screens?${new URLSearchParams({ [PAIR_PARAM]: code }).toString()}`;
}

/**
 * Rewrites a pairing link in the address bar into the Screens page's, in place (no new history
 * entry). Done before the router reads the address, and before sign-in: the page signed out is
 * the sign-in page at that address, and signed in it is the Screens page with the dialog open.
 */
export function followPairLink(): void {
  const target = pairLinkTarget(window.location.hash);
  if (target) window.history.replaceState(null, '', target);
}
