import { ArgumentError, timeoutMs } from './duration';

export const HTTP_TIMEOUT_DEFAULT_MS = 5000;
export const HTTP_TIMEOUT_MAX_MS = 30_000;
export const HTTP_SIZE_MAX = 1024 * 1024;

/** What `get` answers: the status, the headers (lower-case names) and the body as text. */
export interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
  text: string;
}

interface HttpRequest {
  url: URL;
  timeoutMs: number;
  headers: Record<string, string>;
}

/** An error shown to the script as it is (its message says what went wrong). */
export class HttpLibraryError extends Error {}

function checkRequest(method: string, urlArg: unknown, optionsArg: unknown): HttpRequest {
  const fail = (message: string): never => {
    throw new ArgumentError(`http.${method}: ${message}`);
  };
  if (typeof urlArg !== 'string') fail('url must be a string');
  let url: URL | null = null;
  try {
    url = new URL(urlArg as string);
  } catch {
    fail(`url ${JSON.stringify(urlArg)} is not a URL`);
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    fail('url must be an http or https URL');
  }
  const request: HttpRequest = { url: url as URL, timeoutMs: HTTP_TIMEOUT_DEFAULT_MS, headers: {} };
  if (optionsArg === undefined || optionsArg === null) return request;
  if (typeof optionsArg !== 'object' || Array.isArray(optionsArg)) fail('options must be an object');
  for (const [key, value] of Object.entries(optionsArg as Record<string, unknown>)) {
    if (key === 'timeout') {
      try {
        request.timeoutMs = timeoutMs(value, 'options.timeout', HTTP_TIMEOUT_MAX_MS);
      } catch (error) {
        fail((error as Error).message);
      }
    } else if (key === 'headers') {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        fail('options.headers must be an object of header names and string values');
      }
      for (const [name, header] of Object.entries(value as Record<string, unknown>)) {
        if (typeof header !== 'string') fail(`options.headers.${name} must be a string`);
        request.headers[name] = header as string;
      }
    } else {
      fail(`options.${key} is not a known option (timeout, headers)`);
    }
  }
  return request;
}

async function readLimited(response: Response, url: string, method: string): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > HTTP_SIZE_MAX) {
    await response.body?.cancel();
    throw new HttpLibraryError(`http.${method}: the answer of ${url} is larger than 1 MiB`);
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > HTTP_SIZE_MAX) {
      await reader.cancel();
      throw new HttpLibraryError(`http.${method}: the answer of ${url} is larger than 1 MiB`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}

/** `http.get(url, {timeout, headers})`: any status is an answer; failures to fetch throw. */
export async function httpGet(
  args: readonly unknown[],
  signal: AbortSignal,
  method = 'get',
): Promise<HttpAnswer> {
  const request = checkRequest(method, args[0], args[1]);
  const url = request.url.toString();
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), request.timeoutMs);
  const both = AbortSignal.any([signal, timeout.signal]);
  try {
    const response = await fetch(url, {
      headers: { 'user-agent': 'wallboard-script', ...request.headers },
      redirect: 'follow',
      signal: both,
    });
    const text = await readLimited(response, url, method);
    return { status: response.status, headers: Object.fromEntries(response.headers), text };
  } catch (error) {
    if (error instanceof HttpLibraryError) throw error;
    if (timeout.signal.aborted) {
      throw new HttpLibraryError(
        `http.${method}: ${url} did not answer within ${request.timeoutMs / 1000} s`,
      );
    }
    if (signal.aborted) throw new HttpLibraryError(`http.${method}: the run ended`);
    throw new HttpLibraryError(`http.${method}: GET ${url} failed: ${causeOf(error)}`);
  } finally {
    clearTimeout(timer);
  }
}

/** `http.getJson(url, options)`: the parsed body of a 2xx answer; other statuses throw. */
export async function httpGetJson(args: readonly unknown[], signal: AbortSignal): Promise<unknown> {
  const answer = await httpGet(args, signal, 'getJson');
  const url = String(args[0]);
  if (answer.status < 200 || answer.status > 299) {
    throw new HttpLibraryError(`http.getJson: GET ${url} answered ${answer.status}`);
  }
  try {
    return JSON.parse(answer.text) as unknown;
  } catch (error) {
    throw new HttpLibraryError(`http.getJson: the answer of ${url} is not JSON: ${(error as Error).message}`);
  }
}
