import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import type { NotificationSound } from '../../../src/shared/bridge';
import type { Notification } from '../../../src/shared/notification';
import {
  board,
  browserWait,
  image,
  makeBoard,
  makeNotification,
  makeState,
  onScreen,
  pngDataUrl,
  renderPlayer,
  tick,
  useFakeClock,
  type FakeBridge,
} from './player-test-kit';
import { CHANNEL_WAIT_MS } from './player';
import { DEFAULT_SOUND } from './sound';

const boards = {
  a: makeBoard('Board A', ['ch-a', 'ch-a2']),
  b: makeBoard('Board B', ['ch-b']),
};
const PICTURE = 'https://cdn.example.com/picture.png';

let play: MockInstance<HTMLMediaElement['play']>;
/** Where each play() call came from. */
const played = () => play.mock.contexts.map((element) => (element as HTMLMediaElement).src);

beforeEach(() => {
  useFakeClock();
  play = vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const region = () => document.querySelector('[role="status"]') as HTMLElement;
const more = () => document.querySelector('[data-testid="notification-more"]')?.textContent ?? null;

/** A notification as the agent delivers it: with the sound it resolved. */
function send(bridge: FakeBridge, notification: Notification, sound: NotificationSound = null) {
  bridge.emit({ kind: 'notification', notification, sound });
}

const chime = { kind: 'default' } as const;

async function start(items = [board('a', 600)]) {
  const player = await renderPlayer(makeState(items, { boards }));
  await tick(100);
  return player;
}

describe('player: notifications', () => {
  it('shows title, message and icon at the bottom in a live region for its duration', async () => {
    const { bridge } = await start();
    expect(region().getAttribute('aria-live')).toBe('polite');
    expect(region().textContent).toBe('');
    send(
      bridge,
      makeNotification('ch-a', {
        title: 'Deploy failed',
        message: 'api v2.3 rolled back',
        icon: 'fa-bug',
        duration: 4,
      }),
    );
    await tick(50);
    expect(region().textContent).toContain('Deploy failed');
    expect(region().textContent).toContain('api v2.3 rolled back');
    expect(region().querySelector('svg[data-icon="bug"]')).not.toBeNull();
    // At the bottom of the screen, over the board.
    const box = region().getBoundingClientRect();
    expect(window.innerHeight - box.bottom).toBeLessThan(window.innerHeight * 0.1);
    expect(box.top).toBeGreaterThan(window.innerHeight / 2);
    await tick(3800);
    expect(region().textContent).toContain('Deploy failed');
    await tick(300);
    expect(region().textContent).toBe('');
    expect(onScreen()).toBe('board:a');
  });

  it('queues notifications in arrival order, each for its whole duration', async () => {
    const { bridge } = await start();
    send(bridge, makeNotification('ch-a', { title: 'First', duration: 3 }));
    send(bridge, makeNotification('ch-a2', { title: 'Second', duration: 2 }));
    send(bridge, makeNotification('ch-a', { title: 'Third', duration: 1 }));
    await tick(50);
    expect(region().textContent).toContain('First');
    expect(more()).toBe('+2 more');
    await tick(2900); // 2.95 s
    expect(region().textContent).toContain('First');
    await tick(100); // 3.05 s
    expect(region().textContent).toContain('Second');
    expect(more()).toBe('+1 more');
    await tick(1900); // 4.95 s
    expect(region().textContent).toContain('Second');
    await tick(100);
    expect(region().textContent).toContain('Third');
    expect(more()).toBeNull();
    await tick(1000);
    expect(region().textContent).toBe('');
  });

  it('works through a long queue without dropping or shortening any', async () => {
    const { bridge } = await start();
    for (let index = 1; index <= 8; index++)
      send(bridge, makeNotification('ch-a', { title: `Note ${index}`, duration: 2 }));
    await tick(50);
    expect(more()).toBe('+7 more');
    for (let index = 1; index <= 8; index++) {
      expect(region().textContent).toContain(`Note ${index}`);
      await tick(1900);
      expect(region().textContent).toContain(`Note ${index}`);
      await tick(100);
    }
    expect(region().textContent).toBe('');
  });

  it('shows a notification delivered twice once', async () => {
    const { bridge } = await start();
    const note = makeNotification('ch-a', { title: 'Once', duration: 1 });
    send(bridge, note);
    send(bridge, note);
    await tick(50);
    expect(more()).toBeNull();
    await tick(1000);
    expect(region().textContent).toBe('');
  });

  it('shows the channels of the board on screen only', async () => {
    const { bridge } = await start([board('a', 600), board('b', 600)]);
    send(bridge, makeNotification('ch-b', { title: 'For board B' }));
    send(bridge, makeNotification('ch-elsewhere', { title: 'For nobody' }));
    await tick(50);
    expect(region().textContent).toBe('');
    // Once they have waited for a board of their channels in vain.
    await tick(CHANNEL_WAIT_MS);
    expect(region().textContent).toBe('');
    expect(bridge.logText()).toMatch(/of channel ch-b not shown/);
    expect(bridge.logText()).toMatch(/of channel ch-elsewhere not shown/);
  });

  it('shows the channel the board item names', async () => {
    const { bridge } = await start([board('b', 600, { channel_id: 'ch-extra' })]);
    send(bridge, makeNotification('ch-extra', { title: 'Named by the item' }));
    await tick(50);
    expect(region().textContent).toContain('Named by the item');
  });

  it('shows the channels of every board of the playlist while an image is on screen', async () => {
    const { bridge } = await renderPlayer(
      makeState([image(PICTURE, 600), board('b', 600)], { boards, media: { [PICTURE]: pngDataUrl('#345') } }),
    );
    await vi.waitFor(() => expect(onScreen()).toBe(`image:${PICTURE}`), browserWait);
    send(bridge, makeNotification('ch-b', { title: 'Over the image' }));
    send(bridge, makeNotification('ch-a', { title: 'Not in the playlist' }));
    await tick(50);
    expect(region().textContent).toContain('Over the image');
    expect(more()).toBeNull();
  });

  it('plays the bundled chime as the notification appears', async () => {
    const { bridge } = await start();
    send(bridge, makeNotification('ch-a', { title: 'One', sound_url: 'default', duration: 2 }), chime);
    send(bridge, makeNotification('ch-a', { title: 'Two', sound_url: 'default', duration: 2 }), chime);
    await tick(50);
    expect(DEFAULT_SOUND).toMatch(/default.*\.wav/);
    expect(played()).toEqual([new URL(DEFAULT_SOUND, location.href).href]);
    await tick(2000);
    expect(played()).toHaveLength(2); // the second one's sound waits for the second one
  });

  it('plays the cached file the agent resolved, without a state naming it', async () => {
    // The agent cached the sound just before it delivered the notification: no state that maps
    // the sound's URL has reached the player, and none needs to.
    const { bridge } = await start();
    const gong = makeNotification('ch-a', {
      title: 'Gong',
      sound_url: 'https://sounds.example.com/gong.wav',
    });
    send(bridge, gong, { kind: 'cached', url: '/media/gong.wav' });
    send(bridge, makeNotification('ch-a', { title: 'Silent', duration: 1 }));
    await tick(11_000);
    expect(played()).toEqual([new URL('/media/gong.wav', location.href).href]);
  });

  it('plays a sound without text at once and shows nothing', async () => {
    const { bridge } = await start();
    send(bridge, makeNotification('ch-a', { title: 'Showing', duration: 5 }));
    send(bridge, makeNotification('ch-a', { title: null, message: null, sound_url: 'default' }), chime);
    await tick(50);
    expect(played()).toHaveLength(1);
    expect(more()).toBeNull();
  });

  it('logs a sound the browser refuses to play', async () => {
    play.mockRejectedValue(new DOMException('no gesture', 'NotAllowedError'));
    const { bridge } = await start();
    send(bridge, makeNotification('ch-a', { title: 'Quiet', sound_url: 'default' }), chime);
    await tick(50);
    expect(region().textContent).toContain('Quiet');
    expect(bridge.logText()).toContain('the notification sound did not play');
  });
});
