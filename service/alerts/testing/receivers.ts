import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import type { Clock } from '../../context';

/** One request a receiver got, with the time of the service's clock when it came. */
export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/**
 * A webhook receiver on loopback: records every POST with the clock's time, and answers each with
 * the next status of `statuses` for its path (200 once they run out).
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  private readonly statuses = new Map<string, number[]>();
  private readonly server: Server;

  constructor(private readonly clock: Pick<Clock, 'now'>) {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const path = request.url ?? '/';
        this.received.push({
          path,
          headers: request.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          at: this.clock.now().getTime(),
        });
        response.statusCode = this.statuses.get(path)?.shift() ?? 200;
        response.end('ok');
      });
    });
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }

  url(path: string): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
  }

  /** The next answers to `path`, in order. */
  answer(path: string, ...statuses: number[]): void {
    this.statuses.set(path, statuses);
  }

  at(path: string): Received[] {
    return this.received.filter((request) => request.path === path);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** A mail a loopback SMTP server took. */
export interface Mail {
  from: string;
  to: string[];
  data: string;
}

/** An SMTP server on loopback (no TLS, no authentication) that keeps what it is sent. */
export class MailReceiver {
  readonly mails: Mail[] = [];
  private readonly server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData: (stream, session, callback) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const envelope = session.envelope;
        this.mails.push({
          from: envelope.mailFrom ? envelope.mailFrom.address : '',
          to: envelope.rcptTo.map((rcpt) => rcpt.address),
          data: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.server.address() as AddressInfo;
    return `smtp://127.0.0.1:${port}`;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
