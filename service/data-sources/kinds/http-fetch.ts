import { compile, search, type JSONValue } from '@jmespath-community/jmespath';
import { DestinationRefusedError } from '../../scripts/destinations';
import { HttpLibraryError, httpGetChecked, type HttpAnswer } from '../../scripts/http-library';
import { SourceError, type SourceConnection, type SourceQuery } from './kind';

/**
 * What the HTTP kinds share: one GET through the scripts' HTTP library (so the destination rule,
 * the 1 MiB cap and the redirect limit are the same code), the source's sign-in and headers, and
 * messages written for a source's owner rather than for a script.
 */

const USER_AGENT = 'wallboard-data-source';

// A bearer token goes into a header as it is: outside these characters undici would refuse the
// header with an error quoting its value, the token. (RFC 6750's b64token is narrower still.)
const TOKEN_CHARACTERS = /^[\x21-\x7e]+$/;

function authorization(connection: SourceConnection): string | null {
  const { auth, secret, username } = connection;
  if (auth === 'none') return null;
  if (secret === null) throw new SourceError(`${auth} sign-in needs a secret, and none is set`);
  if (auth === 'bearer') {
    if (!TOKEN_CHARACTERS.test(secret)) {
      throw new SourceError('the token must be printable ASCII characters without spaces');
    }
    return `Bearer ${secret}`;
  }
  const user = username ?? '';
  // RFC 7617: the first colon ends the user name, so a name with one signs in as someone else.
  if (user.includes(':')) throw new SourceError('the user name of basic sign-in must not contain ":"');
  return `Basic ${Buffer.from(`${user}:${secret}`, 'utf8').toString('base64')}`;
}

/** Every form the secret may take in a message; a message is checked for each before it is shown. */
function secretForms(connection: SourceConnection): string[] {
  const { secret, username } = connection;
  if (!secret) return [];
  return [secret, encodeURIComponent(secret), Buffer.from(`${username ?? ''}:${secret}`).toString('base64')];
}

/** The message with any trace of the secret replaced: a last guard behind the checks above. */
export function withoutSecret(message: string, connection: SourceConnection): string {
  let clean = message;
  for (const form of secretForms(connection)) {
    if (form.length > 0) clean = clean.split(form).join('[secret]');
  }
  return clean;
}

/** A SourceError whose message has been cleared of the secret. */
export function sourceError(message: string, connection: SourceConnection): SourceError {
  return new SourceError(withoutSecret(message, connection));
}

function parseUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new SourceError(`${JSON.stringify(text)} is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new SourceError('the URL must be an http or https URL');
  }
  if (url.username !== '' || url.password !== '') {
    throw new SourceError('the URL must not hold a user name or password: use the sign-in settings');
  }
  return url;
}

/** The source's URL with `path` added under it (Prometheus may be served under a prefix). */
export function urlUnder(base: string, path: string, params: Record<string, string>): string {
  const url = parseUrl(base);
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  const joined = new URL(path, url);
  for (const [name, value] of Object.entries(params)) joined.searchParams.set(name, value);
  return joined.toString();
}

/**
 * The refusal the library words for scripts names their option; a source's rule is the service's
 * widened by the source's own setting, so its message says that instead.
 */
function refusalMessage(message: string, connection: SourceConnection): string {
  const plain = message.replace(/ \(see --scripts-http-allow\)$/, '');
  const { policy } = connection;
  if (policy.loopback && policy.private) return plain;
  return `${plain}; a source reaches loopback and private addresses only with allow_private, which an admin sets`;
}

/**
 * GETs `url` (default: the source's) with the source's sign-in, headers and timeout, and answers
 * the body of a 2xx answer (of any answer with `anyStatus`). Any other status, a refused destination, a timeout or an answer over
 * 1 MiB is a SourceError; none of their messages holds the secret.
 */
export async function fetchSource(
  connection: SourceConnection,
  signal: AbortSignal,
  options: { url?: string; accept?: string; anyStatus?: boolean } = {},
): Promise<HttpAnswer> {
  const url = parseUrl(options.url ?? connection.url);
  const headers: Record<string, string> = { 'user-agent': USER_AGENT };
  if (options.accept) headers.accept = options.accept;
  // Lower case, so the source's own User-Agent or Accept replaces ours rather than joining it.
  for (const [name, value] of Object.entries(connection.headers)) headers[name.toLowerCase()] = value;
  const signIn = authorization(connection);
  if (signIn !== null) headers.authorization = signIn;
  let answer: HttpAnswer;
  try {
    answer = await httpGetChecked(
      { url, headers, timeoutMs: connection.timeoutMs },
      signal,
      connection.policy,
      '',
    );
  } catch (error) {
    if (signal.aborted) throw new SourceError('the query was stopped before it was answered');
    if (error instanceof HttpLibraryError) {
      const refused = error.cause instanceof DestinationRefusedError;
      throw sourceError(refused ? refusalMessage(error.message, connection) : error.message, connection);
    }
    throw sourceError(`GET ${url.origin} failed: ${(error as Error).message}`, connection);
  }
  if (!options.anyStatus && !isSuccess(answer)) throw statusError(answer, connection, url.toString());
  return answer;
}

export function isSuccess(answer: HttpAnswer): boolean {
  return answer.status >= 200 && answer.status <= 299;
}

/** The error of an answer whose status is not 2xx: the status, and where (without the query string). */
export function statusError(
  answer: HttpAnswer,
  connection: SourceConnection,
  requested: string,
): SourceError {
  const url = new URL(requested);
  const words =
    answer.status === 401 || answer.status === 403 ? ' (check the sign-in settings and the secret)' : '';
  return sourceError(`${url.origin}${url.pathname} answered ${answer.status}${words}`, connection);
}

/** The refusal of a range by every kind but Prometheus. */
export function checkNoRange(range: SourceQuery['range']): string | null {
  return range === null ? null : 'only a Prometheus source takes a range';
}

/** Null when `expression` is '' or valid JMESPath, else the parser's words. */
export function checkJmesPath(expression: string): string | null {
  if (expression.trim() === '') return null;
  try {
    compile(expression);
    return null;
  } catch (error) {
    return `the JMESPath expression is not valid: ${(error as Error).message}`;
  }
}

/** `expression` applied to `data` ('' answers it all); a failing expression is a SourceError. */
export function applyJmesPath(data: unknown, expression: string): unknown {
  if (expression.trim() === '') return data;
  try {
    return search(data as JSONValue, expression);
  } catch (error) {
    throw new SourceError(`the JMESPath expression failed: ${(error as Error).message}`);
  }
}

/** `check` of the kinds that take an optional JMESPath expression and no range. */
export function checkJmesPathQuery(query: string, range: SourceQuery['range']): string | null {
  return checkNoRange(range) ?? checkJmesPath(query);
}
