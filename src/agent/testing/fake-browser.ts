import type { AnnouncedService, ServiceBrowser } from '../ports';

/** An mDNS browser whose findings the test announces. */
export class FakeBrowser implements ServiceBrowser {
  running = false;
  private onChange: ((services: AnnouncedService[]) => void) | null = null;
  start(onChange: (services: AnnouncedService[]) => void): void {
    this.running = true;
    this.onChange = onChange;
  }
  stop(): void {
    this.running = false;
  }
  announce(services: AnnouncedService[]): void {
    this.onChange?.(services);
  }
}
