import type { Locator, Page } from '@playwright/test';
import { expect } from './fixtures';

export interface Cells {
  column: number;
  row: number;
  width: number;
  height: number;
}

/**
 * The box a widget must have in the console's preview of a 1920x1080 board with 3 px margins:
 * the renderer's layout (cells split at whole pixels, less the margins), scaled.
 */
function expectedBox(
  preview: { x: number; y: number; width: number },
  grid: { columns: number; rows: number },
  cells: Cells,
) {
  const [width, height, margin] = [1920, 1080, 3];
  const scale = preview.width / width;
  const x0 = Math.round((cells.column * width) / grid.columns);
  const x1 = Math.round(((cells.column + cells.width) * width) / grid.columns);
  const y0 = Math.round((cells.row * height) / grid.rows);
  const y1 = Math.round(((cells.row + cells.height) * height) / grid.rows);
  return {
    x: preview.x + (x0 + margin) * scale,
    y: preview.y + (y0 + margin) * scale,
    width: (x1 - x0 - 2 * margin) * scale,
    height: (y1 - y0 - 2 * margin) * scale,
  };
}

/**
 * The widget's box in the preview matches its grid cells (to the nearest pixel), once the preview
 * has drawn the change just made (a setting typed is drawn at the next render, not at once).
 */
export async function expectOnCells(
  page: Page,
  widget: Locator,
  grid: { columns: number; rows: number },
  cells: Cells,
) {
  await expect(async () => {
    const preview = await page.getByTestId('board-preview').boundingBox();
    const box = await widget.boundingBox();
    expect(preview && box).toBeTruthy();
    const expected = expectedBox(preview!, grid, cells);
    for (const side of ['x', 'y', 'width', 'height'] as const)
      expect(box![side]).toBeCloseTo(expected[side], 0);
  }).toPass({ timeout: 5_000 });
}
