import { describe, expect, it } from 'vitest';
import { GraphWidget } from './graph';
import {
  expectFrameFaces,
  expectRedrawInPlace,
  plotCanvas,
  recordCanvasText,
  renderFromStore,
  renderInFrame,
  renderWidget,
  settled,
  SIZE,
} from './testing/charts-frame';

const data = {
  series: [
    { values: [1200, 1500, 900, 2000], label: 'Visits', color: '#ff8800' },
    { values: [300, 400, 350, 500], label: 'Signups' },
  ],
  x_labels: ['Mon', 'Tue', 'Wed', 'Thu'],
  value_type: 'currency',
  baseline: 1000,
};

describe('graph widget', () => {
  it('draws a uPlot canvas filling the room the legend leaves', async () => {
    const screen = await renderWidget(GraphWidget, data);
    await settled();
    const canvas = plotCanvas(screen.container);
    const box = canvas.getBoundingClientRect();
    expect(box.width).toBe(SIZE.width);
    expect(box.height).toBeLessThan(SIZE.height);
    expect(box.height).toBeGreaterThan(SIZE.height * 0.7);
    expect(canvas.width).toBe(Math.round(SIZE.width * devicePixelRatio));
    const chart = screen.container.querySelector<HTMLElement>('.chart')!;
    expect(chart.getBoundingClientRect().height).toBe(SIZE.height);
  });

  it('shows a legend with series labels and colours, the given one first then the theme', async () => {
    const screen = await renderWidget(GraphWidget, data);
    await expect.element(screen.getByText('Visits')).toBeVisible();
    await expect.element(screen.getByText('Signups')).toBeVisible();
    const swatches = [...screen.container.querySelectorAll<HTMLElement>('.chart-swatch')];
    expect(swatches.map((s) => getComputedStyle(s).backgroundColor)).toEqual([
      'rgb(255, 136, 0)',
      'rgb(63, 185, 80)', // the dark theme's good: the second colour of the palette
    ]);
  });

  it('labels the x axis with x_labels and formats y values with value_type', async () => {
    const drawn = recordCanvasText();
    try {
      await renderWidget(GraphWidget, data);
      await settled();
      expect(drawn.texts).toEqual(expect.arrayContaining(['Mon', 'Thu']));
      expect(drawn.texts.some((t) => /^\$[\d.,]+K?$/.test(t))).toBe(true);
    } finally {
      drawn.restore();
    }
  });

  it('draws every renderer, with only the series for data', async () => {
    for (const renderer of ['line', 'area', 'bar', 'stack', 'scatterplot'] as const) {
      const screen = await renderWidget(GraphWidget, { ...data, renderer, unstack: renderer === 'bar' });
      await settled();
      expect(plotCanvas(screen.container)).toBeTruthy();
      await screen.unmount();
    }
  });

  it('draws times from start_time to end_time when there are no x labels', async () => {
    const drawn = recordCanvasText();
    try {
      const start = Date.UTC(2024, 0, 1) / 1000;
      await renderWidget(GraphWidget, {
        series: [{ values: [1, 2, 3] }],
        start_time: start,
        end_time: start + 7200,
      });
      await settled();
      expect(drawn.texts.some((t) => /\d(:\d\d)?(am|pm)/i.test(t))).toBe(true);
    } finally {
      drawn.restore();
    }
  });

  it('draws with only the values given: no legend for one unlabelled series', async () => {
    const screen = await renderWidget(GraphWidget, { series: [{ values: [3, 1, 2] }] });
    await settled();
    expect(plotCanvas(screen.container).getBoundingClientRect().height).toBe(SIZE.height);
    expect(screen.container.querySelector('.chart-legend')).toBeNull();
  });

  it('keeps at least min_scale of y range', async () => {
    const drawn = recordCanvasText();
    try {
      await renderWidget(GraphWidget, { series: [{ values: [1, 2, 3] }], min_scale: 100 });
      await settled();
      expect(drawn.texts).toContain('100');
    } finally {
      drawn.restore();
    }
  });

  it('redraws new data from the store on the same canvas, and destroys the plot on unmount', async () => {
    await expectRedrawInPlace(
      'graph',
      GraphWidget,
      data,
      {
        ...data,
        x_labels: ['Fri', 'Sat', 'Sun', 'Mon'],
        series: data.series.map((s) => ({ ...s, values: s.values.map((v) => v * 2) })),
      },
      (texts) => texts.includes('Sat'),
    );
  });

  it('rebuilds the plot when the number of series changes', async () => {
    const { screen, update } = await renderFromStore('graph', GraphWidget, data);
    await settled();
    update({ series: [{ values: [1, 2] }, { values: [2, 3] }, { values: [3, 4] }] });
    await expect.poll(() => screen.container.querySelectorAll('.chart-swatch').length).toBe(3);
    await settled();
    expect(screen.container.querySelectorAll('.uplot')).toHaveLength(1);
  });

  it('shows the frame faces for malformed data and no data', async () => {
    await expectFrameFaces('graph', { series: 'nope' });
  });

  it('draws through the frame', async () => {
    const { screen } = await renderInFrame('graph', data);
    await expect.element(screen.getByText('Visits')).toBeVisible();
    expect(screen.container.querySelector('.widget-graph .uplot canvas')).not.toBeNull();
  });
});
