import { CapFeedError } from './xml';

/** How much of one answer is read, and for how long: a feed is a few kilobytes. */
export interface FetchLimits {
  /** Bytes of the body, after any content encoding is undone (a gzip bomb counts in full). */
  maxBytes: number;
  /** From the request to the body's last byte. */
  timeoutMs: number;
}

export const CAP_FETCH_LIMITS: FetchLimits = Object.freeze({ maxBytes: 1024 * 1024, timeoutMs: 10_000 });

const ACCEPT =
  'application/cap+xml, application/atom+xml, application/rss+xml, application/xml, text/xml;q=0.9, */*;q=0.1';

/** The error's own words with its cause's, as undici nests the reason (ECONNREFUSED) in it. */
function reasonOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as Error & { cause?: unknown }).cause;
  return cause instanceof Error ? `${error.message}: ${cause.message}` : error.message;
}

/**
 * Reads `url` as UTF-8 text within `limits`; a CapFeedError saying why otherwise (unreachable,
 * refused, too slow, too large). The body is read a chunk at a time and the request cut as soon
 * as it passes `maxBytes`, so a feed that never ends costs that much and no more. `signal` aborts
 * it (the service stopping).
 */
export async function fetchText(url: string, limits: FetchLimits, signal?: AbortSignal): Promise<string> {
  const timeout = AbortSignal.timeout(limits.timeoutMs);
  const both = signal ? AbortSignal.any([signal, timeout]) : timeout;
  const where = new URL(url).origin;
  const failed = (error: unknown): never => {
    if (error instanceof CapFeedError) throw error;
    const why = timeout.aborted ? `no complete answer within ${limits.timeoutMs} ms` : reasonOf(error);
    throw new CapFeedError(`${where} could not be read: ${why}`, { cause: error });
  };
  let response: Response;
  try {
    response = await fetch(url, {
      signal: both,
      headers: { accept: ACCEPT, 'user-agent': 'Wallboard CAP feeds' },
    });
  } catch (error) {
    return failed(error);
  }
  const reader = response.body?.getReader();
  try {
    if (!response.ok) throw new CapFeedError(`${where} answered ${response.status}`);
    const declared = Number(response.headers.get('content-length') ?? NaN);
    if (declared > limits.maxBytes)
      throw new CapFeedError(
        `${where} sent ${declared} bytes, more than the ${limits.maxBytes} a feed may be`,
      );
    const chunks: Uint8Array[] = [];
    let bytes = 0;
    for (;;) {
      const next = await reader?.read();
      if (!next || next.done) break;
      bytes += next.value.byteLength;
      if (bytes > limits.maxBytes)
        throw new CapFeedError(`${where} sent more than the ${limits.maxBytes} bytes a feed may be`);
      chunks.push(next.value);
    }
    return new TextDecoder().decode(Buffer.concat(chunks));
  } catch (error) {
    // Stops the download and gives the connection back.
    await reader?.cancel().catch(() => undefined);
    return failed(error);
  }
}
