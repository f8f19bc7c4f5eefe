import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Notification, NotificationTarget } from '../../../src/shared/notification';
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

// Notifications sent to screens (every screen, a group, one screen) rather than to a channel: the
// service delivers them to this screen on purpose, so it shows them whatever its boards' channels.

const boards = { a: makeBoard('Board A', ['ch-a']) };
const PICTURE = 'https://cdn.example.com/picture.png';

beforeEach(() => {
  useFakeClock();
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const region = () => document.querySelector('[role="status"]') as HTMLElement;

/** As the service sends one to screens: no channel, its target instead. */
function toScreens(target: NotificationTarget, fields: Partial<Notification> = {}): Notification {
  return makeNotification('unused', { channel_id: null, target, ...fields });
}

function send(bridge: FakeBridge, notification: Notification) {
  bridge.emit({ kind: 'notification', notification, sound: null });
}

describe('player: notifications sent to screens', () => {
  it('shows one sent to its group over a board that uses no channel of it', async () => {
    const { bridge } = await renderPlayer(makeState([board('a', 600)], { boards }));
    await tick(100);
    send(bridge, toScreens({ group_id: 'g-lobby' }, { title: 'Lobby closes at six', duration: 3 }));
    await tick(50);
    expect(region().textContent).toContain('Lobby closes at six');
    await tick(3000);
    expect(region().textContent).toBe('');
    expect(bridge.logText()).not.toMatch(/not shown/);
  });

  it('shows one sent to every screen over an image, in a playlist without boards', async () => {
    const { bridge } = await renderPlayer(
      makeState([image(PICTURE, 600)], { boards: {}, media: { [PICTURE]: pngDataUrl('#345') } }),
    );
    await vi.waitFor(() => expect(onScreen()).toBe(`image:${PICTURE}`), browserWait);
    send(bridge, toScreens({ all: true }, { title: 'Fire drill at noon' }));
    send(bridge, toScreens({ device_tag: 'lobby' }, { title: 'For this screen' }));
    await tick(50);
    expect(region().textContent).toContain('Fire drill at noon');
    expect(document.querySelector('[data-testid="notification-more"]')?.textContent).toBe('+1 more');
  });

  it('still keeps a channel notification to the screens whose boards use the channel', async () => {
    const { bridge } = await renderPlayer(makeState([board('a', 600)], { boards }));
    await tick(100);
    send(bridge, makeNotification('ch-other', { title: 'Not here' }));
    await tick(50);
    expect(region().textContent).toBe('');
    await tick(CHANNEL_WAIT_MS);
    expect(bridge.logText()).toMatch(/of channel ch-other not shown/);
  });

  it('shows a channel notification that came a moment before the board that uses the channel', async () => {
    const { bridge, show } = await renderPlayer(makeState([board('a', 600)], { boards }));
    await tick(100);
    // Sent right after Board A was saved following ch-new; the screen hears of that a moment later.
    send(bridge, makeNotification('ch-new', { title: 'Soup is ready' }));
    await tick(200);
    expect(region().textContent).toBe('');
    await show(makeState([board('a', 600)], { boards: { a: makeBoard('Board A', ['ch-a', 'ch-new']) } }));
    await tick(50);
    expect(region().textContent).toContain('Soup is ready');
    expect(bridge.logText()).not.toMatch(/not shown/);
  });
});
