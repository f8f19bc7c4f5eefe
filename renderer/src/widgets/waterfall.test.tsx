import { describe, expect, it } from 'vitest';
import { THEMES } from '../../../src/shared/theme';
import { expectFrameFaces, renderFromStore, renderWidget, SIZE } from './testing/charts-frame';
import { WaterfallWidget } from './waterfall';

const data = {
  values: [
    { label: 'Start', value: 1000 },
    { label: 'Sales', value: 500 },
    { label: 'Costs', value: -300 },
    { label: 'Tax', value: -100, color: '#888888' },
  ],
};

function bars(container: HTMLElement) {
  return [...container.querySelectorAll('.waterfall-bars rect')];
}

describe('waterfall widget', () => {
  it('draws a bar per change in the good or bad colour, each starting where the last ended', async () => {
    const screen = await renderWidget(WaterfallWidget, data);
    const rects = bars(screen.container);
    expect(rects).toHaveLength(4);
    expect(rects.map((r) => r.getAttribute('fill'))).toEqual([
      THEMES.dark.good,
      THEMES.dark.good,
      THEMES.dark.bad,
      '#888888',
    ]);
    const box = rects.map((r) => r.getBoundingClientRect());
    // Sales rises from the top of Start; Costs falls from the top of Sales.
    expect(box[1]!.bottom).toBeCloseTo(box[0]!.top, 1);
    expect(box[2]!.top).toBeCloseTo(box[1]!.top, 1);
    expect(box[3]!.top).toBeCloseTo(box[2]!.bottom, 1);
    const svg = screen.container.querySelector('svg')!.getBoundingClientRect();
    expect([svg.width, svg.height]).toEqual([SIZE.width, SIZE.height]);
  });

  it('writes labels under the bars and signed, formatted changes beside them', async () => {
    const screen = await renderWidget(WaterfallWidget, data);
    await expect.element(screen.getByText('Start')).toBeVisible();
    await expect.element(screen.getByText('Costs')).toBeVisible();
    await expect.element(screen.getByText('+1,000')).toBeVisible();
    await expect.element(screen.getByText('-300')).toBeVisible();
  });

  it('draws changes without labels or colours', async () => {
    const screen = await renderWidget(WaterfallWidget, { values: [{ value: 5 }, { value: -2 }] });
    expect(bars(screen.container)).toHaveLength(2);
    await expect.element(screen.getByText('+5')).toBeVisible();
  });

  it('redraws new data from the store', async () => {
    const { screen, update } = await renderFromStore('waterfall', WaterfallWidget, data);
    update({ values: [...data.values, { label: 'Bonus', value: 50 }] });
    await expect.element(screen.getByText('Bonus')).toBeVisible();
    expect(bars(screen.container)).toHaveLength(5);
  });

  it('shows the frame faces for malformed data and no data', async () => {
    await expectFrameFaces('waterfall', { values: [{ label: 'x' }] });
  });
});
