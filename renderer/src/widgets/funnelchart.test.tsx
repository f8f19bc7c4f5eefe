import { describe, expect, it } from 'vitest';
import { FunnelchartWidget } from './funnelchart';
import { expectFrameFaces, renderFromStore, renderWidget, SIZE } from './testing/charts-frame';

const data = {
  values: [
    { label: 'Visits', value: 12000, color: '#ff0000' },
    { label: 'Carts', value: 3000 },
    { label: 'Orders', value: 900 },
  ],
  value_type: 'currency',
};

function stages(container: HTMLElement) {
  return [...container.querySelectorAll('.funnel-stage path')];
}

function widthOf(path: Element) {
  return path.getBoundingClientRect().width;
}

describe('funnelchart widget', () => {
  it('draws a trapezoid per stage, narrowing with the values, with labels and formatted values', async () => {
    const screen = await renderWidget(FunnelchartWidget, data);
    const shapes = stages(screen.container);
    expect(shapes).toHaveLength(3);
    expect(widthOf(shapes[0]!)).toBeCloseTo(SIZE.width, 0);
    expect(widthOf(shapes[1]!)).toBeLessThan(widthOf(shapes[0]!));
    expect(widthOf(shapes[2]!)).toBeLessThan(widthOf(shapes[1]!));
    expect(shapes[0]!.getAttribute('fill')).toBe('#ff0000');
    await expect.element(screen.getByText('Visits')).toBeVisible();
    await expect.element(screen.getByText('$12,000')).toBeVisible();
    await expect.element(screen.getByText('$900')).toBeVisible();
    const svg = screen.container.querySelector('svg')!.getBoundingClientRect();
    expect([svg.width, svg.height]).toEqual([SIZE.width, SIZE.height]);
  });

  it('draws stages without labels or colours', async () => {
    const screen = await renderWidget(FunnelchartWidget, { values: [{ value: 10 }, { value: 5 }] });
    expect(stages(screen.container)).toHaveLength(2);
    await expect.element(screen.getByText('10')).toBeVisible();
  });

  it('redraws new data from the store', async () => {
    const { screen, update } = await renderFromStore('funnelchart', FunnelchartWidget, data);
    update({ values: [...data.values, { label: 'Returns', value: 40 }] });
    await expect.element(screen.getByText('Returns')).toBeVisible();
    expect(stages(screen.container)).toHaveLength(4);
  });

  it('shows the frame faces for malformed data and no data', async () => {
    await expectFrameFaces('funnelchart', { values: [{ value: 'lots' }] });
  });
});
