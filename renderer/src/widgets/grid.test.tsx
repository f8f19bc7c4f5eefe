import { describe, expect, it } from 'vitest';
import { render } from 'vitest-browser-react';
import { GridWidget } from './grid';
import { framed, listsProps } from './testing/lists-frame';

describe('grid widget', () => {
  it('draws each cell as a label over its fill bar on its background', async () => {
    const data = [
      [
        { label: 'CPU', fill: 0.5, fill_color: 'orange', bg_color: 'black', color: 'white' },
        { label: 'RAM', fill: 1 },
      ],
      [{ label: 'Disk', fill: 0 }],
    ];
    const screen = await render(<GridWidget {...listsProps<'grid'>({ data })} />);
    await expect.element(screen.getByText('CPU')).toBeVisible();
    await expect.element(screen.getByText('Disk')).toBeVisible();
    const cells = [...screen.container.querySelectorAll<HTMLElement>('.lists-grid-cell')];
    expect(cells).toHaveLength(3);
    expect(cells[0]!.style.background).toBe('black');
    const fill = cells[0]!.querySelector<HTMLElement>('.lists-grid-fill')!;
    expect(fill.style.background).toBe('orange');
    // Half the cell's width, drawn as a transform.
    expect(fill.getBoundingClientRect().width).toBeCloseTo(cells[0]!.getBoundingClientRect().width / 2, 0);
    expect(cells[0]!.querySelector<HTMLElement>('.lists-grid-label')!.style.color).toBe('white');
    expect(cells[2]!.querySelector('.lists-grid-fill')).toBeNull();
    // Two rows by two columns fill the box.
    const root = screen.container.querySelector('.lists-grid')!.getBoundingClientRect();
    expect(cells[1]!.getBoundingClientRect().right).toBeCloseTo(root.right, 0);
    expect(cells[2]!.getBoundingClientRect().bottom).toBeCloseTo(root.bottom, 0);
  });

  it('draws cells with no fields at all', async () => {
    const screen = await render(<GridWidget {...listsProps<'grid'>({ data: [[{}, {}], []] })} />);
    expect(screen.container.querySelectorAll('.lists-grid-cell')).toHaveLength(2);
    expect(screen.container.querySelector('.lists-grid-label')).toBeNull();
  });

  it('shows through the frame', async () => {
    const screen = await render(framed('grid', { data: [[{ label: 'framed', fill: 0.3 }]] }));
    await expect.element(screen.getByText('framed')).toBeVisible();
  });

  it('shows the invalid face for data that does not fit', async () => {
    const screen = await render(framed('grid', { data: [[{ label: 'x', fill: 101 }]] }));
    await expect.element(screen.getByText('Data does not fit this widget')).toBeVisible();
  });

  it('shows the empty face before any data', async () => {
    const screen = await render(framed('grid', undefined));
    await expect.element(screen.getByText('No data yet')).toBeVisible();
  });
});
