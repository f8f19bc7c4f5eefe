import { describe, expect, it } from 'vitest';
import { PiechartWidget } from './piechart';
import { expectFrameFaces, renderFromStore, renderWidget, SIZE } from './testing/charts-frame';

const data = { values: [50, 30, 20], labels: ['Chrome', 'Firefox', 'Safari'], colors: ['#ff0000'] };

function slices(container: HTMLElement) {
  return [...container.querySelectorAll('svg path')];
}

describe('piechart widget', () => {
  it('draws a donut slice per value with a legend of labels and percentages', async () => {
    const screen = await renderWidget(PiechartWidget, data);
    expect(slices(screen.container)).toHaveLength(3);
    expect(slices(screen.container)[0]!.getAttribute('fill')).toBe('#ff0000');
    await expect.element(screen.getByText('Chrome')).toBeVisible();
    await expect.element(screen.getByText('Safari')).toBeVisible();
    await expect.element(screen.getByText('50%')).toBeVisible();
    await expect.element(screen.getByText('20%')).toBeVisible();
    const box = screen.container.querySelector('.piechart')!.getBoundingClientRect();
    expect([box.width, box.height]).toEqual([SIZE.width, SIZE.height]);
    const svg = screen.container.querySelector('svg')!.getBoundingClientRect();
    expect(svg.height).toBeLessThanOrEqual(SIZE.height);
  });

  it('rounds shares to one decimal', async () => {
    const screen = await renderWidget(PiechartWidget, { values: [1, 2] });
    await expect.element(screen.getByText('33.3%')).toBeVisible();
    await expect.element(screen.getByText('66.7%')).toBeVisible();
  });

  it('draws without labels or colours, naming slices by their values', async () => {
    const screen = await renderWidget(PiechartWidget, { values: [1500, 500] });
    expect(slices(screen.container)).toHaveLength(2);
    await expect.element(screen.getByText('1,500')).toBeVisible();
    await expect.element(screen.getByText('75%')).toBeVisible();
  });

  it('draws a quiet ring when every value is zero', async () => {
    const screen = await renderWidget(PiechartWidget, { values: [0, 0] });
    expect(slices(screen.container)).toHaveLength(0);
    expect(screen.container.querySelector('svg circle')).not.toBeNull();
  });

  it('puts the legend under the donut in a tall box', async () => {
    const screen = await renderWidget(PiechartWidget, data, { width: 200, height: 400 });
    const svg = screen.container.querySelector('svg')!.getBoundingClientRect();
    const key = screen.container.querySelector('.chart-key')!.getBoundingClientRect();
    expect(key.top).toBeGreaterThanOrEqual(svg.bottom);
    expect(key.bottom).toBeLessThanOrEqual(400 + 0.5);
  });

  it('redraws new data from the store', async () => {
    const { screen, update } = await renderFromStore('piechart', PiechartWidget, data);
    update({ ...data, values: [1, 1, 1, 1], labels: ['A', 'B', 'C', 'D'] });
    await expect.element(screen.getByText('D')).toBeVisible();
    expect(slices(screen.container)).toHaveLength(4);
  });

  it('shows the frame faces for malformed data and no data', async () => {
    await expectFrameFaces('piechart', { values: 'x' });
  });
});
