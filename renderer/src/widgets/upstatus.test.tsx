import { describe, expect, it } from 'vitest';
import { render } from 'vitest-browser-react';
import { framed, listsProps, TEST_THEME } from './testing/lists-frame';
import { UpstatusWidget } from './upstatus';

function rgb(hex: string): string {
  const [r, g, b] = [1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16));
  return `rgb(${r}, ${g}, ${b})`;
}

describe('upstatus widget', () => {
  it('counts up and down, names those down in the bad colour, and shows uptime and last down', async () => {
    const lastDown = Math.floor(Date.now() / 1000) - 12 * 60;
    const data = { up: ['a', 'b', 'c'], down: ['mail', 'vpn'], uptime: 99.5, last_down: lastDown };
    const screen = await render(<UpstatusWidget {...listsProps<'upstatus'>(data)} />);
    await expect.element(screen.getByText('99.5%')).toBeVisible();
    await expect.element(screen.getByText('12 min ago')).toBeVisible();
    const up = screen.container.querySelector<HTMLElement>('.lists-upstatus-up')!;
    const down = screen.container.querySelector<HTMLElement>('.lists-upstatus-down')!;
    expect(up.querySelector('strong')!.textContent).toBe('3');
    expect(down.querySelector('strong')!.textContent).toBe('2');
    const names = screen.container.querySelector<HTMLElement>('.lists-upstatus-names')!;
    expect([...names.querySelectorAll('li')].map((li) => li.textContent)).toEqual(['mail', 'vpn']);
    expect(getComputedStyle(names.querySelector('li')!).color).toBe(rgb(TEST_THEME.bad));
  });

  it('takes uptime and last down as text too', async () => {
    const data = { up: ['a'], down: [], uptime: 'three nines', last_down: 'last Tuesday' };
    const screen = await render(<UpstatusWidget {...listsProps<'upstatus'>(data)} />);
    await expect.element(screen.getByText('three nines')).toBeVisible();
    await expect.element(screen.getByText('last Tuesday')).toBeVisible();
  });

  it('draws with only the lists, and with both empty', async () => {
    const screen = await render(<UpstatusWidget {...listsProps<'upstatus'>({ up: [], down: [] })} />);
    const counts = [...screen.container.querySelectorAll('.lists-upstatus-counts strong')].map(
      (el) => el.textContent,
    );
    expect(counts).toEqual(['0', '0']);
    expect(screen.container.querySelector('.lists-upstatus-footer')).toBeNull();
  });

  it('says how many more are down when the names do not fit', async () => {
    const down = Array.from({ length: 50 }, (_, index) => `host-${index}`);
    const screen = await render(<UpstatusWidget {...listsProps<'upstatus'>({ up: [], down })} />);
    const items = [...screen.container.querySelectorAll<HTMLElement>('.lists-upstatus-names li')];
    const shown = items.length - 1;
    expect(shown).toBeGreaterThan(0);
    expect(items.at(-1)!.textContent).toBe(`+${50 - shown} more`);
    const root = screen.container.querySelector('.lists-upstatus')!.getBoundingClientRect();
    expect(items.at(-1)!.getBoundingClientRect().bottom).toBeLessThanOrEqual(root.bottom + 0.5);
  });

  it('shows through the frame', async () => {
    const screen = await render(framed('upstatus', { up: ['a'], down: ['framed-host'] }));
    await expect.element(screen.getByText('framed-host')).toBeVisible();
  });

  it('shows the invalid face for data that does not fit', async () => {
    const screen = await render(framed('upstatus', { up: 3, down: [] }));
    await expect.element(screen.getByText('Data does not fit this widget')).toBeVisible();
  });

  it('shows the empty face before any data', async () => {
    const screen = await render(framed('upstatus', undefined));
    await expect.element(screen.getByText('No data yet')).toBeVisible();
  });
});
