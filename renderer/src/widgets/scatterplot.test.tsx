import { describe, expect, it } from 'vitest';
import { ScatterplotWidget } from './scatterplot';
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
    [3, 40],
    [1, 10],
    [2, 25000],
  ] as [number, number][],
  color: '#ff0000',
  x_label: 'Latency',
  y_label: 'Throughput',
};

describe('scatterplot widget', () => {
  it('draws a uPlot canvas in the room the axis titles leave', async () => {
    const screen = await renderWidget(ScatterplotWidget, data);
    await settled();
    const box = plotCanvas(screen.container).getBoundingClientRect();
    expect(box.width).toBeLessThan(SIZE.width);
    expect(box.width).toBeGreaterThan(SIZE.width * 0.85);
    expect(box.height).toBeLessThan(SIZE.height);
    expect(box.height).toBeGreaterThan(SIZE.height * 0.85);
  });

  it('titles both axes and writes abbreviated values on them', async () => {
    const drawn = recordCanvasText();
    try {
      const screen = await renderWidget(ScatterplotWidget, data);
      await expect.element(screen.getByText('Latency')).toBeVisible();
      await expect.element(screen.getByText('Throughput')).toBeVisible();
      await settled();
      expect(drawn.texts.some((t) => /^\d+K$/.test(t))).toBe(true);
    } finally {
      drawn.restore();
    }
  });

  it('draws the points alone, full size, without titles', async () => {
    const screen = await renderWidget(ScatterplotWidget, { values: [[0, 0]] });
    await settled();
    const box = plotCanvas(screen.container).getBoundingClientRect();
    expect(box.width).toBe(SIZE.width);
    expect(box.height).toBe(SIZE.height);
    expect(screen.container.querySelector('.chart-axis-title')).toBeNull();
  });

  it('redraws new data from the store on the same canvas, and destroys the plot on unmount', async () => {
    await expectRedrawInPlace(
      'scatterplot',
      ScatterplotWidget,
      data,
      {
        ...data,
        values: [
          [1, 5e6],
          [2, 7e6],
        ],
      },
      (texts) => texts.some((t) => /M$/.test(t)),
    );
  });

  it('shows the frame faces for malformed data and no data', async () => {
    await expectFrameFaces('scatterplot', { values: [[1, 2, 3]] });
  });
});
