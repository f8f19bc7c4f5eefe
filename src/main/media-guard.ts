import type { Fetch } from '../agent/ports';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

export function isLoopback(url: URL): boolean {
  return LOOPBACK.has(url.hostname);
}

/**
 * The agent's fetch, allowed to reach the service itself (which the operator chose, http or
 * not), any https URL, and loopback; anything else (remote media over plain http) is refused, so
 * no board can make the screen load content that anyone on the way could replace.
 */
export function httpsOnlyFetch(fetch: Fetch, serviceUrl: string): Fetch {
  const service = new URL(serviceUrl).origin;
  return (url, init) => {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return Promise.reject(new TypeError(`not a URL: ${url.slice(0, 100)}`));
    }
    if (parsed.origin === service || parsed.protocol === 'https:' || isLoopback(parsed)) {
      return fetch(url, init);
    }
    return Promise.reject(
      new TypeError(`refused ${parsed.origin}${parsed.pathname}: remote media is loaded over https only`),
    );
  };
}
