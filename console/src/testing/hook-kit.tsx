import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { onTestFinished, vi } from 'vitest';

/** A request the console sent. */
export interface Sent {
  method: string;
  path: string;
  body: unknown;
}

export interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

type Handler = (sent: Sent) => Answer | Promise<Answer>;

/**
 * The service, answering in the page: `fetch` is the one edge a hook test fakes (the service
 * cannot run in the browser); the API client, TanStack Query and React are the real ones. A
 * route not set answers 404 with the service's error body, as the service does.
 */
export class FakeService {
  readonly sent: Sent[] = [];
  private readonly routes = new Map<string, Handler>();

  /** Answers `method path` (the path with its query string) with `answer`, or what `handler` returns. */
  on(method: string, path: string, answer: Answer | Handler): this {
    this.routes.set(`${method} ${path}`, typeof answer === 'function' ? answer : () => answer);
    return this;
  }

  /** The requests sent to `method path` so far. */
  count(method: string, path: string): number {
    return this.sent.filter((sent) => sent.method === method && sent.path === path).length;
  }

  readonly fetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const method = init.method ?? 'GET';
    const path = String(input);
    const sent = { method, path, body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined };
    this.sent.push(sent);
    const handler = this.routes.get(`${method} ${path}`);
    const answer = handler
      ? await handler(sent)
      : { status: 404, body: { error: { code: 'not_found', message: `no ${path}`, details: [] } } };
    const body = answer.body === undefined || method === 'HEAD' ? null : JSON.stringify(answer.body);
    return new Response(body, { status: answer.status, headers: answer.headers });
  };
}

/** A fake service in place of the page's `fetch` until the test ends. */
export function serve(): FakeService {
  const service = new FakeService();
  vi.stubGlobal('fetch', service.fetch);
  onTestFinished(() => {
    vi.unstubAllGlobals();
  });
  return service;
}

/** An answer held until the test lets it go: what the hook shows while a request is under way. */
export function held(): { handler: Handler; release: (answer: Answer) => void } {
  let release: (answer: Answer) => void = () => undefined;
  const answer = new Promise<Answer>((resolve) => {
    release = resolve;
  });
  return { handler: () => answer, release };
}

/**
 * A query client as the console's, but without retries (a refusal shows at once) and with a
 * wrapper that provides it to the hook under test.
 */
export function queryClient(): {
  queries: QueryClient;
  wrapper: (props: { children: ReactNode }) => ReactNode;
} {
  const queries = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queries}>{children}</QueryClientProvider>
  );
  return { queries, wrapper };
}
