import { describe, expect, it } from 'vitest';
import { render } from 'vitest-browser-react';
import { ServersWidget, serverLevel } from './servers';
import { itShowsFrameFaces, theme, widgetProps } from './testing/numbers-frame';

describe('servers widget', () => {
  it('draws one row per server with a bar per value, its label under it', async () => {
    const screen = await render(
      <ServersWidget
        {...widgetProps<'servers'>({
          servers: [
            { name: 'web-1', values: [35, 75.4, 95], labels: ['CPU', 'MEM', 'DISK'] },
            { name: 'db-1', values: [10, 20] },
          ],
        })}
      />,
    );
    const rows = screen.container.querySelectorAll('.num-server');
    expect(rows).toHaveLength(2);
    expect(rows[0]!.querySelector('.num-row-label')!.textContent).toBe('web-1');
    const values = [...rows[0]!.querySelectorAll<HTMLElement>('.num-server-value')];
    expect(values.map((value) => value.dataset.level)).toEqual(['good', 'warning', 'bad']);
    expect(values.map((value) => value.querySelector('.num-server-caption')!.textContent)).toEqual([
      'CPU35',
      'MEM75',
      'DISK95',
    ]);
    const fills = values.map((value) => value.querySelector<HTMLElement>('.num-server-fill')!);
    expect(fills.map((fill) => fill.style.width)).toEqual(['35%', '75.4%', '95%']);
    expect(fills[2]!.style.background).toBe('rgb(248, 81, 73)');
    // Bar above, label below.
    const track = values[0]!.querySelector('.num-server-track')!.getBoundingClientRect();
    const caption = values[0]!.querySelector('.num-server-caption')!.getBoundingClientRect();
    expect(caption.top).toBeGreaterThanOrEqual(track.bottom - 0.5);
    expect(rows[1]!.querySelectorAll('.num-server-value')).toHaveLength(2);
    expect(rows[1]!.querySelector('.num-server-caption')!.textContent).toBe('10');
  });

  it('honours the orange and red thresholds', () => {
    expect(serverLevel(69, 70, 90)).toBe('good');
    expect(serverLevel(70, 70, 90)).toBe('warning');
    expect(serverLevel(90, 70, 90)).toBe('bad');
    expect(serverLevel(30, 20, 50)).toBe('warning');
    expect(theme.warning).toBe('#d29922');
  });

  it('uses the thresholds given in the data', async () => {
    const screen = await render(
      <ServersWidget
        {...widgetProps<'servers'>({ servers: [{ name: 'a', values: [30, 60] }], orange: 20, red: 50 })}
      />,
    );
    const levels = [...screen.container.querySelectorAll<HTMLElement>('.num-server-value')].map(
      (v) => v.dataset.level,
    );
    expect(levels).toEqual(['warning', 'bad']);
  });

  it('draws a server without values or labels, and counts servers that do not fit', async () => {
    const screen = await render(
      <ServersWidget
        {...widgetProps<'servers'>(
          { servers: Array.from({ length: 30 }, (_, i) => ({ name: `host-${i}`, values: i ? [i] : [] })) },
          { width: 300, height: 200 },
        )}
      />,
    );
    const shown = screen.container.querySelectorAll('.num-server').length;
    expect(shown).toBeLessThan(30);
    expect(
      screen.container.querySelectorAll('.num-server')[0]!.querySelector('.num-server-value'),
    ).toBeNull();
    await expect.element(screen.getByText(`+${30 - shown} more`)).toBeVisible();
    expect(screen.container.querySelector('.num-servers')!.scrollHeight).toBeLessThanOrEqual(201);
    const empty = await render(<ServersWidget {...widgetProps<'servers'>({ servers: [] })} />);
    expect(empty.container.querySelector('.num-servers')!.children).toHaveLength(0);
  });

  itShowsFrameFaces('servers', { servers: [{ values: [1] }] }, { servers: [{ name: 'a', values: [1, 2] }] });
});
