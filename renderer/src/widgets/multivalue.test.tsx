import { describe, expect, it } from 'vitest';
import { render } from 'vitest-browser-react';
import { bestGrid, MultivalueWidget } from './multivalue';
import { itShowsFrameFaces, widgetProps } from './testing/numbers-frame';

const cellTexts = (root: Element) =>
  [...root.querySelectorAll('.num-multivalue-value')].map((cell) => cell.textContent);

describe('multivalue widget', () => {
  it('draws one cell per value with its label, format, colours and icon', async () => {
    const screen = await render(
      <MultivalueWidget
        {...widgetProps<'multivalue'>({
          values: [
            { label: 'Revenue', value: 1500, value_type: 'currency', color: 'rgb(10, 20, 30)' },
            {
              label: 'Share',
              value: 0.456,
              value_type: 'percent',
              rounding: 1,
              label_color: 'rgb(40, 50, 60)',
            },
            { label: 'Users', value: 25300, abbreviate: true, icon: 'fa-bug' },
            { label: 'State', value: 'OK' },
          ],
        })}
      />,
    );
    expect(cellTexts(screen.container)).toEqual(['$1,500', '0.5%', '25.3K', 'OK']);
    const first = screen.container.querySelector<HTMLElement>('.num-multivalue-value')!;
    expect(first.style.color).toBe('rgb(10, 20, 30)');
    await expect.element(screen.getByText('Share')).toHaveStyle({ color: 'rgb(40, 50, 60)' });
    expect(screen.container.querySelectorAll('[data-icon="bug"]')).toHaveLength(1);
    expect(screen.container.querySelectorAll('.num-multivalue-label')).toHaveLength(4);
  });

  it('lays few values out in a row and many in a grid', async () => {
    const few = await render(
      <MultivalueWidget
        {...widgetProps<'multivalue'>(
          { values: [{ value: 1 }, { value: 2 }, { value: 3 }] },
          { width: 600, height: 150 },
        )}
      />,
    );
    const row = few.container.querySelector<HTMLElement>('.num-multivalue')!;
    expect([row.dataset.columns, row.dataset.rows]).toEqual(['3', '1']);

    const many = await render(
      <MultivalueWidget
        {...widgetProps<'multivalue'>(
          { values: Array.from({ length: 12 }, (_, i) => ({ label: `L${i}`, value: i * 1000 })) },
          { width: 400, height: 300 },
        )}
      />,
    );
    const grid = many.container.querySelector<HTMLElement>('.num-multivalue')!;
    expect(Number(grid.dataset.rows)).toBeGreaterThan(1);
    expect(Number(grid.dataset.columns) * Number(grid.dataset.rows)).toBeGreaterThanOrEqual(12);
    expect(grid.querySelectorAll('.num-multivalue-cell')).toHaveLength(12);
    expect(grid.scrollHeight).toBeLessThanOrEqual(301);
  });

  it('picks the split with the largest cells', () => {
    const square = (w: number, h: number) => Math.min(w, h);
    expect(bestGrid(3, 300, 100, square)).toEqual({ columns: 3, rows: 1 });
    expect(bestGrid(3, 100, 300, square)).toEqual({ columns: 1, rows: 3 });
    expect(bestGrid(4, 200, 200, square)).toEqual({ columns: 2, rows: 2 });
    expect(bestGrid(0, 200, 200, square)).toEqual({ columns: 1, rows: 1 });
  });

  it('draws values without labels, colours or formats', async () => {
    const screen = await render(
      <MultivalueWidget {...widgetProps<'multivalue'>({ values: [{ value: 3 }, { value: 'x' }] })} />,
    );
    expect(cellTexts(screen.container)).toEqual(['3', 'x']);
    expect(screen.container.querySelector('.num-multivalue-label')).toBeNull();
    const empty = await render(<MultivalueWidget {...widgetProps<'multivalue'>({ values: [] })} />);
    expect(empty.container.querySelector('.num-multivalue')!.children).toHaveLength(0);
  });

  itShowsFrameFaces(
    'multivalue',
    { values: [{ label: 'no value' }] },
    { values: [{ label: 'A', value: 1 }] },
  );
});
