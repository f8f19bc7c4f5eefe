import { StrictMode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import { render } from 'vitest-browser-react';
import type { PlayerState } from '../../../src/shared/bridge';
import { App } from '../app';
import {
  FakeBridge,
  board,
  browserWait,
  makeBoard,
  makeOverride,
  makeState,
  pngDataUrl,
  tick,
  useFakeClock,
} from '../player/player-test-kit';
import { DEFAULT_SOUND } from '../player/sound';
import { contrastRatio, luminance, paintedRgb } from './override-colors';
import { OVERRIDE_SOUND_WAIT_MS } from './override-sound';
import '../styles.css';

const playing = makeState([board('a', 600)], { boards: { a: makeBoard('Board A') } });
const GONG = 'https://sounds.example.com/gong.wav';
const PICTURE = 'https://cdn.example.com/exit-map.png';

let play: MockInstance<HTMLMediaElement['play']>;
/** Where each play() call came from (the board plays no media, so each is a sound). */
const played = () => play.mock.contexts.map((element) => (element as HTMLMediaElement).src);
const chime = () => new URL(DEFAULT_SOUND, location.href).href;

const face = () => document.querySelector<HTMLElement>('[data-testid="override"]')!;

async function showApp(state: PlayerState, strict = false) {
  const bridge = new FakeBridge(state);
  const app = <App bridge={bridge} />;
  await render(strict ? <StrictMode>{app}</StrictMode> : app);
  await tick(100);
  return bridge;
}

beforeEach(() => {
  useFakeClock();
  play = vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('the colours of an override', () => {
  /** The face's background and text as painted, and their contrast ratio. */
  function painted() {
    const style = getComputedStyle(face());
    const text = paintedRgb(style.color);
    const background = paintedRgb(style.backgroundImage.match(/rgba?\([^)]*\)/)?.[0] ?? 'transparent');
    return { text, background, ratio: contrastRatio(luminance(text), luminance(background)) };
  }

  it('is the alarm red with white text when it names no colour', async () => {
    await showApp({ ...playing, override: makeOverride() });
    expect(painted()).toMatchObject({ background: [176, 0, 32], text: [255, 255, 255] });
    expect(painted().ratio).toBeGreaterThan(7);
  });

  it.each([
    ['#ffeb3b', [0, 0, 0]],
    ['yellow', [0, 0, 0]],
    ['hsl(120 100% 80%)', [0, 0, 0]],
    ['#0b1f4b', [255, 255, 255]],
    ['rgb(40 40 40)', [255, 255, 255]],
    // Half-transparent white over the black underneath is a mid grey: black text reads better.
    ['#ffffff80', [0, 0, 0]],
  ])('writes on %s in the colour that reads better', async (color, text) => {
    await showApp({ ...playing, override: makeOverride({ background_color: color }) });
    const { ratio, text: drawn } = painted();
    expect(drawn).toEqual(text);
    expect(ratio).toBeGreaterThanOrEqual(4.5);
  });

  it('is opaque: the board underneath does not show through a translucent colour', async () => {
    await showApp({ ...playing, override: makeOverride({ background_color: 'rgba(255, 0, 0, 0.1)' }) });
    expect(getComputedStyle(face()).backgroundColor).toBe('rgb(0, 0, 0)');
  });

  it('falls back to the alarm red on a colour the browser cannot read', async () => {
    await showApp({ ...playing, override: makeOverride({ background_color: 'notacolour' }) });
    expect(painted().background).toEqual([176, 0, 32]);
  });

  it('shows its image from the cache, over the text', async () => {
    const local = pngDataUrl('#0a0');
    await showApp({
      ...playing,
      media: { [PICTURE]: local },
      override: makeOverride({ image_url: PICTURE }),
    });
    const image = face().querySelector('img');
    expect(image?.getAttribute('src')).toBe(local);
    await vi.waitFor(() => expect(image?.naturalWidth).toBe(64), browserWait);
    const title = face().querySelector('h1')!.getBoundingClientRect();
    expect(image!.getBoundingClientRect().bottom).toBeLessThanOrEqual(title.top);
    expect(image!.getBoundingClientRect().height).toBeGreaterThan(0);
  });
});

describe('the sound of an override', () => {
  it('plays the chime once as it appears, and not again for later states of it, in strict mode', async () => {
    const bridge = await showApp(playing, true);
    expect(played()).toEqual([]);
    const override = makeOverride({ sound_url: 'default' });
    bridge.emit({ kind: 'state', state: { ...playing, override } });
    await tick(50);
    expect(played()).toEqual([chime()]);
    for (let again = 0; again < 3; again++) {
      bridge.emit({ kind: 'state', state: { ...playing, override, online: again % 2 === 0 } });
      await tick(50);
    }
    expect(played()).toEqual([chime()]);
    // Another override plays its own, once.
    bridge.emit({
      kind: 'state',
      state: { ...playing, override: makeOverride({ id: 'ovr_2', sound_url: 'default' }) },
    });
    await tick(50);
    expect(played()).toEqual([chime(), chime()]);
  });

  it('plays its own sound from the cache once the agent has cached it, never from the web', async () => {
    const override = makeOverride({ sound_url: GONG });
    const bridge = await showApp({ ...playing, override });
    expect(played()).toEqual([]);
    await tick(1000);
    bridge.emit({ kind: 'state', state: { ...playing, override, media: { [GONG]: '/media/gong.wav' } } });
    await tick(50);
    bridge.emit({ kind: 'state', state: { ...playing, override, media: { [GONG]: '/media/gong.wav' } } });
    await tick(OVERRIDE_SOUND_WAIT_MS);
    expect(played()).toEqual([new URL('/media/gong.wav', location.href).href]);
  });

  it('plays the chime in its place when it is not cached in time', async () => {
    const bridge = await showApp({ ...playing, override: makeOverride({ sound_url: GONG }) });
    // Shown 100 ms ago (showApp): 4.8 s more is short of the wait, 0.2 s more past it.
    await tick(OVERRIDE_SOUND_WAIT_MS - 200);
    expect(played()).toEqual([]);
    await tick(200);
    expect(played()).toEqual([chime()]);
    expect(bridge.logText()).toContain(`the override's sound ${GONG} is not cached yet; playing the chime`);
  });

  it('plays nothing without a sound, and logs a sound the browser refuses', async () => {
    await showApp({ ...playing, override: makeOverride() });
    await tick(OVERRIDE_SOUND_WAIT_MS);
    expect(played()).toEqual([]);
    play.mockRejectedValue(new DOMException('no gesture', 'NotAllowedError'));
    const bridge = await showApp({
      ...playing,
      override: makeOverride({ id: 'ovr_3', sound_url: 'default' }),
    });
    await tick(50);
    expect(bridge.logText()).toContain("the override's sound did not play");
  });
});
