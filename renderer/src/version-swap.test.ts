import { afterEach, describe, expect, it, vi } from 'vitest';
import type { WebVersionsState } from '../../src/shared/web-bridge-protocol';
import { followVersions } from './version-swap';

// The page at the top following the web player's versions, in Chromium, with a stand-in for its
// location and its event stream. The swap itself, measured frame by frame against the real
// player server, is e2e/web-player-update.spec.ts.

/** The event stream of the player, driven by the test. */
class FakeEvents {
  static last: FakeEvents | null = null;
  private readonly listeners: ((event: MessageEvent<string>) => void)[] = [];
  constructor(readonly url: string) {
    FakeEvents.last = this;
  }
  addEventListener(_type: 'message', listener: (event: MessageEvent<string>) => void): void {
    this.listeners.push(listener);
  }
  send(data: string): void {
    for (const listener of this.listeners) listener(new MessageEvent('message', { data }));
  }
}

const entry = (label: string) => ({ label, version: label, url: `/v/${label}/` });
const state = (live: string, trial: string | null = null): WebVersionsState => ({
  live: entry(live),
  trial: trial === null ? null : entry(trial),
});

function topPage(pathname = '/v/1.0.0/') {
  const replace = vi.fn();
  const win = {
    top: null as unknown,
    location: { protocol: 'http:', pathname, replace },
    document,
    requestAnimationFrame: (callback: FrameRequestCallback) => window.requestAnimationFrame(callback),
    EventSource: FakeEvents,
  };
  win.top = win;
  return { win: win as unknown as Window & typeof globalThis, replace };
}

const frames = () => [...document.querySelectorAll<HTMLIFrameElement>('iframe[data-version]')];
const tell = (next: WebVersionsState) => FakeEvents.last?.send(JSON.stringify(next));
const twoFrames = () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));

afterEach(() => {
  for (const frame of frames()) frame.remove();
  FakeEvents.last = null;
});

describe('the page following the player versions', () => {
  it('loads a version on trial unseen, shows it in one change, then stops its own app', async () => {
    const stopApp = vi.fn();
    followVersions(stopApp, topPage().win);
    expect(FakeEvents.last?.url).toBe('/versions/events');
    tell(state('1.0.0'));
    expect(frames()).toEqual([]);

    tell(state('1.0.0', '1.1.0'));
    const [trial] = frames();
    expect(trial?.getAttribute('src')).toBe('/v/1.1.0/');
    expect(trial?.style.opacity).toBe('0');
    expect(trial?.style.pointerEvents).toBe('none');

    tell(state('1.1.0'));
    expect(trial?.style.opacity).toBe('1');
    expect(trial?.style.pointerEvents).toBe('auto');
    expect(stopApp).not.toHaveBeenCalled();
    await twoFrames();
    await twoFrames();
    expect(stopApp).toHaveBeenCalledOnce();

    // The next version: the same way, the frame it replaces removed once it is covered.
    tell(state('1.1.0', '1.2.0'));
    expect(frames().map((frame) => frame.dataset.version)).toEqual(['1.1.0', '1.2.0']);
    tell(state('1.2.0'));
    expect(frames().map((frame) => frame.style.opacity)).toEqual(['1', '1']);
    await twoFrames();
    await twoFrames();
    expect(frames().map((frame) => frame.dataset.version)).toEqual(['1.2.0']);
    expect(stopApp).toHaveBeenCalledOnce();
  });

  it('removes a version dropped from trial at once, never shown, its own app kept', async () => {
    const stopApp = vi.fn();
    followVersions(stopApp, topPage().win);
    tell(state('1.0.0', '1.1.0'));
    expect(frames()).toHaveLength(1);
    tell(state('1.0.0'));
    expect(frames()).toEqual([]);
    await twoFrames();
    expect(stopApp).not.toHaveBeenCalled();
  });

  it('loads its own version again when it is back on screen after another one', async () => {
    const { win, replace } = topPage();
    followVersions(() => undefined, win);
    tell(state('1.1.0'));
    tell(state('1.0.0'));
    expect(replace).toHaveBeenCalledWith('/v/1.0.0/');
  });

  it('does nothing in a frame, or on a page not under a version', () => {
    const inFrame = topPage();
    (inFrame.win as unknown as { top: unknown }).top = window;
    followVersions(() => undefined, inFrame.win);
    followVersions(() => undefined, topPage('/').win);
    expect(FakeEvents.last).toBeNull();
  });
});
