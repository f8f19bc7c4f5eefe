import { beforeEach, describe, expect, it } from 'vitest';
import type { BridgeMessage } from '../shared/bridge';
import { NotificationDelivery } from './notification-delivery';
import { FakeClock, notificationWithSound, recordingLogger } from './testing/fakes';

const notification = notificationWithSound;

let clock: FakeClock;
let log: ReturnType<typeof recordingLogger>;
let cached: Set<string>;
let downloads: Map<string, { resolve(): void; reject(error: Error): void }>;
let delivered: BridgeMessage[];
let delivery: NotificationDelivery;

/** What was delivered: each notification's id with the sound it carries. */
const sounds = () =>
  delivered.map((m) => (m.kind === 'notification' ? [m.notification.id, m.sound] : m.kind));

beforeEach(() => {
  clock = new FakeClock();
  log = recordingLogger();
  cached = new Set();
  downloads = new Map();
  delivered = [];
  delivery = new NotificationDelivery(
    {
      clock,
      log,
      media: {
        ensure: (url) =>
          new Promise((resolve, reject) =>
            downloads.set(url, {
              resolve: () => {
                cached.add(url);
                resolve('name');
              },
              reject,
            }),
          ),
      },
      localUrl: (url) => (cached.has(url) ? `/media/${url.split('/').pop()}` : null),
    },
    (message) => delivered.push(message),
  );
});

describe('notification delivery', () => {
  it('resolves no sound, the default chime, and a sound cached already at once', async () => {
    cached.add('https://x.test/gong.wav');
    delivery.deliver(notification('silent', null));
    delivery.deliver(notification('chime', 'default'));
    delivery.deliver(notification('gong', 'https://x.test/gong.wav'));
    await clock.advance(0);
    expect(sounds()).toEqual([
      ['silent', null],
      ['chime', { kind: 'default' }],
      ['gong', { kind: 'cached', url: '/media/gong.wav' }],
    ]);
    expect(downloads.size).toBe(0);
  });

  it('caches a sound first, holding back the notifications after it so the order stays', async () => {
    delivery.deliver(notification('first', 'https://x.test/a.mp3'));
    delivery.deliver(notification('second', null));
    await clock.advance(1000);
    expect(delivered).toEqual([]);
    downloads.get('https://x.test/a.mp3')?.resolve();
    await clock.advance(0);
    expect(sounds()).toEqual([
      ['first', { kind: 'cached', url: '/media/a.mp3' }],
      ['second', null],
    ]);
  });

  it('plays the chime for a sound not cached within 5 s, or not cached at all', async () => {
    delivery.deliver(notification('slow', 'https://x.test/slow.mp3'));
    delivery.deliver(notification('broken', 'https://x.test/broken.mp3'));
    await clock.advance(4999);
    expect(delivered).toEqual([]);
    await clock.advance(1);
    expect(sounds()).toEqual([['slow', { kind: 'default' }]]);
    downloads.get('https://x.test/broken.mp3')?.reject(new Error('404'));
    await clock.advance(0);
    expect(sounds()).toEqual([
      ['slow', { kind: 'default' }],
      ['broken', { kind: 'default' }],
    ]);
    expect(log.lines).toEqual([
      'warn sound https://x.test/slow.mp3 is not cached yet; the notification plays the default sound',
      'warn sound not cached (Error: 404); the notification plays the default sound',
    ]);
  });

  it('plays the chime for a sound that is not a URL, and never fetches it', async () => {
    delivery.deliver(notification('odd', 'file:///etc/passwd'));
    await clock.advance(0);
    expect(sounds()).toEqual([['odd', { kind: 'default' }]]);
    expect(downloads.size).toBe(0);
  });
});
