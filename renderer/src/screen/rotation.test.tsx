import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { page } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import { boardExportSchema, type BoardExport } from '../../../src/shared/board-export';
import type { PlayerState } from '../../../src/shared/bridge';
import type { Rotation } from '../../../src/shared/schedule';
import { App } from '../app';
import {
  FakeBridge,
  board,
  makeNotification,
  makeState,
  realPause,
  useFakeClock,
} from '../player/player-test-kit';
import { RemoteCommands } from '../remote-commands';
// The page's own styles (main.tsx loads them): the letterbox and the faces' sizes.
import '../styles.css';

/**
 * One value widget in the board's top-left cell: `columns` x `rows` cells over `size`. Where it
 * lands on the screen tells which way the picture turned.
 */
function cornerBoard(size: [number, number], columns: number, rows: number): BoardExport {
  return boardExportSchema.parse({
    name: 'Corner',
    size,
    columns,
    rows,
    channel_ids: ['ch-a'],
    widgets: [
      {
        variant: 'value',
        column: 0,
        row: 0,
        width: 1,
        height: 1,
        in_board_index: 0,
        flow: { tag: 'corner', data: { value: 42 }, errored: false },
      },
    ],
  });
}

const PORTRAIT = cornerBoard([1080, 1920], 4, 8);
const LANDSCAPE = cornerBoard([1920, 1080], 8, 4);

function stateWith(boardExport: BoardExport, rotation: Rotation): PlayerState {
  return {
    ...makeState([board('a', 60)], { boards: { a: boardExport } }),
    display: { rotation, off: false },
  };
}

function box(selector: string) {
  const element = document.querySelector(selector);
  if (!element) throw new Error(`no ${selector}`);
  const { x, y, width, height } = element.getBoundingClientRect();
  return { x, y, width, height };
}

/** Within a tenth of a pixel (the widget's box is whole pixels, the banner's are not). */
function expectBox(actual: ReturnType<typeof box>, expected: ReturnType<typeof box>, within = 0.1): void {
  for (const key of ['x', 'y', 'width', 'height'] as const) {
    expect(Math.abs(actual[key] - expected[key]), `${key}: ${actual[key]} for ${expected[key]}`).toBeLessThan(
      within,
    );
  }
}

async function show(state: PlayerState, overlay = false) {
  const bridge = new FakeBridge(state);
  const screen = await render(<App bridge={bridge}>{overlay && <RemoteCommands bridge={bridge} />}</App>);
  await expect.element(screen.getByText('42')).toBeVisible();
  return { bridge, screen };
}

beforeEach(async () => {
  await page.viewport(1920, 1080);
  useFakeClock();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('a turned screen (1920 x 1080 panel)', () => {
  it('at 90 degrees lays a portrait board out on a 1080 x 1920 stage, filling the panel, its top to the right', async () => {
    await show(stateWith(PORTRAIT, 90));
    expect(box('[data-testid="stage"]')).toEqual({ x: 0, y: 0, width: 1920, height: 1080 });
    expect(document.querySelector('.fit-screen')?.getAttribute('data-scale')).toBe('1.0000');
    // The whole board covers the whole panel: no bars.
    expectBox(box('.letterbox'), { x: 0, y: 0, width: 1920, height: 1080 });
    expectBox(box('.board'), { x: 0, y: 0, width: 1920, height: 1080 });
    // Cells are 270 x 240; the widget's box (3 px margins) is 264 x 234 at 3,3 on the board: turned
    // clockwise, the board's top-left corner is the panel's top-right.
    expectBox(box('section.widget'), { x: 1920 - 237, y: 3, width: 234, height: 264 });
  });

  it('at 270 degrees turns it the other way, its top to the left', async () => {
    await show(stateWith(PORTRAIT, 270));
    expectBox(box('.board'), { x: 0, y: 0, width: 1920, height: 1080 });
    expectBox(box('section.widget'), { x: 3, y: 1080 - 267, width: 234, height: 264 });
  });

  it('at 180 degrees shows a landscape board upside down', async () => {
    await show(stateWith(LANDSCAPE, 180));
    expectBox(box('.board'), { x: 0, y: 0, width: 1920, height: 1080 });
    // Cells are 240 x 270: the board's top-left corner is the panel's bottom-right.
    expectBox(box('section.widget'), { x: 1920 - 237, y: 1080 - 267, width: 234, height: 264 });
  });

  it('letterboxes a landscape board on a screen turned to portrait', async () => {
    await show(stateWith(LANDSCAPE, 90));
    // 1920 x 1080 on a 1080 x 1920 stage: scale 0.5625, 1080 x 607.5, bars above and below
    // (on the panel: left and right).
    expect(document.querySelector('.fit-screen')?.getAttribute('data-scale')).toBe('0.5625');
    expectBox(box('.board'), { x: (1920 - 607.5) / 2, y: 0, width: 607.5, height: 1080 });
    expectBox(box('.letterbox'), { x: 0, y: 0, width: 1920, height: 1080 });
  });

  it('turns the notifications with the picture: at the bottom of the stage, sized for it', async () => {
    const { bridge, screen } = await show(stateWith(PORTRAIT, 90));
    bridge.emit({
      kind: 'notification',
      notification: makeNotification('ch-a', { title: 'Hello' }),
      sound: null,
    });
    await expect.element(screen.getByRole('status')).toHaveTextContent('Hello');
    await realPause(400); // its entrance (180 ms) over
    // The stage's bottom is the panel's left side: 3% of the stage's height (1920) in from it,
    // and 3% of its width (1080) in from its ends.
    const card = box('.player-notification');
    expect(card.x).toBeCloseTo(0.03 * 1920, 0);
    expect(card.y).toBeCloseTo(0.03 * 1080, 0);
    expect(card.height).toBeCloseTo(1080 * 0.94, 0);
    expect(card.width).toBeLessThan(400);
    // Type sized from the stage's height, as on a portrait panel.
    const title = document.querySelector('.player-notification-title') as HTMLElement;
    expect(parseFloat(getComputedStyle(title).fontSize)).toBeCloseTo(0.036 * 1920, 1);
  });

  it('turns the identify face, over everything', async () => {
    const { bridge, screen } = await show(stateWith(PORTRAIT, 90), true);
    bridge.emit({ kind: 'identify', name: 'Lobby', tag: 'lobby-screen', seconds: 10 });
    await expect.element(screen.getByTestId('identify-name')).toHaveTextContent('Lobby');
    expectBox(box('[data-testid="identify"]'), { x: 0, y: 0, width: 1920, height: 1080 });
    const name = box('[data-testid="identify-name"]');
    // Text runs down the panel: taller than wide on screen.
    expect(name.height).toBeGreaterThan(name.width);
    const size = getComputedStyle(document.querySelector('[data-testid="identify-name"]')!).fontSize;
    expect(parseFloat(size)).toBeCloseTo(0.14 * 1920, 1);
  });

  it('turns the setup faces, laid out as on a portrait screen', async () => {
    const state: PlayerState = {
      ...stateWith(PORTRAIT, 90),
      setup: {
        kind: 'pairing',
        code: '7HK3MQ',
        service_url: 'http://wall.lan:8787',
        claim_url: 'http://wall.lan:8787/#/pair?code=7HK3MQ',
        expires_at: '2026-11-21T08:10:00.000Z',
      },
    };
    const bridge = new FakeBridge(state);
    const screen = await render(<App bridge={bridge} />);
    await expect.element(screen.getByTestId('pairing-code')).toHaveTextContent('7HK 3MQ');
    await realPause();
    // The QR code under the code, as a portrait screen has it.
    expect(getComputedStyle(document.querySelector('.pairing')!).flexDirection).toBe('column');
    const code = box('[data-testid="pairing-code"]');
    expect(code.height).toBeGreaterThan(code.width);
  });
});
