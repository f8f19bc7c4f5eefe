import type { Fetch } from '../agent/ports';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

export function isLoopback(url: URL): boolean {
  return LOOPBACK.has(url.hostname);
}

/**
 * The agent's fetch, allowed to reach the service itself (which the operator chose, http or
 * not, or picked among those found on the network: `serviceUrl` tells which, once known), any
 * https URL, and loopback; anything else (remote media over plain http) is refused, so no board
 * can make the screen load content that anyone on the way could replace, unless the service
 * allows plain http media (`--allow-http-media`: `httpMedia` reads the screen's settings).
 */
export function httpsOnlyFetch(
  fetch: Fetch,
  serviceUrl: () => string | null,
  httpMedia: () => boolean,
): Fetch {
  return (url, init) => {
    const known = serviceUrl();
    const service = known ? new URL(known).origin : null;
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return Promise.reject(new TypeError(`not a URL: ${url.slice(0, 100)}`));
    }
    if (parsed.origin === service || parsed.protocol === 'https:' || isLoopback(parsed)) {
      return fetch(url, init);
    }
    if (parsed.protocol === 'http:' && httpMedia()) return fetch(url, init);
    return Promise.reject(
      new TypeError(
        `refused ${parsed.origin}${parsed.pathname}: remote media is loaded over https only (the service allows http with --allow-http-media)`,
      ),
    );
  };
}
