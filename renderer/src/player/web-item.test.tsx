import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { board, makeBoard, makeState, onScreen, renderPlayer, tick, useFakeClock } from './player-test-kit';
import { WEB_RETRY_MS } from './web-item';

// Port 9 (discard) refuses at once: the frames load nothing, and nothing leaves the machine.
const PAGE = 'http://127.0.0.1:9/dashboard';
const OTHER = 'http://127.0.0.1:9/other';
const boards = { a: makeBoard('Board A') };
const web = (url: string, duration: number, extra: Record<string, unknown> = {}) => ({
  type: 'web',
  url,
  duration,
  ...extra,
});

beforeEach(() => useFakeClock());
afterEach(() => {
  vi.useRealTimers();
});

const frame = () => document.querySelector<HTMLIFrameElement>('[data-testid="player-current"] iframe');
const face = () => document.querySelector('[data-testid="player-current"] [role="alert"]');

describe('player: web pages in the web player (framed)', () => {
  it('frames a page that allows it, sandboxed, and reports its play', async () => {
    const { bridge } = await renderPlayer(makeState([web(PAGE, 5), board('a', 5)], { boards }));
    await tick(200);
    expect(onScreen()).toBe(`web:${PAGE}`);
    // The shell was asked first, and answered that it does not draw pages.
    expect(bridge.webPages).toEqual([{ url: PAGE, reload_seconds: null }]);
    const iframe = frame();
    expect(iframe?.getAttribute('src')).toBe(PAGE);
    expect(iframe?.getAttribute('sandbox')).toBe('allow-scripts allow-same-origin allow-forms');
    expect(iframe?.getAttribute('referrerpolicy')).toBe('no-referrer');
    expect(iframe?.getAttribute('allow')).toBe('');
    expect(bridge.failures).toEqual([]);
    await tick(5000);
    expect(onScreen()).toBe('board:a');
    expect(bridge.plays.map(({ type, url, board_id }) => ({ type, url, board_id }))).toEqual([
      { type: 'web', url: PAGE, board_id: null },
    ]);
  });

  it('reloads the frame every reload_seconds', async () => {
    await renderPlayer(makeState([web(PAGE, 60, { reload_seconds: 10 })]));
    await tick(200);
    const first = frame();
    expect(first?.dataset.reloads).toBe('0');
    await tick(10_000);
    expect(frame()?.dataset.reloads).toBe('1');
    expect(frame()).not.toBe(first);
  });

  it('says so when a page refuses to be framed, and reports the failure', async () => {
    const { bridge, show } = await renderPlayer(makeState(null));
    const detail = '127.0.0.1:9 refuses to be shown inside another page (X-Frame-Options: DENY)';
    bridge.framings.set(PAGE, { url: PAGE, verdict: 'refused', detail });
    await show(makeState([web(PAGE, 30)]));
    await tick(200);
    expect(frame()).toBeNull();
    expect(face()?.textContent).toContain('127.0.0.1:9 does not allow being shown inside another page');
    expect(face()?.textContent).toContain('X-Frame-Options: DENY');
    expect(face()?.textContent).toContain('Electron');
    expect(bridge.failures).toEqual([{ item: `web:${PAGE}`, reason: detail }]);
  });

  it('shows an offline face for an unreachable page and asks again until it answers', async () => {
    const { bridge, show } = await renderPlayer(makeState(null));
    const detail = '127.0.0.1:9 cannot be reached (connection refused)';
    bridge.framings.set(PAGE, { url: PAGE, verdict: 'unreachable', detail });
    await show(makeState([web(PAGE, 600)]));
    await tick(200);
    expect(face()?.textContent).toContain('cannot be reached from this screen');
    expect(bridge.failures).toEqual([{ item: `web:${PAGE}`, reason: detail }]);
    bridge.framings.delete(PAGE);
    await tick(WEB_RETRY_MS, 1000);
    expect(face()).toBeNull();
    expect(frame()?.getAttribute('src')).toBe(PAGE);
  });
});

describe('player: web pages the shell draws (Electron)', () => {
  it('draws nothing over the shell’s view and takes it down when the item leaves', async () => {
    const { bridge, show } = await renderPlayer(makeState(null));
    bridge.nativeWebPages = true;
    // Even a page that refuses framing: the shell's view is not a frame.
    bridge.framings.set(PAGE, { url: PAGE, verdict: 'refused', detail: 'X-Frame-Options: DENY' });
    await show(makeState([web(PAGE, 5, { reload_seconds: 30 }), board('a', 5)], { boards }));
    await tick(200);
    expect(onScreen()).toBe(`web:${PAGE}`);
    expect(document.querySelector('[data-testid="web-native"]')).not.toBeNull();
    expect(frame()).toBeNull();
    expect(face()).toBeNull();
    expect(bridge.failures).toEqual([]);
    expect(bridge.webPages).toEqual([{ url: PAGE, reload_seconds: 30 }]);
    await tick(5000);
    expect(onScreen()).toBe('board:a');
    expect(bridge.webPages.at(-1)).toEqual({ url: null, reload_seconds: null });
  });

  it('hands the view from one page to the next without taking it down between them', async () => {
    const { bridge, show } = await renderPlayer(makeState(null));
    bridge.nativeWebPages = true;
    await show(makeState([web(PAGE, 5), web(OTHER, 5)]));
    await tick(5300);
    expect(onScreen()).toBe(`web:${OTHER}`);
    expect(bridge.webPages.at(-1)).toEqual({ url: OTHER, reload_seconds: null });
    expect(bridge.webPages.filter((request) => request.url === OTHER)).toHaveLength(1);
  });
});
