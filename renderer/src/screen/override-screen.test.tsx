import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { page } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import type { PlayerState } from '../../../src/shared/bridge';
import { App } from '../app';
import {
  FakeBridge,
  board,
  browserWait,
  makeBoard,
  makeNotification,
  makeOverride,
  makeState,
  onScreen,
  tick,
  useFakeClock,
} from '../player/player-test-kit';
import { RemoteCommands } from '../remote-commands';
import '../styles.css';

const boards = { a: makeBoard('Board A', ['ch-a']), b: makeBoard('Board B', ['ch-a']) };
const playing = makeState([board('a', 2), board('b', 2)], { boards });

const face = () => document.querySelector<HTMLElement>('[data-testid="override"]');
/** The element a viewer sees at the middle of the screen (and at a corner): what is on top there. */
const topAt = (x: number, y: number) => document.elementFromPoint(x, y);
const onTop = (element: Element | null) => {
  const middle = topAt(innerWidth / 2, innerHeight / 2);
  const corner = topAt(2, innerHeight - 2);
  return element !== null && element.contains(middle) && element.contains(corner);
};

async function showApp(state: PlayerState, withCommands = false) {
  const bridge = new FakeBridge(state);
  await render(<App bridge={bridge}>{withCommands && <RemoteCommands bridge={bridge} />}</App>);
  await tick(100);
  return bridge;
}

beforeEach(async () => {
  await page.viewport(1920, 1080);
  useFakeClock();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('an emergency override on screen', () => {
  it('covers a playing board, which waits underneath and plays on from the same item when cleared', async () => {
    const bridge = await showApp(playing);
    await tick(1000); // board a since 0, b due at 2000
    const layer = document.querySelector('[data-testid="player-current"]');
    expect(onScreen()).toBe('board:a');

    bridge.emit({ kind: 'state', state: { ...playing, override: makeOverride() } });
    await tick(50);
    expect(face()?.textContent).toContain('Fire alarm');
    expect(face()?.textContent).toContain('Leave the building by the nearest exit.');
    expect(onTop(face())).toBe(true);
    expect(face()?.getBoundingClientRect()).toMatchObject({ x: 0, y: 0, width: 1920, height: 1080 });
    await vi.waitFor(() => expect(bridge.reports.at(-1)).toBe('override:ovr_1'), browserWait);

    // Ten seconds covered: the board stays mounted (the same element) and nothing advances or counts.
    const plays = bridge.plays.length;
    await tick(10_000);
    expect(onScreen()).toBe('board:a');
    expect(document.querySelector('[data-testid="player-current"]')).toBe(layer);
    expect(bridge.plays).toHaveLength(plays);
    bridge.emit({
      kind: 'notification',
      notification: makeNotification('ch-a', { title: 'Hidden' }),
      sound: null,
    });
    await tick(50);
    expect(document.body.textContent).not.toContain('Hidden');
    expect(bridge.logText()).toContain('not shown: an override covers the screen');

    bridge.emit({ kind: 'state', state: { ...playing, override: null } });
    await tick(50);
    expect(face()).toBeNull();
    expect(onScreen()).toBe('board:a');
    expect(document.querySelector('[data-testid="player-current"]')).toBe(layer);
    await vi.waitFor(() => expect(bridge.reports.at(-1)).toBe('board:a'), browserWait);
    // Started over for its whole 2 s, then the playlist goes on.
    await tick(1900);
    expect(onScreen()).toBe('board:a');
    await tick(200);
    expect(onScreen()).toBe('board:b');
  });

  it('covers the off screen, and the board plays once it is cleared and the screen is on', async () => {
    const off: PlayerState = { ...playing, display: { rotation: 0, off: true } };
    const bridge = await showApp({ ...off, override: makeOverride({ title: 'Tornado warning' }) });
    expect(document.querySelector('[data-testid="screen-off"]')).not.toBeNull();
    expect(face()?.textContent).toContain('Tornado warning');
    expect(onTop(face())).toBe(true);

    bridge.emit({ kind: 'state', state: off });
    await tick(50);
    expect(face()).toBeNull();
    expect(onTop(document.querySelector('[data-testid="screen-off"]'))).toBe(true);
  });

  it('covers the pairing face of a screen that is not set up', async () => {
    const bridge = await showApp({
      ...makeState(null),
      setup: {
        kind: 'pairing',
        code: '7HK3MQ',
        service_url: 'http://wall.lan:8787',
        claim_url: 'http://wall.lan:8787/#/pair?code=7HK3MQ',
        expires_at: '2026-11-21T08:10:00.000Z',
      },
      override: makeOverride(),
    });
    const code = document.body.querySelector('.setup');
    expect(code).not.toBeNull();
    expect(onTop(face())).toBe(true);
    expect(code?.contains(topAt(innerWidth / 2, innerHeight / 2))).toBe(false);
    expect(bridge.reports).toEqual([]);
  });

  it('stays under the identify face of a remote command', async () => {
    const bridge = await showApp({ ...playing, override: makeOverride() }, true);
    expect(onTop(face())).toBe(true);
    bridge.emit({ kind: 'identify', name: 'Lobby', tag: 'lobby-screen', seconds: 5 });
    await tick(50);
    expect(onTop(document.querySelector('[data-testid="identify"]'))).toBe(true);
    await tick(5000);
    expect(onTop(face())).toBe(true);
  });

  it('replaces one override by the next, by id', async () => {
    const bridge = await showApp({ ...playing, override: makeOverride() });
    bridge.emit({
      kind: 'state',
      state: { ...playing, override: makeOverride({ id: 'ovr_2', title: 'All clear soon' }) },
    });
    await tick(50);
    expect(face()?.getAttribute('data-override-id')).toBe('ovr_2');
    expect(face()?.textContent).toContain('All clear soon');
    await vi.waitFor(() => expect(bridge.reports).toEqual(['override:ovr_1', 'override:ovr_2']), browserWait);
  });
});

describe('the override fits its text', () => {
  const long = 'Attention. '.repeat(91).slice(0, 1000);
  const fontPx = (selector: string) =>
    parseFloat(getComputedStyle(document.querySelector(selector)!).fontSize);

  /** The content's box lies inside the face: nothing clipped at any edge. */
  function expectUnclipped(): void {
    const outer = face()!.getBoundingClientRect();
    for (const selector of ['[data-testid="override-title"]', '[data-testid="override-message"]']) {
      const inner = document.querySelector(selector)!;
      const box = inner.getBoundingClientRect();
      expect(box.top).toBeGreaterThanOrEqual(outer.top);
      expect(box.bottom).toBeLessThanOrEqual(outer.bottom);
      expect(box.left).toBeGreaterThanOrEqual(outer.left);
      expect(box.right).toBeLessThanOrEqual(outer.right);
      expect(inner.scrollWidth).toBeLessThanOrEqual(inner.clientWidth);
    }
  }

  it('draws a short message huge, on a landscape screen', async () => {
    await showApp({ ...playing, override: makeOverride({ title: 'Fire', message: 'Leave now.' }) });
    expectUnclipped();
    // 13 and 7 hundredths of the 1080 px height, unscaled.
    expect(fontPx('[data-testid="override-title"]')).toBeCloseTo(140.4, 0);
    expect(fontPx('[data-testid="override-message"]')).toBeCloseTo(75.6, 0);
  });

  it('fits 1,000 characters on a landscape screen, still large', async () => {
    await showApp({ ...playing, override: makeOverride({ message: long }) });
    expect(long).toHaveLength(1000);
    expectUnclipped();
    expect(fontPx('[data-testid="override-message"]')).toBeGreaterThanOrEqual(30);
  });

  it('fits 1,000 characters on a portrait screen', async () => {
    await page.viewport(1080, 1920);
    await showApp({ ...playing, override: makeOverride({ message: long }) });
    expectUnclipped();
    expect(fontPx('[data-testid="override-message"]')).toBeGreaterThanOrEqual(30);
  });

  it('fits again when the screen is turned', async () => {
    const bridge = await showApp({ ...playing, override: makeOverride({ message: long }) });
    bridge.emit({
      kind: 'state',
      state: { ...playing, display: { rotation: 90, off: false }, override: makeOverride({ message: long }) },
    });
    await tick(50);
    expectUnclipped();
    expect(face()?.getBoundingClientRect()).toMatchObject({ width: 1920, height: 1080 });
  });
});
