import type { z } from 'zod';
import { apiErrorSchema } from '../../../src/shared/api-error';
import { describeIssues } from '../../../src/shared/issues';

/** The header every write signed in by the session cookie carries (service/http/session-cookie.ts). */
export const CSRF_HEADER = 'x-wallboard-csrf';

export interface ErrorDetail {
  path: string;
  message: string;
}

/** A refusal of the service, with its code, message and the details of each bad field. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: readonly ErrorDetail[] = [],
  ) {
    super(message);
  }
}

/** Told when the session is gone (401), so the page goes back to signing in. */
let onSignedOut: () => void = () => undefined;
export function whenSignedOut(handler: () => void): void {
  onSignedOut = handler;
}

/**
 * The refusal of an answer with `status` and `body` (parsed JSON, or null): the service's error
 * body, or a plain one when the body says nothing usable (a proxy's page). A 401 also tells the
 * page that the session is gone.
 */
export function refusal(path: string, status: number, statusText: string, body: unknown): ApiError {
  if (status === 401 && path !== '/session') onSignedOut();
  const parsed = apiErrorSchema.safeParse(body);
  if (parsed.success) {
    const { code, message, details } = parsed.data.error;
    return new ApiError(status, code, message, details);
  }
  return new ApiError(status, 'http', `the service answered ${status} ${statusText}`);
}

export const unreachable = () =>
  new ApiError(0, 'network', 'the service cannot be reached; check the connection');

/** An answer's body checked against the shared schema it must follow. */
export function checked<S extends z.ZodType>(
  schema: S,
  path: string,
  status: number,
  body: unknown,
): z.infer<S> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  throw new ApiError(status, 'unexpected', `unexpected answer from ${path}: ${describeIssues(parsed.error)}`);
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** JSON, or a FormData sent as multipart. */
  body?: unknown;
  signal?: AbortSignal;
}

/** The raw answer of a request to the service on this origin; a refusal is thrown as an ApiError. */
export async function request(path: string, options: RequestOptions = {}): Promise<Response> {
  const method = options.method ?? 'GET';
  const headers: Record<string, string> = { accept: 'application/json' };
  if (method !== 'GET') headers[CSRF_HEADER] = '1';
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) body = options.body;
  else if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body,
      signal: options.signal,
      credentials: 'same-origin',
    });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw unreachable();
  }
  if (response.ok) return response;
  const refused: unknown = await response.json().catch(() => null);
  throw refusal(path, response.status, response.statusText, refused);
}

/** A JSON answer, checked against the shared schema it must follow. */
export async function api<S extends z.ZodType>(
  schema: S,
  path: string,
  options: RequestOptions = {},
): Promise<z.infer<S>> {
  const response = await request(path, options);
  return checked(schema, path, response.status, await response.json());
}

/** A request whose answer has no body worth reading (204, or one the page does not need). */
export async function send(path: string, options: RequestOptions): Promise<void> {
  await request(path, options);
}
