import { describe, expect, it } from 'vitest';
import { BarchartWidget } from './barchart';
import { expectFrameFaces, renderFromStore, renderWidget, SIZE } from './testing/charts-frame';

const data = {
  bars: [
    { label: 'North', value: 1200, color: '#ff0000' },
    { label: 'South', value: 4500 },
    { label: 'East', value: 3000 },
  ],
};

function bars(container: HTMLElement) {
  return [...container.querySelectorAll<HTMLElement>('.barchart-bar')];
}

function labels(container: HTMLElement) {
  return [...container.querySelectorAll('.barchart-label')].map((l) => l.textContent);
}

describe('barchart widget', () => {
  it('draws one bar per entry with its label and formatted value, filling the box', async () => {
    const screen = await renderWidget(BarchartWidget, data);
    await expect.element(screen.getByText('North')).toBeVisible();
    await expect.element(screen.getByText('4,500')).toBeVisible();
    await expect.element(screen.getByText('1,200')).toBeVisible();
    expect(bars(screen.container)).toHaveLength(3);
    const box = screen.container.querySelector('.barchart')!.getBoundingClientRect();
    expect([box.width, box.height]).toEqual([SIZE.width, SIZE.height]);
    expect(getComputedStyle(bars(screen.container)[0]!).backgroundColor).toBe('rgb(255, 0, 0)');
  });

  it('runs bars from 0 to the largest value by default', async () => {
    const screen = await renderWidget(BarchartWidget, data);
    const [north, south] = bars(screen.container);
    expect(south!.style.width).toBe('100%');
    expect(parseFloat(north!.style.width)).toBeCloseTo((1200 / 4500) * 100, 3);
    expect(north!.style.left).toBe('0%');
  });

  it('honours min and max, and starts at the least negative value', async () => {
    const ranged = await renderWidget(BarchartWidget, { ...data, min: 0, max: 9000 });
    expect(bars(ranged.container)[1]!.style.width).toBe('50%');
    await ranged.unmount();
    const negative = await renderWidget(BarchartWidget, { bars: [{ value: -50 }, { value: 150 }] });
    const [down, up] = bars(negative.container);
    expect(down!.style.left).toBe('0%');
    expect(down!.style.width).toBe('25%');
    expect(up!.style.left).toBe('25%');
    expect(up!.style.width).toBe('75%');
  });

  it('sorts descending for true and "desc", ascending for "asc"', async () => {
    const desc = await renderWidget(BarchartWidget, { ...data, sort: true });
    expect(labels(desc.container)).toEqual(['South', 'East', 'North']);
    await desc.unmount();
    const asc = await renderWidget(BarchartWidget, { ...data, sort: 'asc' });
    expect(labels(asc.container)).toEqual(['North', 'East', 'South']);
  });

  it('draws bars without labels or colours', async () => {
    const screen = await renderWidget(BarchartWidget, { bars: [{ value: 1 }, { value: 2.5 }] });
    expect(bars(screen.container)).toHaveLength(2);
    await expect.element(screen.getByText('2.5')).toBeVisible();
    expect(screen.container.querySelector('.barchart-label')).toBeNull();
  });

  it('redraws new data from the store', async () => {
    const { screen, update } = await renderFromStore('barchart', BarchartWidget, data);
    update({ bars: [...data.bars, { label: 'West', value: 99 }] });
    await expect.element(screen.getByText('West')).toBeVisible();
    expect(bars(screen.container)).toHaveLength(4);
  });

  it('shows the frame faces for malformed data and no data', async () => {
    await expectFrameFaces('barchart', { bars: [{ label: 'x' }] });
  });
});
