import type { EventEmitter } from 'node:events';
import { hostname } from 'node:os';
import { Bonjour, type Service } from 'bonjour-service';
import type { ServiceLog } from '../context';
import type { Job } from './jobs';

/** DNS-SD type of the service: `_wallboard._tcp` (docs/api.md, Finding the service). */
export const MDNS_SERVICE_TYPE = 'wallboard';

export interface MdnsOptions {
  /** The instance name; `Wallboard <host name>:<port>` by default. */
  name?: string;
  /**
   * Where multicast DNS goes: the interface's address and the port of mDNS itself (5353). For
   * tests: `{interface: '127.0.0.1', port: <free>}` keeps every packet on this machine.
   */
  interface?: string;
  mdnsPort?: number;
}

/** What the TXT record tells a browsing client besides the address and port. */
export interface MdnsTxt {
  /** The version of the API the service speaks. */
  version: string;
  /** Where the API is, under the address. */
  path: string;
}

/** DNS labels hold 63 bytes; the name is cut rather than refused. */
function label(name: string): string {
  let cut = name;
  while (Buffer.byteLength(cut) > 63) cut = cut.slice(0, -1);
  return cut;
}

/**
 * Announces the service over mDNS/DNS-SD (bonjour-service) while it listens, so that a screen
 * on the same network finds it without its address being typed. Started once the server
 * listens (the port is known only then), stopped when it closes: it says goodbye, so browsers
 * drop it at once. A failure (no multicast on this network) is logged and the service runs on.
 */
export class MdnsAnnouncement implements Job {
  readonly name = 'mDNS announcement';
  private bonjour: Bonjour | null = null;
  private service: Service | null = null;

  constructor(
    private readonly options: MdnsOptions,
    private readonly txt: MdnsTxt,
    private readonly port: () => number,
    private readonly log: ServiceLog,
  ) {}

  /** Publishes at once; the announcement goes out after bonjour-service's probe (under a second). */
  start(): void {
    const fail = (error: unknown) => this.log.error({ err: error }, 'the mDNS announcement failed');
    const { interface: networkInterface, mdnsPort } = this.options;
    const bonjour = new Bonjour(
      {
        // Bound to every address so that the group's packets arrive; sent on that interface only.
        ...(networkInterface ? { interface: networkInterface, bind: '0.0.0.0' } : {}),
        ...(mdnsPort ? { port: mdnsPort } : {}),
      },
      fail,
    );
    // The socket's own errors (the port refused) reach no callback of bonjour-service; an
    // 'error' event without a listener would end the process.
    (bonjour as unknown as { server: { mdns: EventEmitter } }).server.mdns.on('error', fail);
    const port = this.port();
    // A name another service already has on the network is not announced (bonjour-service
    // probes first and says so on the console); the default name holds the host and the port.
    this.service = bonjour.publish({
      name: label(this.options.name ?? `Wallboard ${hostname()}:${port}`),
      type: MDNS_SERVICE_TYPE,
      port,
      txt: { ...this.txt },
    });
    this.bonjour = bonjour;
  }

  /** Says goodbye (records with TTL 0), then closes the socket. */
  async stop(): Promise<void> {
    const { bonjour, service } = this;
    this.bonjour = null;
    this.service = null;
    if (!bonjour) return;
    if (service?.published) await new Promise<void>((resolve) => bonjour.unpublishAll(() => resolve()));
    await new Promise<void>((resolve) => bonjour.destroy(() => resolve()));
  }
}
