import type { FoundService } from '../shared/bridge';
import type { AnnouncedService, Clock, Logger, ServiceBrowser, TimerHandle } from './ports';

/**
 * After a first service is seen, how long to wait for others to answer before pairing with the
 * only one: mDNS answers of several services on one network arrive within a second or so.
 */
export const SETTLE_MS = 3000;

export interface DiscoveryDeps {
  browser: ServiceBrowser;
  clock: Clock;
  log: Logger;
}

/**
 * Finds the service a screen without one pairs with, on the local network (DNS-SD
 * `_wallboard._tcp`), showing what it sees as it sees it. The only one found is taken once the
 * others had time to answer. With several, the operator picks one on the screen (a click, or its
 * number on a keyboard): none is taken for them, since a screen paired with a service nobody
 * looks at shows its code in the wrong console. Nothing found: it keeps looking.
 */
export class Discovery {
  private services: AnnouncedService[] = [];
  private settling: { id: string; timer: TimerHandle } | null = null;
  private settle: { resolve: (url: string) => void; reject: (error: Error) => void } | null = null;

  constructor(
    private readonly deps: DiscoveryDeps,
    private readonly show: (services: FoundService[]) => void,
  ) {}

  /** The URL of the service to pair with, once it is known. */
  find(): Promise<string> {
    return new Promise((resolve, reject) => {
      this.settle = { resolve, reject };
      this.show([]);
      this.deps.log.info(
        'no service configured: looking for one on the local network (mDNS _wallboard._tcp)',
      );
      this.deps.browser.start((services) => this.seen(services));
    });
  }

  /** The operator's pick among the services shown; one no longer there is ignored. */
  choose(id: string): void {
    const service = this.services.find((candidate) => candidate.id === id);
    if (!service) return this.deps.log.warn(`the service picked on screen (${id}) is no longer announced`);
    this.finish(service);
  }

  stop(): void {
    this.end();
    this.settle?.reject(new Error('stopped'));
    this.settle = null;
  }

  private seen(services: AnnouncedService[]): void {
    if (!this.settle) return;
    this.services = services;
    this.show(services.map(({ id, name, url }) => ({ id, name, url })));
    const only = services.length === 1 ? services[0] : undefined;
    if (this.settling && this.settling.id === only?.id) return;
    this.settling?.timer.cancel();
    this.settling = only
      ? { id: only.id, timer: this.deps.clock.setTimeout(() => this.finish(only), SETTLE_MS) }
      : null;
  }

  private finish(service: AnnouncedService): void {
    if (!this.settle) return;
    this.end();
    this.deps.log.info(`pairing with the service "${service.name}" found at ${service.url}`);
    this.settle.resolve(service.url);
    this.settle = null;
  }

  private end(): void {
    this.settling?.timer.cancel();
    this.settling = null;
    this.deps.browser.stop();
  }
}
