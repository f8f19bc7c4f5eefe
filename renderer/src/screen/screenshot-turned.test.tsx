import { describe, expect, it } from 'vitest';
import { page } from 'vitest/browser';
import { render } from 'vitest-browser-react';
import { boardExportSchema } from '../../../src/shared/board-export';
import type { PlayerState } from '../../../src/shared/bridge';
import { App } from '../app';
import { FakeBridge, board, makeState } from '../player/player-test-kit';
import { captureScreen } from '../player/screenshot';
import '../styles.css';

const RED = boardExportSchema.parse({
  name: 'Red',
  size: [1920, 1080],
  background_color: '#ff0000',
  widgets: [],
});

/** The colour of one pixel of a PNG given in base64, as [r, g, b]. */
async function pixel(pngBase64: string, x: number, y: number): Promise<number[]> {
  const image = new Image();
  image.src = `data:image/png;base64,${pngBase64}`;
  await image.decode();
  const canvas = document.createElement('canvas');
  canvas.width = image.width;
  canvas.height = image.height;
  const context = canvas.getContext('2d')!;
  context.drawImage(image, 0, 0);
  return [...context.getImageData(x, y, 1, 1).data.slice(0, 3)];
}

describe("the web player's screenshot of a turned screen", () => {
  it('shows the picture as the viewer sees it: a landscape board turned to portrait, with bars left and right', async () => {
    await page.viewport(960, 540);
    const state: PlayerState = {
      ...makeState([board('red', 60)], { boards: { red: RED } }),
      display: { rotation: 90, off: false },
    };
    await render(<App bridge={new FakeBridge(state)} />);
    await expect.poll(() => document.querySelector('.board')).not.toBeNull();
    const png = await captureScreen();
    // 1920 x 1080 on a 540 x 960 stage: 540 x 303.75, turned onto the panel as 303.75 wide, centred.
    expect(await pixel(png, 480, 270)).toEqual([255, 0, 0]);
    expect(await pixel(png, 480, 5)).toEqual([255, 0, 0]);
    expect(await pixel(png, 100, 270)).toEqual([0, 0, 0]);
    expect(await pixel(png, 860, 270)).toEqual([0, 0, 0]);
  });
});
