import { describe, expect, it } from 'vitest';
import { render } from 'vitest-browser-react';
import { IconWidget } from './icon';
import { framed, listsProps } from './testing/lists-frame';

describe('icon widget', () => {
  it('draws each icon in its colour with its label, sized to the box', async () => {
    const icons = [
      { type: 'fa-bug', label: 'Bugs', color: 'red' },
      { type: 'server', label: 'Servers' },
      { type: 'fa-cloud', color: '#00ff00' },
    ];
    const screen = await render(<IconWidget {...listsProps<'icon'>({ icons })} />);
    await expect.element(screen.getByText('Bugs')).toBeVisible();
    await expect.element(screen.getByText('Servers')).toBeVisible();
    const svgs = [...screen.container.querySelectorAll<SVGElement>('li > svg')];
    expect(svgs.map((svg) => svg.dataset.icon)).toEqual(['bug', 'server', 'cloud']);
    expect(svgs[0]!.getAttribute('fill')).toBe('red');
    expect(svgs[2]!.getAttribute('fill')).toBe('#00ff00');
    // Three in a row in 400 x 240: each icon is most of a third of the width.
    const size = svgs[0]!.getBoundingClientRect().height;
    expect(size).toBeGreaterThan(60);
    const root = screen.container.querySelector('.lists-icon')!.getBoundingClientRect();
    for (const svg of svgs) expect(svg.getBoundingClientRect().bottom).toBeLessThanOrEqual(root.bottom);
  });

  it('shows a question mark for an icon it does not know', async () => {
    const screen = await render(
      <IconWidget {...listsProps<'icon'>({ icons: [{ type: 'no-such-icon-here' }] })} />,
    );
    expect(screen.container.querySelector('svg[data-icon="circle-question"]')).not.toBeNull();
  });

  it('shows through the frame', async () => {
    const screen = await render(framed('icon', { icons: [{ type: 'bug', label: 'framed' }] }));
    await expect.element(screen.getByText('framed')).toBeVisible();
  });

  it('shows the invalid face for data that does not fit', async () => {
    const screen = await render(framed('icon', { icons: [{ type: 'Not An Icon!' }] }));
    await expect.element(screen.getByText('Data does not fit this widget')).toBeVisible();
  });

  it('shows the empty face before any data', async () => {
    const screen = await render(framed('icon', undefined));
    await expect.element(screen.getByText('No data yet')).toBeVisible();
  });
});
