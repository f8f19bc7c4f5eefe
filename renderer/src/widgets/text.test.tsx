import { describe, expect, it } from 'vitest';
import { render } from 'vitest-browser-react';
import { framed, listsProps } from './testing/lists-frame';
import { TextWidget } from './text';

function body(container: HTMLElement): HTMLElement {
  return container.querySelector<HTMLElement>('.lists-text-body')!;
}

describe('text widget', () => {
  it('draws the text left-aligned by default, filling its box', async () => {
    const screen = await render(<TextWidget {...listsProps<'text'>({ text: 'Deploy at noon' })} />);
    await expect.element(screen.getByText('Deploy at noon')).toBeVisible();
    const root = screen.container.querySelector<HTMLElement>('.lists-text')!;
    expect(root.getBoundingClientRect().width).toBe(400);
    expect(root.getBoundingClientRect().height).toBe(240);
    expect(body(screen.container).style.textAlign).toBe('left');
  });

  it('honours the alignment', async () => {
    const screen = await render(
      <TextWidget {...listsProps<'text'>({ text: 'Right', alignment: 'right' })} />,
    );
    expect(body(screen.container).style.textAlign).toBe('right');
  });

  it('grows short text and shrinks long text so it stays inside the box', async () => {
    const short = await render(<TextWidget {...listsProps<'text'>({ text: 'Hi' })} />);
    const shortSize = parseFloat(body(short.container).style.fontSize);
    await short.unmount();

    const text = 'The quick brown fox jumps over the lazy dog. '.repeat(12);
    const long = await render(<TextWidget {...listsProps<'text'>({ text })} />);
    const element = body(long.container);
    const longSize = parseFloat(element.style.fontSize);
    expect(shortSize).toBeGreaterThan(20);
    expect(longSize).toBeLessThan(shortSize);
    expect(longSize).toBeGreaterThanOrEqual(10);
    const root = long.container.querySelector('.lists-text')!.getBoundingClientRect();
    const box = element.getBoundingClientRect();
    expect(box.bottom).toBeLessThanOrEqual(root.bottom + 0.5);
    expect(box.right).toBeLessThanOrEqual(root.right + 0.5);
  });

  it('wraps a long word instead of running out of the side', async () => {
    const screen = await render(
      <TextWidget {...listsProps<'text'>({ text: 'x'.repeat(400) }, { height: 100 })} />,
    );
    const element = body(screen.container);
    expect(element.scrollWidth).toBeLessThanOrEqual(400);
    expect(element.getBoundingClientRect().height).toBeLessThanOrEqual(100.5);
  });

  it('cuts text too long for even the smallest size at a whole line', async () => {
    const screen = await render(
      <TextWidget {...listsProps<'text'>({ text: 'word '.repeat(2000) }, { width: 200, height: 60 })} />,
    );
    const element = body(screen.container);
    expect(element.style.fontSize).toBe('10px');
    expect(element.style.webkitLineClamp).not.toBe('none');
    expect(element.getBoundingClientRect().height).toBeLessThanOrEqual(60.5);
  });

  it('shows through the frame with its title', async () => {
    const screen = await render(framed('text', { text: 'Hello board', title: 'Notice' }));
    await expect.element(screen.getByText('Hello board')).toBeVisible();
    await expect.element(screen.getByText('Notice')).toBeVisible();
  });

  it('shows the invalid face for data that does not fit', async () => {
    const screen = await render(framed('text', { text: 42 }));
    await expect.element(screen.getByText('Data does not fit this widget')).toBeVisible();
  });

  it('shows the empty face before any data', async () => {
    const screen = await render(framed('text', undefined));
    await expect.element(screen.getByText('No data yet')).toBeVisible();
  });
});
