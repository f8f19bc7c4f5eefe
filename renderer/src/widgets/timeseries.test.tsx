import { describe, expect, it } from 'vitest';
import { TimeseriesWidget } from './timeseries';
import {
  expectFrameFaces,
  expectRedrawInPlace,
  plotCanvas,
  recordCanvasText,
  renderWidget,
  settled,
  SIZE,
} from './testing/charts-frame';

const data = {
  values: [
    [10, 12, null, 15, 18],
    [5, 6, 7],
  ],
  interval: 'hours' as const,
  interval_count: 2,
  series_metadata: [
    { label: 'CPU', color: '#00aa00', value_type: 'percent' },
    { label: 'Memory', value_type: 'percent' },
  ],
  baseline: 12,
};

describe('timeseries widget', () => {
  it('draws a uPlot canvas of the width and the height the legend leaves', async () => {
    const screen = await renderWidget(TimeseriesWidget, data);
    await settled();
    const box = plotCanvas(screen.container).getBoundingClientRect();
    expect(box.width).toBe(SIZE.width);
    expect(box.height).toBeGreaterThan(SIZE.height * 0.7);
    expect(box.height).toBeLessThan(SIZE.height);
  });

  it('names the series with their metadata and formats values with their value_type', async () => {
    const drawn = recordCanvasText();
    try {
      const screen = await renderWidget(TimeseriesWidget, data);
      await expect.element(screen.getByText('CPU')).toBeVisible();
      await expect.element(screen.getByText('Memory')).toBeVisible();
      const swatch = screen.container.querySelector<HTMLElement>('.chart-swatch')!;
      expect(getComputedStyle(swatch).backgroundColor).toBe('rgb(0, 170, 0)');
      await settled();
      expect(drawn.texts.some((t) => /^\d+%$/.test(t))).toBe(true);
    } finally {
      drawn.restore();
    }
  });

  it('samples every interval_count intervals and ends now, aligning shorter series to the end', async () => {
    const drawn = recordCanvasText();
    try {
      await renderWidget(TimeseriesWidget, { values: [[1, 2, 3, 4, 5, 6, 7]], interval: 'days' });
      await settled();
      // A week of days: the time axis writes day or month names, not clock times.
      expect(drawn.texts.some((t) => /\d{1,2}\/\d{1,2}|[A-Z][a-z]{2}/.test(t))).toBe(true);
    } finally {
      drawn.restore();
    }
  });

  it('draws with the values alone', async () => {
    const screen = await renderWidget(TimeseriesWidget, { values: [[1, null, 3]] });
    await settled();
    expect(plotCanvas(screen.container).getBoundingClientRect().height).toBe(SIZE.height);
    expect(screen.container.querySelector('.chart-legend')).toBeNull();
  });

  it('redraws new data from the store on the same canvas, and destroys the plot on unmount', async () => {
    await expectRedrawInPlace(
      'timeseries',
      TimeseriesWidget,
      data,
      {
        ...data,
        values: [
          [900, 950, 990],
          [1, 2, 3],
        ],
      },
      (texts) => texts.includes('800%'),
    );
  });

  it('shows the frame faces for malformed data and no data', async () => {
    await expectFrameFaces('timeseries', { values: [['x']] });
  });
});
