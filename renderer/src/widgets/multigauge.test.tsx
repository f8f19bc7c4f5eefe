import { describe, expect, it } from 'vitest';
import { render } from 'vitest-browser-react';
import { MultigaugeWidget } from './multigauge';
import { itShowsFrameFaces, theme, widgetProps } from './testing/numbers-frame';

const gauges = [
  { label: 'CPU', value: 42, value_type: 'percent', icon: 'fa-bug' },
  { label: 'Disk', value: 300, max: 500 },
  { label: 'Queue', value: 1200.5 },
  { label: 'Memory', value: 88.25, value_type: 'percent' },
];

describe('multigauge widget', () => {
  it('draws one small gauge per entry with its label and formatted value', async () => {
    const screen = await render(
      <MultigaugeWidget {...widgetProps<'multigauge'>({ gauges, gauge_color: 'teal' })} />,
    );
    const cells = screen.container.querySelectorAll('.num-multigauge-cell');
    expect(cells).toHaveLength(4);
    expect([...cells].map((cell) => cell.querySelector('text')!.textContent)).toEqual([
      '42%',
      '300',
      '1,200.5',
      '88.25%',
    ]);
    expect([...cells].map((cell) => cell.querySelector('.num-multigauge-label')!.textContent)).toEqual([
      'CPU',
      'Disk',
      'Queue',
      'Memory',
    ]);
    expect(screen.container.querySelectorAll('[data-icon="bug"]')).toHaveLength(1);
    const arcs = screen.container.querySelectorAll('.num-gauge-value');
    expect(arcs).toHaveLength(4);
    expect(arcs[0]!.getAttribute('fill')).toBe('teal');
  });

  it('lays the gauges out horizontally by default, vertically or as a grid', async () => {
    const template = async (layout?: 'horizontal' | 'vertical' | 'grid') => {
      const screen = await render(<MultigaugeWidget {...widgetProps<'multigauge'>({ gauges, layout })} />);
      const root = screen.container.querySelector<HTMLElement>('.num-multigauge')!;
      return [root.dataset.columns, root.dataset.rows];
    };
    expect(await template()).toEqual(['4', '1']);
    expect(await template('vertical')).toEqual(['1', '4']);
    expect(await template('grid')).toEqual(['2', '2']);
  });

  it('fills to value over max (100 by default)', async () => {
    const screen = await render(
      <MultigaugeWidget
        {...widgetProps<'multigauge'>({ gauges: [{ value: 100 }, { value: 100, max: 400 }] })}
      />,
    );
    const [full, quarter] = [...screen.container.querySelectorAll<SVGPathElement>('.num-gauge-value')];
    const width = (path: SVGPathElement) => path.getBBox().width;
    expect(width(full!)).toBeGreaterThan(width(quarter!) * 1.5);
  });

  it('draws gauges without labels, max or colour', async () => {
    const screen = await render(
      <MultigaugeWidget {...widgetProps<'multigauge'>({ gauges: [{ value: 5 }] })} />,
    );
    expect(screen.container.querySelector('.num-multigauge-label')).toBeNull();
    expect(screen.container.querySelector('text')!.textContent).toBe('5');
    expect(screen.container.querySelector('.num-gauge-value')!.getAttribute('fill')).toBe(theme.accent);
    const empty = await render(
      <MultigaugeWidget {...widgetProps<'multigauge'>({ gauges: [], layout: 'grid' })} />,
    );
    expect(empty.container.querySelector('.num-multigauge')!.children).toHaveLength(0);
  });

  itShowsFrameFaces(
    'multigauge',
    { gauges: [{ label: 'x', value: '1' }] },
    { gauges: [{ label: 'A', value: 1 }] },
  );
});
