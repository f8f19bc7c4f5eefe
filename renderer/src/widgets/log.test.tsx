import { describe, expect, it } from 'vitest';
import { render } from 'vitest-browser-react';
import { LogWidget, newestFirst } from './log';
import { framed, listsProps } from './testing/lists-frame';

function hhmm(seconds: number): string {
  const date = new Date(seconds * 1000);
  return `${String(date.getHours()).padStart(2, '0')}:${String(date.getMinutes()).padStart(2, '0')}`;
}

const T = 1_767_225_600; // 2026-01-01T00:00:00Z

describe('log widget', () => {
  it('puts the newest message on top with its time and colour', async () => {
    const messages = [
      { text: 'older', timestamp: T, color: 'orange' },
      { text: 'newest', timestamp: T + 3900 },
      { text: 'middle', timestamp: T + 60 },
    ];
    const screen = await render(<LogWidget {...listsProps<'log'>({ messages })} />);
    await expect.element(screen.getByText('newest')).toBeVisible();
    const items = [...screen.container.querySelectorAll('li')];
    expect(items.map((item) => item.querySelector('.lists-log-text')!.textContent)).toEqual([
      'newest',
      'middle',
      'older',
    ]);
    expect(items.map((item) => item.querySelector('time')!.textContent)).toEqual([
      hhmm(T + 3900),
      hhmm(T + 60),
      hhmm(T),
    ]);
    expect(items[2]!.querySelector<HTMLElement>('.lists-log-text')!.style.color).toBe('orange');
  });

  it('takes the last message as the newest when there are no timestamps', async () => {
    const screen = await render(
      <LogWidget {...listsProps<'log'>({ messages: [{ text: 'first' }, { text: 'second' }] })} />,
    );
    await expect.element(screen.getByText('second')).toBeVisible();
    const items = [...screen.container.querySelectorAll('li')];
    expect(items.map((item) => item.textContent)).toEqual(['second', 'first']);
    expect(screen.container.querySelector('time')).toBeNull();
  });

  it('shows as many whole lines as fit', async () => {
    const messages = Array.from({ length: 100 }, (_, index) => ({
      text: `line ${index}`,
      timestamp: T + index,
    }));
    const screen = await render(<LogWidget {...listsProps<'log'>({ messages }, { height: 200 })} />);
    const root = screen.container.querySelector('.lists-log')!.getBoundingClientRect();
    const items = screen.container.querySelectorAll('li');
    // 18 px text on 27 px lines in 200 px.
    expect(items).toHaveLength(7);
    expect(items[0]!.textContent).toContain('line 99');
    expect(items[6]!.getBoundingClientRect().bottom).toBeLessThanOrEqual(root.bottom);
  });

  it('orders by timestamp only when every message has one', () => {
    expect(newestFirst([{ n: 1, timestamp: 5 }, { n: 2 }, { n: 3, timestamp: 9 }]).map((m) => m.n)).toEqual([
      3, 2, 1,
    ]);
    expect(
      newestFirst([
        { n: 1, timestamp: 9 },
        { n: 2, timestamp: 5 },
      ]).map((m) => m.n),
    ).toEqual([1, 2]);
  });

  it('shows through the frame', async () => {
    const screen = await render(framed('log', { messages: [{ text: 'framed line' }] }));
    await expect.element(screen.getByText('framed line')).toBeVisible();
  });

  it('shows the invalid face for data that does not fit', async () => {
    const screen = await render(framed('log', { messages: [{ timestamp: T }] }));
    await expect.element(screen.getByText('Data does not fit this widget')).toBeVisible();
  });

  it('shows the empty face before any data', async () => {
    const screen = await render(framed('log', undefined));
    await expect.element(screen.getByText('No data yet')).toBeVisible();
  });
});
