import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { HttpAllowPolicy } from '../../scripts/destinations';
import type { SourceConnection } from '../kinds/kind';

/**
 * A loopback HTTP server whose answers the test sets, path by path: the real sockets the HTTP
 * data sources read in their tests, e2e specs and the bench (never a stand-in for fetch). It
 * counts what it sends, so a limit test measures how much went out, not only the error's words.
 */

export interface FixtureAnswer {
  /** 200 unless set. */
  status?: number;
  /** The Content-Type; `application/octet-stream` unless set. */
  type?: string;
  headers?: Record<string, string>;
  /** The body, sent with its Content-Length. */
  body?: string | Buffer;
  /**
   * A body of this many bytes generated as it is sent (`x` repeated), with no Content-Length:
   * the client can only find out its size by reading it.
   */
  streamBytes?: number;
  /** Accept the request and never answer it (nor close it) until the server stops. */
  hang?: boolean;
}

export interface FixtureRequest {
  path: string;
  headers: IncomingHttpHeaders;
}

/** What went out for one path: the body bytes the sockets took, and whether a client cut it short. */
export interface FixtureTraffic {
  requests: number;
  bytesSent: number;
  /** Answers whose connection closed before their last byte was sent. */
  cutShort: number;
}

export interface HttpFixtures {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** Sets what `path` (with its query string, if the test wants one matched; else without) answers; answers its URL. */
  serve(path: string, answer: FixtureAnswer): string;
  /** Every request so far, oldest first. */
  requests: FixtureRequest[];
  traffic(path: string): FixtureTraffic;
  stop(): Promise<void>;
}

export const MIME = {
  json: 'application/json',
  csv: 'text/csv; charset=utf-8',
  rss: 'application/rss+xml; charset=utf-8',
  atom: 'application/atom+xml; charset=utf-8',
  ics: 'text/calendar; charset=utf-8',
} as const;

const CHUNK = Buffer.alloc(64 * 1024, 'x');

/** Writes `total` bytes a chunk at a time, waiting for each to drain, until done or the socket closes. */
function stream(response: ServerResponse, total: number, traffic: FixtureTraffic): void {
  let left = total;
  const more = (): void => {
    while (left > 0 && !response.destroyed) {
      const chunk = left >= CHUNK.length ? CHUNK : CHUNK.subarray(0, left);
      left -= chunk.length;
      const size = chunk.length;
      const flowing = response.write(chunk, (error) => {
        if (!error) traffic.bytesSent += size;
      });
      if (!flowing) {
        response.once('drain', more);
        return;
      }
    }
    if (left === 0) response.end();
  };
  more();
}

/** Starts the server on 127.0.0.1 at a free port. */
export async function startHttpFixtures(): Promise<HttpFixtures> {
  const answers = new Map<string, FixtureAnswer>();
  const counts = new Map<string, FixtureTraffic>();
  const requests: FixtureRequest[] = [];
  const sockets = new Set<Socket>();
  const trafficOf = (path: string): FixtureTraffic => {
    let traffic = counts.get(path);
    if (!traffic) {
      traffic = { requests: 0, bytesSent: 0, cutShort: 0 };
      counts.set(path, traffic);
    }
    return traffic;
  };

  const server = createServer((request, response) => {
    const full = request.url ?? '/';
    const path = answers.has(full) ? full : (full.split('?')[0] ?? '/');
    requests.push({ path: full, headers: request.headers });
    const answer = answers.get(path);
    const traffic = trafficOf(path);
    traffic.requests++;
    if (!answer) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end(`no fixture at ${path}`);
      return;
    }
    if (answer.hang) return;
    response.on('close', () => {
      if (!response.writableFinished) traffic.cutShort++;
    });
    const headers = { 'content-type': answer.type ?? 'application/octet-stream', ...answer.headers };
    if (answer.streamBytes !== undefined) {
      response.writeHead(answer.status ?? 200, headers);
      stream(response, answer.streamBytes, traffic);
      return;
    }
    const body = Buffer.from(answer.body ?? '');
    response.writeHead(answer.status ?? 200, { ...headers, 'content-length': String(body.length) });
    response.end(body, () => {
      traffic.bytesSent += body.length;
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    serve(path, answer) {
      answers.set(path, answer);
      return `${url}${path}`;
    },
    requests,
    traffic: trafficOf,
    async stop() {
      // Hanging answers hold their sockets open: close() alone would wait for them.
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Loopback allowed, private addresses not: the rule of a source an admin let reach this machine. */
export const LOOPBACK_ALLOWED: HttpAllowPolicy = Object.freeze({
  loopback: true,
  private: false,
  ranges: [],
});

/** A source's connection to `url` as the tests and the bench make them: loopback allowed, 5 s, no sign-in. */
export function connectionTo(url: string, fields: Partial<SourceConnection> = {}): SourceConnection {
  return {
    kind: 'json',
    url,
    auth: 'none',
    username: null,
    secret: null,
    headers: {},
    timeoutMs: 5000,
    policy: LOOPBACK_ALLOWED,
    ...fields,
  };
}
