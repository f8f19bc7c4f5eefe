import { describe, expect, it } from 'vitest';
import { TimechartWidget } from './timechart';
import {
  expectFrameFaces,
  expectRedrawInPlace,
  plotCanvas,
  recordCanvasText,
  renderWidget,
  settled,
  SIZE,
} from './testing/charts-frame';

const t0 = Date.UTC(2024, 5, 1, 12) / 1000;
const data = {
  series: [
    {
      label: 'Requests',
      color: 'teal',
      values: [
        [t0, 1500],
        [t0 + 600, 2500],
        [t0 + 1200, 1800],
      ] as [number, number][],
    },
    {
      label: 'Errors',
      values: [
        [t0 + 300, 20],
        [t0 + 900, 40],
      ] as [number, number][],
    },
  ],
  value_type: 'bytes',
};

describe('timechart widget', () => {
  it('draws a uPlot canvas of the right size with a legend', async () => {
    const screen = await renderWidget(TimechartWidget, data);
    await settled();
    const box = plotCanvas(screen.container).getBoundingClientRect();
    expect(box.width).toBe(SIZE.width);
    expect(box.height).toBeLessThan(SIZE.height);
    await expect.element(screen.getByText('Requests')).toBeVisible();
    await expect.element(screen.getByText('Errors')).toBeVisible();
    const swatch = screen.container.querySelector<HTMLElement>('.chart-swatch')!;
    expect(getComputedStyle(swatch).backgroundColor).toBe('rgb(0, 128, 128)');
  });

  it('puts the points on a time axis and formats values with value_type', async () => {
    const drawn = recordCanvasText();
    try {
      await renderWidget(TimechartWidget, data);
      await settled();
      expect(drawn.texts.some((t) => /^\d\d:\d\d$|^\d{1,2} [A-Z][a-z]{2}$/.test(t))).toBe(true);
      expect(drawn.texts.some((t) => /\d (B|KB)$/.test(t))).toBe(true);
    } finally {
      drawn.restore();
    }
  });

  it('draws with unlabelled, uncoloured series', async () => {
    const screen = await renderWidget(TimechartWidget, { series: [{ values: [[t0, 1]] }] });
    await settled();
    expect(plotCanvas(screen.container).getBoundingClientRect().height).toBe(SIZE.height);
  });

  it('redraws new data from the store on the same canvas, and destroys the plot on unmount', async () => {
    await expectRedrawInPlace(
      'timechart',
      TimechartWidget,
      data,
      {
        ...data,
        series: data.series.map((s) => ({ ...s, values: [[t0, 5e9] as [number, number]] })),
      },
      (texts) => texts.some((t) => / GB$/.test(t)),
    );
  });

  it('shows the frame faces for malformed data and no data', async () => {
    await expectFrameFaces('timechart', { series: [{ values: [[1]] }] });
  });
});
