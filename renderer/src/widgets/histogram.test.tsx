import { describe, expect, it } from 'vitest';
import { HistogramWidget } from './histogram';
import { expectFrameFaces, renderFromStore, renderWidget, SIZE } from './testing/charts-frame';

const data = {
  values: [1, 2, 2, 3, 3, 3, 4, 4, 5, 10],
  colors: ['#ff0000', '#00ff00'],
  x_label: 'Response time',
  y_label: 'Requests',
};

function bars(container: HTMLElement) {
  return [...container.querySelectorAll('.histogram-bars rect')];
}

function heights(container: HTMLElement) {
  return bars(container).map((r) => Number(r.getAttribute('height')));
}

describe('histogram widget', () => {
  it('counts the values into ten equal bins drawn as bars in the given colours', async () => {
    const screen = await renderWidget(HistogramWidget, data);
    const rects = bars(screen.container);
    expect(rects).toHaveLength(10);
    expect(rects.slice(0, 3).map((r) => r.getAttribute('fill'))).toEqual(['#ff0000', '#00ff00', '#ff0000']);
    const h = heights(screen.container);
    // Bins of 0.9 from 1: [1,1.9) holds 1, [1.9,2.8) holds 2 and 2, [2.8,3.7) the three 3s.
    expect(h[2]! / h[0]!).toBeCloseTo(3, 5);
    expect(h[1]! / h[0]!).toBeCloseTo(2, 5);
    expect(h[9]! / h[0]!).toBeCloseTo(1, 5);
    expect(h[6]).toBe(0);
  });

  it('titles the axes and writes bin edges and counts', async () => {
    const screen = await renderWidget(HistogramWidget, data);
    await expect.element(screen.getByText('Response time')).toBeVisible();
    await expect.element(screen.getByText('Requests')).toBeVisible();
    const ticks = [...screen.container.querySelectorAll('.chart-ticks text')].map((t) => t.textContent);
    expect(ticks).toEqual(expect.arrayContaining(['1', '10', '0', '3']));
    const box = screen.container.querySelector('.chart')!.getBoundingClientRect();
    expect([box.width, box.height]).toEqual([SIZE.width, SIZE.height]);
  });

  it('uses widths as bin widths from the least value', async () => {
    const screen = await renderWidget(HistogramWidget, { values: [0, 1, 2, 5, 9, 30], widths: [2, 3, 5] });
    expect(bars(screen.container)).toHaveLength(3);
    const h = heights(screen.container);
    // [0,2) holds 0 and 1; [2,5) holds 2; [5,10] holds 5, 9 and 30 (past the last edge).
    expect(h[0]! / h[1]!).toBeCloseTo(2, 5);
    expect(h[2]! / h[1]!).toBeCloseTo(3, 5);
  });

  it('adds up the bins when cumulative', async () => {
    const screen = await renderWidget(HistogramWidget, {
      values: [0, 1, 2, 3],
      widths: [1, 1, 1, 1],
      cumulative: true,
    });
    const h = heights(screen.container);
    expect(h.map((v) => v / h[0]!)).toEqual([1, 2, 3, 4]);
  });

  it('draws the values alone, and one value alone', async () => {
    const screen = await renderWidget(HistogramWidget, { values: [7] });
    expect(bars(screen.container)).toHaveLength(10);
    expect(screen.container.querySelector('.chart-axis-title')).toBeNull();
    expect(heights(screen.container).filter((h) => h > 0)).toHaveLength(1);
  });

  it('redraws new data from the store', async () => {
    const { screen, update } = await renderFromStore('histogram', HistogramWidget, data);
    update({ ...data, widths: [5, 5] });
    await expect.poll(() => bars(screen.container).length).toBe(2);
  });

  it('shows the frame faces for malformed data and no data', async () => {
    await expectFrameFaces('histogram', { values: ['a'] });
  });
});
