import { describe, expect, it } from 'vitest';
import { render } from 'vitest-browser-react';
import { TableWidget } from './table';
import { sparklinePoints } from './table-sparkline';
import { framed, listsProps } from './testing/lists-frame';

const data = {
  headers: ['Service', 'Uptime', 'Revenue', 'Trend'],
  cells: [
    [
      { value: 'api', icon: 'fa-server', color: 'red' },
      { value: 99.5, value_type: 'percent' },
      { value: 1234.5, value_type: 'currency', alignment: 'center' as const },
      { value: null, sparkline: [1, 3, 2, 5] },
    ],
    [{ value: 'web' }, { value: 12000 }],
  ],
};

describe('table widget', () => {
  it('draws headers and formatted cells with their alignment, colour, icon and sparkline', async () => {
    const screen = await render(<TableWidget {...listsProps<'table'>(data)} />);
    await expect.element(screen.getByText('Uptime')).toBeVisible();
    await expect.element(screen.getByText('99.5%')).toBeVisible();
    await expect.element(screen.getByText('$1,234.5')).toBeVisible();
    await expect.element(screen.getByText('12,000')).toBeVisible();
    const { container } = screen;
    expect(container.querySelectorAll('th')).toHaveLength(4);
    expect(container.querySelectorAll('tbody tr')).toHaveLength(2);
    // The short row still spans every column.
    expect(container.querySelectorAll('tbody tr:nth-child(2) td')).toHaveLength(4);
    const cells = container.querySelectorAll<HTMLElement>('tbody tr:first-child td');
    expect(cells[0]!.style.color).toBe('red');
    expect(cells[0]!.querySelector('svg[data-icon="server"]')).not.toBeNull();
    expect(cells[0]!.style.textAlign).toBe('left');
    expect(cells[1]!.style.textAlign).toBe('right');
    expect(cells[2]!.style.textAlign).toBe('center');
    expect(cells[3]!.querySelector('svg.lists-table-sparkline polyline')).not.toBeNull();
    expect(cells[3]!.textContent).toBe('');
  });

  it('shows only the rows that fit whole', async () => {
    const cells = Array.from({ length: 60 }, (_, index) => [{ value: `row ${index}` }, { value: index }]);
    const screen = await render(<TableWidget {...listsProps<'table'>({ headers: ['Name', 'N'], cells })} />);
    const root = screen.container.querySelector<HTMLElement>('.lists-table')!;
    const rows = screen.container.querySelectorAll('tbody tr');
    // 20 px base: 18 px text in 29 px rows, one of them the headers, in 240 px.
    expect(rows.length).toBe(7);
    expect(root.dataset.rowsShown).toBe('7');
    const last = rows[rows.length - 1]!.getBoundingClientRect();
    expect(last.bottom).toBeLessThanOrEqual(root.getBoundingClientRect().bottom);
    await expect.element(screen.getByText('row 6')).toBeVisible();
    expect(screen.container.textContent).not.toContain('row 7');
  });

  it('draws without headers or any optional cell field', async () => {
    const screen = await render(
      <TableWidget {...listsProps<'table'>({ cells: [[{ value: 'only' }, { value: null }]] })} />,
    );
    await expect.element(screen.getByText('only')).toBeVisible();
    expect(screen.container.querySelector('thead')).toBeNull();
    expect(screen.container.querySelectorAll('td')[1]!.textContent).toBe('–');
  });

  it('still shows a row in a very small box', async () => {
    const screen = await render(
      <TableWidget
        {...listsProps<'table'>({ headers: ['A'], cells: [[{ value: 1 }], [{ value: 2 }]] }, { height: 30 })}
      />,
    );
    expect(screen.container.querySelectorAll('tbody tr')).toHaveLength(1);
  });

  it('thins long sparklines and keeps flat ones in the middle', () => {
    expect(sparklinePoints(Array.from({ length: 5000 }, (_, index) => index)).split(' ')).toHaveLength(120);
    expect(sparklinePoints([3, 3])).toBe('0.00,12.00 100.00,12.00');
    expect(sparklinePoints([])).toBe('');
  });

  it('shows through the frame', async () => {
    const screen = await render(framed('table', data));
    await expect.element(screen.getByText('99.5%')).toBeVisible();
  });

  it('shows the invalid face for data that does not fit', async () => {
    const screen = await render(framed('table', { cells: [{ value: 1 }] }));
    await expect.element(screen.getByText('Data does not fit this widget')).toBeVisible();
  });

  it('shows the empty face before any data', async () => {
    const screen = await render(framed('table', undefined));
    await expect.element(screen.getByText('No data yet')).toBeVisible();
  });
});
