import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { render } from 'vitest-browser-react';
import type { PlayerState } from '../../../src/shared/bridge';
import { App } from '../app';
import {
  FakeBridge,
  board,
  browserWait,
  makeBoard,
  makeNotification,
  makeState,
  onScreen,
  tick,
  video,
} from '../player/player-test-kit';
import { RemoteCommands } from '../remote-commands';
import '../styles.css';

const boards = { a: makeBoard('Board A', ['ch-a']), b: makeBoard('Board B', ['ch-b']) };
const START = Date.parse('2026-11-21T22:00:00.000Z');
const at = (ms: number) => new Date(START + ms).toISOString();

const power = (state: PlayerState, off: boolean): PlayerState => ({
  ...state,
  display: { rotation: 0, off },
});
const screenOff = () => document.querySelector('[data-testid="screen-off"]');
const stageText = () => document.querySelector('[data-testid="stage"]')?.textContent ?? '';

beforeEach(() => {
  // The player's clocks, and the date the plays are stamped with.
  vi.useFakeTimers({
    toFake: ['setTimeout', 'clearTimeout', 'requestAnimationFrame', 'cancelAnimationFrame', 'Date'],
  });
  vi.setSystemTime(START);
});
afterEach(() => {
  vi.useRealTimers();
});

async function showApp(state: PlayerState) {
  const bridge = new FakeBridge(state);
  await render(<App bridge={bridge} />);
  await tick(100);
  return bridge;
}

describe('a screen in a power window', () => {
  it('goes black and still: nothing advances, no notification, no play; back on, the item on screen starts over', async () => {
    const playing = makeState([board('a', 2), board('b', 2)], { boards });
    const bridge = await showApp(power(playing, false));
    await tick(2400); // b came on at 2000; now 2500
    expect(onScreen()).toBe('board:b');
    bridge.emit({
      kind: 'notification',
      notification: makeNotification('ch-b', { title: 'Now' }),
      sound: null,
    });
    await tick(100);
    expect(stageText()).toContain('Now');

    bridge.emit({ kind: 'state', state: power(playing, true) }); // at 2600
    await tick(100);
    expect(screenOff()).not.toBeNull();
    expect(document.querySelector('.player')).toBeNull();
    expect(stageText()).toBe('');
    expect(getComputedStyle(screenOff()!).backgroundColor).toBe('rgb(0, 0, 0)');
    expect(getComputedStyle(screenOff()!).cursor).toBe('none');
    // What was on screen is reported up to the moment it went off.
    expect(bridge.plays.map((play) => [play.board_id, play.started_at, play.ended_at])).toEqual([
      ['a', at(0), at(2000)],
      ['b', at(2000), at(2600)],
    ]);
    expect(bridge.reports.at(-1)).toBe('off');
    expect(bridge.logText()).toContain('the screen is off: 1 notification(s) dropped');

    // Ten seconds off: nothing plays, nothing is shown, nothing is reported.
    bridge.emit({
      kind: 'notification',
      notification: makeNotification('ch-b', { title: 'Late' }),
      sound: null,
    });
    await tick(10_000);
    expect(stageText()).toBe('');
    expect(bridge.plays).toHaveLength(2);
    expect(bridge.reports.at(-1)).toBe('off');
    expect(bridge.logText()).toMatch(/notification n-\d+ not shown: the screen is off/);

    // Back on at 12 700: b again, from its start, for its whole 2 s; nothing from the night.
    bridge.emit({ kind: 'state', state: power(playing, false) });
    await tick(100);
    expect(screenOff()).toBeNull();
    expect(onScreen()).toBe('board:b');
    expect(bridge.reports.at(-1)).toBe('board:b');
    expect(document.querySelector('.player-notification')).toBeNull();
    await tick(1800);
    expect(onScreen()).toBe('board:b');
    await tick(300);
    expect(onScreen()).toBe('board:a');
    expect(bridge.plays.slice(2).map((play) => [play.board_id, play.started_at, play.ended_at])).toEqual([
      ['b', at(12_700), at(14_700)],
    ]);
  });

  it('starts black when it starts off, and plays nothing until on', async () => {
    const playing = makeState([board('a', 2), board('b', 2)], { boards });
    const bridge = await showApp(power(playing, true));
    await tick(5000);
    expect(screenOff()).not.toBeNull();
    expect(bridge.plays).toEqual([]);
    expect(bridge.reports).toEqual(['off']);
    bridge.emit({ kind: 'state', state: power(playing, false) });
    await tick(100);
    expect(onScreen()).toBe('board:a');
    expect(bridge.reports).toEqual(['off', 'board:a']);
  });

  it('still shows the identify face an operator asks for', async () => {
    const bridge = new FakeBridge(power(makeState([board('a', 2)], { boards }), true));
    await render(
      <App bridge={bridge}>
        <RemoteCommands bridge={bridge} />
      </App>,
    );
    await tick(100);
    bridge.emit({ kind: 'identify', name: 'Lobby', tag: 'lobby-screen', seconds: 10 });
    await tick(100);
    expect(screenOff()).not.toBeNull();
    expect(document.querySelector('[data-testid="identify-name"]')?.textContent).toBe('Lobby');
  });

  it('blacks out the setup faces too', async () => {
    const state: PlayerState = {
      ...power(makeState(null), true),
      setup: { kind: 'refused', service_url: 'http://wall.lan:8787' },
    };
    await showApp(state);
    expect(screenOff()).not.toBeNull();
    expect(stageText()).toBe('');
  });
});

/** A WebM recorded from a canvas (as media.test.tsx does): a real video with nothing to fetch. */
async function recordClip(frames: number): Promise<string> {
  const canvas = document.createElement('canvas');
  canvas.width = 64;
  canvas.height = 36;
  const context = canvas.getContext('2d')!;
  const recorder = new MediaRecorder(canvas.captureStream(30), { mimeType: 'video/webm' });
  const chunks: Blob[] = [];
  recorder.ondataavailable = (event) => chunks.push(event.data);
  const stopped = new Promise((resolve) => (recorder.onstop = resolve));
  recorder.start();
  let frame = 0;
  const painter = setInterval(() => {
    context.fillStyle = frame++ % 2 ? '#c33' : '#33c';
    context.fillRect(0, 0, canvas.width, canvas.height);
    if (frame < frames) return;
    clearInterval(painter);
    recorder.stop();
  }, 30);
  await stopped;
  return URL.createObjectURL(new Blob(chunks, { type: 'video/webm' }));
}

describe('a video in a power window', () => {
  const CLIP = 'https://cdn.example.com/clip.webm';
  let clip: string;
  beforeAll(async () => {
    clip = await recordClip(20);
  });

  it('stops (no picture, no sound) and plays again from its start when back on', async () => {
    const playing = makeState([video(CLIP, { duration: 30, muted: false })], { media: { [CLIP]: clip } });
    const bridge = new FakeBridge(power(playing, false));
    await render(<App bridge={bridge} />);
    await vi.waitFor(() => expect(onScreen()).toBe(`video:${CLIP}`), browserWait);
    const first = document.querySelector('video')!;
    await vi.waitFor(() => expect(first.paused).toBe(false), browserWait);

    bridge.emit({ kind: 'state', state: power(playing, true) });
    await tick(100);
    expect(document.querySelector('video')).toBeNull();
    expect(first.paused).toBe(true);

    bridge.emit({ kind: 'state', state: power(playing, false) });
    await vi.waitFor(() => expect(document.querySelector('video')).not.toBeNull(), browserWait);
    const again = document.querySelector('video')!;
    expect(again).not.toBe(first);
    await vi.waitFor(() => expect(again.paused).toBe(false), browserWait);
    expect(again.currentTime).toBeLessThan(0.5);
  });
});
