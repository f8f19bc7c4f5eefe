import { describe, expect, it } from 'vitest';
import { render } from 'vitest-browser-react';
import { BoxWidget } from './box';
import { framed, listsProps } from './testing/lists-frame';

describe('box widget', () => {
  it('is an empty element filling its box', async () => {
    const screen = await render(<BoxWidget {...listsProps<'box'>({ title: 'Zone A' })} />);
    const box = screen.container.querySelector<HTMLElement>('.lists-box')!;
    expect(box.childElementCount).toBe(0);
    expect(box.textContent).toBe('');
    expect(box.getBoundingClientRect().width).toBe(400);
    expect(box.getBoundingClientRect().height).toBe(240);
  });

  it('leaves the title to the frame', async () => {
    const screen = await render(framed('box', { title: 'Zone A' }));
    await expect.element(screen.getByText('Zone A')).toBeVisible();
    const body = screen.container.querySelector('.widget-body')!;
    expect(body.querySelector('.lists-box')).not.toBeNull();
    expect(body.textContent).toBe('');
  });

  it('shows the invalid face for data that does not fit', async () => {
    const screen = await render(framed('box', { title: 7 }));
    await expect.element(screen.getByText('Data does not fit this widget')).toBeVisible();
  });

  it('shows the empty face before any data', async () => {
    const screen = await render(framed('box', undefined));
    await expect.element(screen.getByText('No data yet')).toBeVisible();
  });
});
