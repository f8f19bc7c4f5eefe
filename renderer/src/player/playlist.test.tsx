import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { vi } from 'vitest';
import type { BoardExport } from '../../../src/shared/board-export';
import {
  board,
  image,
  makeBoard,
  makeState,
  onScreen,
  pngDataUrl,
  prepared,
  renderPlayer,
  tick,
  useFakeClock,
} from './player-test-kit';

const boards = { a: makeBoard('Board A'), b: makeBoard('Board B'), c: makeBoard('Board C') };

beforeEach(() => useFakeClock());
afterEach(() => {
  vi.useRealTimers();
});

/** Mounting the first board takes a frame; let it come on screen. */
async function start(...args: Parameters<typeof renderPlayer>) {
  const player = await renderPlayer(...args);
  await tick(100);
  return player;
}

describe('player: playlist', () => {
  it('plays the items in order, each for its duration, and loops', async () => {
    const { bridge } = await start(makeState([board('a', 5), board('b', 3), board('c', 4)], { boards }));
    expect(onScreen()).toBe('board:a');
    await tick(4700);
    expect(onScreen()).toBe('board:a');
    await tick(400); // 5.2 s
    expect(onScreen()).toBe('board:b');
    await tick(2600); // 7.8 s
    expect(onScreen()).toBe('board:b');
    await tick(400); // 8.2 s
    expect(onScreen()).toBe('board:c');
    await tick(4000); // 12.2 s
    expect(onScreen()).toBe('board:a');
    expect(bridge.reports).toEqual(['board:a', 'board:b', 'board:c', 'board:a']);
    expect(document.querySelector('.board')?.getAttribute('data-board-name')).toBe('Board A');
  });

  it('prepares the next item hidden behind the current one before its turn', async () => {
    await start(makeState([board('a', 10), board('b', 10)], { boards }), { prepareLeadMs: 3000 });
    await tick(5000);
    expect(prepared()).toBeNull(); // not before the lead: a hidden board costs renders
    await tick(2500); // 7.6 s: inside the last 3 s
    const next = prepared();
    expect(next?.getAttribute('data-showing')).toBe('board:b');
    expect(next?.getAttribute('aria-hidden')).toBe('true');
    expect(getComputedStyle(next as Element).visibility).toBe('hidden');
    expect(next?.querySelector('[data-board-name="Board B"]')).not.toBeNull();
    expect(onScreen()).toBe('board:a');
    const current = document.querySelector('[data-testid="player-current"]') as Element;
    expect(Number(getComputedStyle(current).zIndex)).toBeGreaterThan(
      Number(getComputedStyle(next as Element).zIndex),
    );
    // The prepared layer is the one that comes on screen: the same element, not a new mount.
    const boardElement = next?.querySelector('.board');
    await tick(2600);
    expect(onScreen()).toBe('board:b');
    expect(document.querySelector('[data-testid="player-current"] .board')).toBe(boardElement);
    expect(prepared()).toBeNull();
  });

  it('skips a missing board and uncached media, saying why', async () => {
    const { bridge } = await start(
      makeState([board('a', 2), board('gone', 2), image('https://cdn.example.com/x.png', 2), board('b', 2)], {
        boards,
      }),
    );
    expect(onScreen()).toBe('board:a');
    await tick(2100);
    expect(onScreen()).toBe('board:b');
    await tick(2100);
    expect(onScreen()).toBe('board:a');
    expect(bridge.reports).toEqual(['board:a', 'board:b', 'board:a']);
    expect(bridge.logText()).toContain('board gone is not in the state');
    expect(bridge.logText()).toContain('image https://cdn.example.com/x.png is not cached yet');
    // Logged once per state, not at every pass of the loop.
    expect(bridge.logs.filter((entry) => entry.message.includes('board gone')).length).toBe(1);
  });

  it('takes a changed playlist at the next switch', async () => {
    const { show } = await start(makeState([board('a', 5), board('b', 5)], { boards }));
    await tick(1000);
    await show(makeState([board('a', 5), board('c', 5)], { boards }));
    expect(onScreen()).toBe('board:a'); // the item on screen is still in the playlist: it plays out
    await tick(3000);
    expect(onScreen()).toBe('board:a');
    expect(prepared()?.getAttribute('data-showing')).toBe('board:c');
    await tick(1200);
    expect(onScreen()).toBe('board:c');
  });

  it('keeps the item on screen when only its settings change, its new duration counting from its next turn', async () => {
    const { show, bridge } = await start(makeState([board('a', 5), board('b', 5)], { boards }));
    const element = document.querySelector('.board');
    await tick(1000);
    await show(makeState([board('a', 10, { channel_id: 'ch-x' }), board('b', 5)], { boards }));
    await tick(3800); // 4.9 s
    expect(document.querySelector('[data-testid="player-current"] .board')).toBe(element); // not remounted
    expect(onScreen()).toBe('board:a');
    await tick(300); // 5.2 s: the time it started with
    expect(onScreen()).toBe('board:b');
    await tick(5000);
    expect(onScreen()).toBe('board:a');
    await tick(9600);
    expect(onScreen()).toBe('board:a');
    await tick(500);
    expect(onScreen()).toBe('board:b');
    expect(bridge.reports).toEqual(['board:a', 'board:b', 'board:a', 'board:b']);
  });

  it('replaces a prepared item that left the playlist', async () => {
    const { show } = await start(makeState([board('a', 5), board('b', 5)], { boards }));
    await tick(3000);
    expect(prepared()?.getAttribute('data-showing')).toBe('board:b');
    await show(makeState([board('a', 5), board('c', 5)], { boards }));
    await tick(100);
    expect(prepared()?.getAttribute('data-showing')).toBe('board:c');
    await tick(2100);
    expect(onScreen()).toBe('board:c');
  });

  it('switches at once when the item on screen leaves the playlist', async () => {
    const { show, bridge } = await start(
      makeState([board('a', 30), board('b', 30), board('c', 30)], { boards }),
    );
    await tick(1000);
    await show(makeState([board('a', 30), board('c', 30)], { boards }));
    expect(onScreen()).toBe('board:a');
    await show(makeState([board('b', 30), board('c', 30)], { boards }));
    await tick(100);
    expect(onScreen()).toBe('board:b');
    expect(bridge.reports).toEqual(['board:a', 'board:b']);
  });

  it('switches at once when the board on screen is no longer in the state', async () => {
    const { show } = await start(makeState([board('a', 30), board('b', 30)], { boards }));
    await show(makeState([board('a', 30), board('b', 30)], { boards: { b: boards.b } }));
    await tick(100);
    expect(onScreen()).toBe('board:b');
  });

  it('keeps a single item on screen', async () => {
    const { bridge } = await start(makeState([board('a', 2)], { boards }));
    await tick(10_000);
    expect(onScreen()).toBe('board:a');
    expect(prepared()).toBeNull();
    expect(bridge.reports).toEqual(['board:a']);
  });

  it('moves on from a single item once another one can play', async () => {
    const { show } = await start(makeState([board('a', 2), board('b', 2)], { boards: { a: boards.a } }));
    await tick(5000);
    expect(onScreen()).toBe('board:a');
    await show(makeState([board('a', 2), board('b', 2)], { boards }));
    await tick(100); // a's time is long up: b comes as soon as it is ready
    expect(onScreen()).toBe('board:b');
  });

  it('shows the waiting screen with the device when there is no playlist', async () => {
    const { bridge, screen } = await start(makeState(null));
    await expect.element(screen.getByRole('heading', { name: 'Waiting for a playlist' })).toBeVisible();
    await expect.element(screen.getByTestId('device-tag')).toHaveTextContent('lobby-screen');
    await expect.element(screen.getByTestId('device-name')).toHaveTextContent('Lobby');
    expect(bridge.reports).toEqual(['waiting']);
  });

  it('shows the waiting screen when nothing of the playlist can play, and leaves it when something can', async () => {
    const { bridge, screen, show } = await start(makeState([board('a', 5)], { boards: {} }));
    await expect.element(screen.getByRole('heading', { name: 'Waiting for a playlist' })).toBeVisible();
    await show(makeState([board('a', 5)], { boards }));
    await tick(100);
    expect(onScreen()).toBe('board:a');
    expect(screen.container.querySelector('.waiting')).toBeNull();
    await show(makeState(null, { boards }));
    expect(onScreen()).toBe('waiting');
    expect(bridge.reports).toEqual(['waiting', 'board:a', 'waiting']);
  });

  it('skips an item whose view throws, and plays on', async () => {
    const broken = { ...makeBoard('Broken'), widgets: null } as unknown as BoardExport;
    const { bridge } = await start(
      makeState([board('a', 2), board('x', 2), board('b', 2)], { boards: { ...boards, x: broken } }),
    );
    await tick(2100);
    expect(onScreen()).toBe('board:b');
    expect(bridge.logText()).toMatch(/skipped board:x: its view failed/);
    await tick(2100);
    expect(onScreen()).toBe('board:a');
  });

  it('skips a prepared item that is not ready in time, keeping the current one meanwhile', async () => {
    // An image that never decodes in time: its data never arrives (a URL the test page cannot load
    // fails fast, so stall the decode instead).
    const decode = vi
      .spyOn(HTMLImageElement.prototype, 'decode')
      .mockReturnValue(new Promise<void>(() => undefined));
    const media = { 'https://cdn.example.com/slow.png': 'data:image/png;base64,' };
    const { bridge } = await start(
      makeState([board('a', 2), image('https://cdn.example.com/slow.png', 2), board('b', 2)], {
        boards,
        media,
      }),
      { readyTimeoutMs: 4000 },
    );
    await tick(2500);
    expect(onScreen()).toBe('board:a'); // due, but the image is not ready: a stays a bit longer
    await tick(3000);
    expect(onScreen()).toBe('board:b');
    expect(bridge.logText()).toMatch(
      /skipped image:https:\/\/cdn.example.com\/slow.png: it was not ready within 4 s/,
    );
    decode.mockRestore();
  });

  it('readies a board without animation frames, where frames have stopped (a hidden page)', async () => {
    const frames = vi.spyOn(window, 'requestAnimationFrame').mockReturnValue(0);
    await start(makeState([board('a', 2), board('b', 2)], { boards }));
    await tick(2100);
    expect(onScreen()).toBe('board:b');
    frames.mockRestore();
  });

  it('starts with a first board at once, without a waiting screen before it', async () => {
    const { bridge, screen } = await renderPlayer(makeState([board('a', 5)], { boards }));
    expect(onScreen()).toBe('board:a'); // no frame has run yet
    expect(screen.container.querySelector('.waiting')).toBeNull();
    expect(bridge.reports).toEqual(['board:a']);
  });

  it('reports nothing while a first image is prepared, then the image once decoded', async () => {
    let decoded: () => void = () => undefined;
    const decode = vi
      .spyOn(HTMLImageElement.prototype, 'decode')
      .mockReturnValue(new Promise<void>((resolve) => (decoded = resolve)));
    const url = 'https://cdn.example.com/first.png';
    const { bridge } = await renderPlayer(
      makeState([image(url, 5)], { media: { [url]: pngDataUrl('#123') } }),
    );
    await tick(500);
    expect(bridge.reports).toEqual([]);
    expect(onScreen()).toBe('waiting');
    expect(prepared()?.getAttribute('data-showing')).toBe(`image:${url}`);
    decoded();
    await tick(50);
    expect(onScreen()).toBe(`image:${url}`);
    expect(bridge.reports).toEqual([`image:${url}`]);
    decode.mockRestore();
  });
});
