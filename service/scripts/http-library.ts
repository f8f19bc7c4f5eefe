import type { Agent, Response } from 'undici';
import { checkedLookup, checkUrlHost, DestinationRefusedError, type HttpAllowPolicy } from './destinations';
import { ArgumentError, timeoutMs } from './duration';

export const HTTP_TIMEOUT_DEFAULT_MS = 5000;
export const HTTP_TIMEOUT_MAX_MS = 30_000;
export const HTTP_SIZE_MAX = 1024 * 1024;
export const HTTP_REDIRECTS_MAX = 5;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
// What fetch itself drops when a redirect leaves the origin: a script's token is for one host.
const CREDENTIAL_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization']);

/** What `get` answers: the status, the headers (lower-case names) and the body as text. */
export interface HttpAnswer {
  status: number;
  headers: Record<string, string>;
  text: string;
}

/** A request whose URL and options are already checked. */
export interface HttpRequest {
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

async function readLimited(response: Response, url: string, prefix: string): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > HTTP_SIZE_MAX) {
    await response.body?.cancel();
    throw new HttpLibraryError(`${prefix}the answer of ${url} is larger than 1 MiB`);
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
      throw new HttpLibraryError(`${prefix}the answer of ${url} is larger than 1 MiB`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}

function refusalIn(error: unknown): DestinationRefusedError | null {
  for (let at = error, depth = 0; at instanceof Error && depth < 4; at = at.cause, depth++) {
    if (at instanceof DestinationRefusedError) return at;
  }
  return null;
}

/**
 * undici, set up at the first script's request rather than at the service's start (about 30 ms of
 * a start, for a library many services never use).
 */
const undici = () => import('undici');

// One agent per policy: pooled connections were made under that policy's checks only.
const agents = new WeakMap<HttpAllowPolicy, Agent>();

async function agentFor(policy: HttpAllowPolicy): Promise<Agent> {
  const { Agent } = await undici();
  let agent = agents.get(policy);
  if (!agent) {
    agent = new Agent({ connect: { lookup: checkedLookup(policy) } });
    agents.set(policy, agent);
  }
  return agent;
}

/**
 * GETs `start`, following redirects by hand so that every hop's URL is checked against the
 * policy (IP literals here, names in the agent's lookup after resolution).
 */
async function fetchAllowed(
  start: URL,
  requestHeaders: Record<string, string>,
  policy: HttpAllowPolicy,
  signal: AbortSignal,
  prefix: string,
): Promise<Response> {
  const fail = (message: string, cause?: Error): never => {
    throw new HttpLibraryError(`${prefix}${message}`, { cause });
  };
  let headers: Record<string, string> = { 'user-agent': 'wallboard-script', ...requestHeaders };
  let url = start;
  for (let hop = 0; ; hop++) {
    const where = hop === 0 ? `${start} is` : `${start} redirected to ${url}, which is`;
    let response: Response;
    try {
      checkUrlHost(policy, url);
      const dispatcher = await agentFor(policy);
      response = await (await undici()).fetch(url, { headers, redirect: 'manual', signal, dispatcher });
    } catch (error) {
      const refusal = refusalIn(error);
      if (refusal) fail(`${where} refused: ${refusal.message}`, refusal);
      throw error;
    }
    const location = response.headers.get('location');
    if (!REDIRECT_STATUSES.has(response.status) || location === null) return response;
    await response.body?.cancel();
    if (hop === HTTP_REDIRECTS_MAX) fail(`${start} redirected more than ${HTTP_REDIRECTS_MAX} times`);
    let next: URL;
    try {
      next = new URL(location, url);
    } catch {
      return fail(`${start} redirected to ${JSON.stringify(location)}, which is not a URL`);
    }
    if (next.protocol !== 'http:' && next.protocol !== 'https:') {
      fail(`${start} redirected to ${next}, which is not an http or https URL`);
    }
    if (next.origin !== url.origin) {
      headers = Object.fromEntries(
        Object.entries(headers).filter(([name]) => !CREDENTIAL_HEADERS.has(name.toLowerCase())),
      );
    }
    url = next;
  }
}

/**
 * `http.get(url, {timeout, headers})`: any status is an answer; failures to fetch throw, and so
 * does a destination (or a redirect to one) that `policy` does not allow.
 */
export async function httpGet(
  args: readonly unknown[],
  signal: AbortSignal,
  policy: HttpAllowPolicy,
  method = 'get',
): Promise<HttpAnswer> {
  return httpGetChecked(checkRequest(method, args[0], args[1]), signal, policy, `http.${method}: `);
}

/**
 * GETs a request checked by its caller under the same rule and limits as `http.get` (data sources
 * take their timeout from their own settings); each error's message starts with `prefix`, and a
 * refused destination's error has the DestinationRefusedError as its cause.
 */
export async function httpGetChecked(
  request: HttpRequest,
  signal: AbortSignal,
  policy: HttpAllowPolicy,
  prefix: string,
): Promise<HttpAnswer> {
  const url = request.url.toString();
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), request.timeoutMs);
  const both = AbortSignal.any([signal, timeout.signal]);
  try {
    const response = await fetchAllowed(request.url, request.headers, policy, both, prefix);
    const text = await readLimited(response, url, prefix);
    return { status: response.status, headers: Object.fromEntries(response.headers), text };
  } catch (error) {
    if (error instanceof HttpLibraryError) throw error;
    if (timeout.signal.aborted) {
      throw new HttpLibraryError(`${prefix}${url} did not answer within ${request.timeoutMs / 1000} s`);
    }
    if (signal.aborted) throw new HttpLibraryError(`${prefix}the run ended`);
    throw new HttpLibraryError(`${prefix}GET ${url} failed: ${causeOf(error)}`);
  } finally {
    clearTimeout(timer);
  }
}

/** `http.getJson(url, options)`: the parsed body of a 2xx answer; other statuses throw. */
export async function httpGetJson(
  args: readonly unknown[],
  signal: AbortSignal,
  policy: HttpAllowPolicy,
): Promise<unknown> {
  const answer = await httpGet(args, signal, policy, 'getJson');
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
