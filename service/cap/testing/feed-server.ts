import { createServer, type ServerResponse, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the server answers on one path. */
export type Answer =
  | { kind: 'xml'; body: string; type?: string }
  | { kind: 'status'; status: number }
  /** `chunks` of `chunkBytes` each, a few milliseconds apart, without a Content-Length. */
  | { kind: 'stream'; chunkBytes: number; chunks: number }
  /** A Content-Length of `declared` bytes, then the body as a stream of `chunkBytes` chunks. */
  | { kind: 'declared'; declared: number; chunkBytes: number }
  /** The head at once, then nothing: the body never ends. */
  | { kind: 'hang' };

/** What the server saw of one request: how many body bytes it got written, and when it ended. */
export interface Served {
  path: string;
  bytesWritten: number;
  /** The client closed the connection before the body was complete. */
  cutShort: boolean;
}

/**
 * A CAP feed on loopback for the tests: each path answers what the test set, and each request
 * is recorded with the body bytes the server managed to write before the client stopped reading,
 * so the tests measure the limits from the other end of the socket.
 */
export class FeedServer {
  readonly served: Served[] = [];
  private readonly answers = new Map<string, Answer>();
  private readonly server: Server;
  private readonly open = new Set<ServerResponse>();

  constructor() {
    this.server = createServer((request, response) => {
      const path = request.url ?? '/';
      const record: Served = { path, bytesWritten: 0, cutShort: false };
      this.served.push(record);
      this.open.add(response);
      response.on('close', () => {
        record.cutShort = !response.writableFinished;
        this.open.delete(response);
      });
      this.answer(this.answers.get(path) ?? { kind: 'status', status: 404 }, response, record);
    });
  }

  private answer(answer: Answer, response: ServerResponse, record: Served): void {
    switch (answer.kind) {
      case 'xml': {
        const body = Buffer.from(answer.body, 'utf8');
        response.writeHead(200, { 'content-type': answer.type ?? 'application/cap+xml' });
        record.bytesWritten = body.length;
        response.end(body);
        return;
      }
      case 'status':
        response.writeHead(answer.status, { 'content-type': 'text/plain' }).end('no feed here');
        return;
      case 'stream':
        response.writeHead(200, { 'content-type': 'application/xml' });
        this.pour(response, record, answer.chunkBytes, answer.chunks);
        return;
      case 'declared':
        response.writeHead(200, { 'content-type': 'application/xml', 'content-length': answer.declared });
        this.pour(response, record, answer.chunkBytes, Math.ceil(answer.declared / answer.chunkBytes));
        return;
      case 'hang':
        response.writeHead(200, { 'content-type': 'application/xml' });
        response.flushHeaders();
        response.write('<alert>');
        return;
    }
  }

  /**
   * Writes `chunks` chunks, each once the last has left the socket's buffer and a little while
   * after, so that what was written is close to what the client read when it stopped.
   */
  private pour(response: ServerResponse, record: Served, chunkBytes: number, chunks: number): void {
    const chunk = Buffer.alloc(chunkBytes, 0x20);
    let left = chunks;
    const next = () => {
      if (response.destroyed) return;
      if (left-- === 0) {
        response.end();
        return;
      }
      record.bytesWritten += chunk.length;
      response.write(chunk, () => setTimeout(next, 2));
    };
    next();
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }

  url(path: string): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
  }

  /** What `path` answers from now on. */
  set(path: string, answer: Answer): void {
    this.answers.set(path, answer);
  }

  xml(path: string, body: string, type?: string): void {
    this.set(path, { kind: 'xml', body, ...(type ? { type } : {}) });
  }

  at(path: string): Served[] {
    return this.served.filter((served) => served.path === path);
  }

  async close(): Promise<void> {
    for (const response of this.open) response.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
