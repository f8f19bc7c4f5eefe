import type { Framing } from '../shared/web-content';
import type { Clock, Fetch } from './ports';

/** A page that has not answered by then is unreachable from this screen (it is asked again later). */
export const FRAMING_TIMEOUT_MS = 5_000;
/** How long a verdict holds: a site's headers rarely change, and every board's iframe asks. */
export const FRAMING_CACHE_MS = 5 * 60 * 1000;
/** An unreachable page is asked again sooner: the network may come back. */
export const UNREACHABLE_CACHE_MS = 30 * 1000;
/** Verdicts kept at most: a screen shows a handful of pages, never thousands. */
const MAX_CACHED = 200;

export interface FramingDeps {
  fetch: Fetch;
  clock: Clock;
}

interface Cached {
  framing: Promise<Framing>;
  until: number;
}

/**
 * Whether a web page lets itself be shown inside another page, found from its own headers the
 * way a browser decides it (a CSP `frame-ancestors` wins over `X-Frame-Options`), so the
 * renderer can say so instead of drawing a blank frame. The player is never the page's origin, so
 * `'self'` and `SAMEORIGIN` refuse it too. Only the headers are read; the body is dropped.
 */
export class FramingCheck {
  private readonly cache = new Map<string, Cached>();

  constructor(private readonly deps: FramingDeps) {}

  check(url: string): Promise<Framing> {
    const now = this.deps.clock.now();
    const cached = this.cache.get(url);
    if (cached && cached.until > now) return cached.framing;
    this.cache.delete(url);
    const entry: Cached = { framing: this.ask(url), until: now + FRAMING_CACHE_MS };
    void entry.framing.then((framing) => {
      if (framing.verdict === 'unreachable') entry.until = now + UNREACHABLE_CACHE_MS;
    });
    this.cache.set(url, entry);
    // A Map iterates in insertion order: the first key is the oldest verdict.
    if (this.cache.size > MAX_CACHED) this.cache.delete(this.cache.keys().next().value as string);
    return entry.framing;
  }

  private async ask(url: string): Promise<Framing> {
    const host = hostOf(url);
    const abort = new AbortController();
    const timer = this.deps.clock.setTimeout(() => abort.abort(), FRAMING_TIMEOUT_MS);
    try {
      const response = await this.deps.fetch(url, {
        method: 'GET',
        redirect: 'follow',
        signal: abort.signal,
      });
      // The headers are all this needs: the page itself is the frame's to load.
      void response.body?.cancel().catch(() => undefined);
      if (response.status >= 500) {
        return { url, verdict: 'unreachable', detail: `${host} answered ${response.status}` };
      }
      const refusal = refusalOf(response.headers);
      if (refusal) {
        return {
          url,
          verdict: 'refused',
          // The contract's detail holds 500 characters; a host is at most some 260.
          detail: `${host} refuses to be shown inside another page (${refusal})`.slice(0, 500),
        };
      }
      return { url, verdict: 'allowed', detail: `${host} allows being shown inside another page` };
    } catch (error) {
      const why = abort.signal.aborted ? `no answer within ${FRAMING_TIMEOUT_MS / 1000} s` : causeOf(error);
      return { url, verdict: 'unreachable', detail: `${host} cannot be reached (${why})`.slice(0, 500) };
    } finally {
      timer.cancel();
    }
  }
}

/**
 * The header that refuses framing by a page of another origin, as it reads, or null. Every
 * policy of a Content-Security-Policy is enforced; one with `frame-ancestors` makes browsers
 * ignore X-Frame-Options (CSP Level 2).
 */
export function refusalOf(headers: Headers): string | null {
  const csp = headers.get('content-security-policy');
  if (csp !== null) {
    const directives = csp
      .split(',')
      .map((policy) => frameAncestors(policy))
      .filter((sources): sources is string[] => sources !== null);
    if (directives.length > 0) {
      const refusing = directives.find((sources) => !sources.some(admitsOtherOrigins));
      return refusing
        ? `Content-Security-Policy: frame-ancestors ${refusing.join(' ') || "'none'"}`.slice(0, 200)
        : null;
    }
  }
  const xfo = headers.get('x-frame-options');
  if (xfo === null) return null;
  // The HTML standard's processing: conflicting values refuse, unknown ones (ALLOW-FROM) are ignored.
  const values = new Set(
    xfo
      .split(',')
      .map((value) => value.trim().toLowerCase())
      .filter(Boolean),
  );
  const known = ['deny', 'sameorigin', 'allowall'].filter((value) => values.has(value));
  if (values.size > 1 && known.length > 0) return `X-Frame-Options: ${xfo.trim()}`.slice(0, 200);
  if (values.has('deny')) return 'X-Frame-Options: DENY';
  if (values.has('sameorigin')) return 'X-Frame-Options: SAMEORIGIN';
  return null;
}

/** The sources of a policy's first `frame-ancestors` directive (browsers ignore repeats), or null. */
function frameAncestors(policy: string): string[] | null {
  for (const directive of policy.split(';')) {
    const [name, ...sources] = directive.trim().split(/\s+/);
    if (name?.toLowerCase() === 'frame-ancestors') return sources.filter(Boolean);
  }
  return null;
}

/**
 * Whether a source lets a page of an unknown http(s) origin frame this one: `*` or a scheme. A
 * host source names other sites, never a screen's player; `'self'` is the page's own origin.
 */
function admitsOtherOrigins(source: string): boolean {
  const lower = source.toLowerCase();
  return lower === '*' || lower === 'http:' || lower === 'https:';
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url.slice(0, 100);
  }
}

/** Why fetch failed, in a few words: undici hides the system's code in `cause`. */
function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  if (cause && typeof cause.code === 'string')
    return cause.code === 'ECONNREFUSED' ? 'connection refused' : cause.code;
  if (cause && typeof cause.message === 'string') return cause.message;
  return error instanceof Error ? error.message : String(error);
}
