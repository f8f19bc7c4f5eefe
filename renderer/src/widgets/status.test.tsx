import { describe, expect, it } from 'vitest';
import { render } from 'vitest-browser-react';
import { bestGrid, StatusWidget, textColorOn } from './status';
import { framed, listsProps } from './testing/lists-frame';

describe('status widget', () => {
  it('draws one coloured tile per status with its label, filling the box', async () => {
    const statuses = [
      { label: 'API', color: '#3fb950' },
      { label: 'DB', color: 'red' },
      { label: 'Queue', color: 'yellow' },
      { label: 'Cache', color: 'rgb(0, 0, 128)' },
    ];
    const screen = await render(<StatusWidget {...listsProps<'status'>({ statuses })} />);
    await expect.element(screen.getByText('Queue')).toBeVisible();
    const tiles = [...screen.container.querySelectorAll<HTMLElement>('.lists-status-tile')];
    expect(tiles).toHaveLength(4);
    expect(tiles[1]!.style.background).toBe('red');
    const root = screen.container.querySelector('.lists-status')!.getBoundingClientRect();
    expect(root.width).toBe(400);
    expect(root.height).toBe(240);
    // 400 x 240 holds four 2:1 tiles best as two by two.
    const last = tiles[3]!.getBoundingClientRect();
    expect(last.right).toBeCloseTo(root.right, 0);
    expect(last.bottom).toBeCloseTo(root.bottom, 0);
    expect(tiles[0]!.getBoundingClientRect().width).toBeGreaterThan(150);
    // Text reads on its tile: dark on yellow, light on navy.
    expect(tiles[2]!.style.color).toBe('rgb(17, 20, 24)');
    expect(tiles[3]!.style.color).toBe('rgb(255, 255, 255)');
  });

  it('draws tiles without labels', async () => {
    const screen = await render(
      <StatusWidget {...listsProps<'status'>({ statuses: [{ color: 'teal' }, { color: '#f00' }] })} />,
    );
    const tiles = screen.container.querySelectorAll('.lists-status-tile');
    expect(tiles).toHaveLength(2);
    expect(tiles[0]!.textContent).toBe('');
  });

  it('keeps many tiles inside the box', async () => {
    const statuses = Array.from({ length: 200 }, (_, index) => ({ label: `s${index}`, color: 'green' }));
    const screen = await render(<StatusWidget {...listsProps<'status'>({ statuses })} />);
    const root = screen.container.querySelector('.lists-status')!.getBoundingClientRect();
    const last = [...screen.container.querySelectorAll('.lists-status-tile')].at(-1)!.getBoundingClientRect();
    expect(last.bottom).toBeLessThanOrEqual(root.bottom + 0.5);
    expect(last.right).toBeLessThanOrEqual(root.right + 0.5);
  });

  it('picks a grid and a readable text colour', () => {
    expect(bestGrid(1, 400, 200, 2)).toMatchObject({ columns: 1, rows: 1 });
    expect(bestGrid(6, 600, 100, 1)).toMatchObject({ columns: 6, rows: 1 });
    expect(bestGrid(6, 100, 600, 1)).toMatchObject({ columns: 1, rows: 6 });
    expect(textColorOn('#fff')).toBe('#111418');
    expect(textColorOn('#000000')).toBe('#ffffff');
    expect(textColorOn('hsl(60 100% 80%)')).toBe('#111418');
    expect(textColorOn('rebeccapurple')).toBe('#ffffff');
  });

  it('shows through the frame', async () => {
    const screen = await render(framed('status', { statuses: [{ label: 'framed', color: 'green' }] }));
    await expect.element(screen.getByText('framed')).toBeVisible();
  });

  it('shows the invalid face for data that does not fit', async () => {
    const screen = await render(framed('status', { statuses: [{ label: 'no colour' }] }));
    await expect.element(screen.getByText('Data does not fit this widget')).toBeVisible();
  });

  it('shows the empty face before any data', async () => {
    const screen = await render(framed('status', undefined));
    await expect.element(screen.getByText('No data yet')).toBeVisible();
  });
});
