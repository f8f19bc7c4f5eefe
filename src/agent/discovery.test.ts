import { Bonjour } from 'bonjour-service';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { FoundService } from '../shared/bridge';
import { Discovery, SETTLE_MS } from './discovery';
import { bonjourBrowser } from './node-edges';
import type { AnnouncedService } from './ports';
import { FakeClock, recordingLogger } from './testing/fakes';
import { FakeBrowser } from './testing/fake-browser';
import { freeUdpPort } from '../node/testing/free-ports';

const office = {
  id: 'office._wallboard._tcp.local',
  name: 'Wallboard office',
  url: 'http://192.0.2.10:8787',
};
const lab = { id: 'lab._wallboard._tcp.local', name: 'Wallboard lab', url: 'http://192.0.2.11:8787' };

let clock: FakeClock;
let browser: FakeBrowser;
let log: ReturnType<typeof recordingLogger>;
let shown: FoundService[][];
let discovery: Discovery;
let found: { url?: string; error?: Error };

beforeEach(() => {
  clock = new FakeClock();
  browser = new FakeBrowser();
  log = recordingLogger();
  shown = [];
  discovery = new Discovery({ browser, clock, log }, (services) => shown.push(services));
  found = {};
  discovery.find().then(
    (url) => (found.url = url),
    (error: Error) => (found.error = error),
  );
});

describe('discovery', () => {
  it('shows that it is looking, and keeps looking while nothing answers', async () => {
    expect(browser.running).toBe(true);
    expect(shown).toEqual([[]]);
    await clock.advance(10 * 60_000);
    expect(found).toEqual({});
  });

  it('takes the only service once others had time to answer', async () => {
    browser.announce([office]);
    expect(shown.at(-1)).toEqual([office]);
    await clock.advance(SETTLE_MS - 1);
    expect(found).toEqual({});
    await clock.advance(1);
    expect(found.url).toBe(office.url);
    expect(browser.running).toBe(false);
  });

  it('takes none of several by itself: the operator picks one', async () => {
    browser.announce([office]);
    await clock.advance(SETTLE_MS / 2);
    browser.announce([office, lab]);
    await clock.advance(60 * 60_000);
    expect(found).toEqual({});
    expect(shown.at(-1)).toEqual([office, lab]);
    discovery.choose('nothing.local');
    expect(log.lines.join('\n')).toContain('no longer announced');
    discovery.choose(lab.id);
    await clock.advance(0);
    expect(found.url).toBe(lab.url);
  });

  it('waits again when one of two goes away, then takes the one left', async () => {
    browser.announce([office, lab]);
    browser.announce([lab]);
    await clock.advance(SETTLE_MS);
    expect(found.url).toBe(lab.url);
  });

  it('stops browsing when told', async () => {
    discovery.stop();
    await clock.advance(0);
    expect(browser.running).toBe(false);
    expect(found.error?.message).toBe('stopped');
  });
});

describe('the mDNS browser', () => {
  it('finds a service announced with bonjour-service, at the address its answer came from', async () => {
    // Every packet stays on this machine: multicast on the loopback interface, on a port of its own.
    const mdns = { interface: '127.0.0.1', port: await freeUdpPort() };
    // multicast-dns's own options, which bonjour-service passes on but does not type.
    const socketOptions = { ...mdns, bind: '0.0.0.0' };
    const announcer = new Bonjour(socketOptions);
    announcer.publish({
      name: 'Wallboard loopback',
      type: 'wallboard',
      port: 8787,
      txt: { version: '5.2', path: '/' },
    });
    const browser = bonjourBrowser(recordingLogger(), mdns);
    const seen: AnnouncedService[][] = [];
    try {
      browser.start((services) => seen.push(services));
      await vi.waitFor(() => expect(seen.at(-1)).toHaveLength(1), { timeout: 10_000, interval: 50 });
      expect(seen.at(-1)).toEqual([
        {
          id: 'Wallboard loopback._wallboard._tcp.local',
          name: 'Wallboard loopback',
          url: 'http://127.0.0.1:8787',
        },
      ]);
    } finally {
      browser.stop();
      await new Promise<void>((resolve) => announcer.unpublishAll(() => announcer.destroy(() => resolve())));
    }
  }, 20_000);
});
