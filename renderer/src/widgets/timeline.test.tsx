import { describe, expect, it } from 'vitest';
import { render } from 'vitest-browser-react';
import { framed, listsProps } from './testing/lists-frame';
import { relativeTime, TimelineWidget } from './timeline';

const REMOTE = 'https://cdn.example.com/avatars/ada.png';
const LOCAL =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

describe('timeline widget', () => {
  it('shows who said what and how long ago, newest first, with the cached avatar', async () => {
    const now = Math.floor(Date.now() / 1000);
    const messages = [
      { from: 'Grace', text: 'Ship it', timestamp: now - 2 * 3600 },
      { from: 'Ada', text: 'Tests pass', timestamp: now - 5 * 60 - 10, icon_url: REMOTE },
    ];
    const media = (url: string) => (url === REMOTE ? LOCAL : undefined);
    const screen = await render(<TimelineWidget {...listsProps<'timeline'>({ messages }, { media })} />);
    await expect.element(screen.getByText('5 min ago')).toBeVisible();
    await expect.element(screen.getByText('2 h ago')).toBeVisible();
    const items = [...screen.container.querySelectorAll('li')];
    expect(items.map((item) => item.querySelector('.lists-timeline-from')!.textContent)).toEqual([
      'Ada',
      'Grace',
    ]);
    expect(items[0]!.querySelector('img')!.getAttribute('src')).toBe(LOCAL);
    expect(items[1]!.querySelector('svg[data-icon="circle-user"]')).not.toBeNull();
    expect(screen.container.innerHTML).not.toContain('cdn.example.com');
  });

  it('shows a generic icon while the avatar is not cached, never the remote address', async () => {
    const screen = await render(
      <TimelineWidget {...listsProps<'timeline'>({ messages: [{ text: 'hello', icon_url: REMOTE }] })} />,
    );
    await expect.element(screen.getByText('hello')).toBeVisible();
    expect(screen.container.querySelector('img')).toBeNull();
    expect(screen.container.querySelector('svg[data-icon="circle-user"]')).not.toBeNull();
    expect(screen.container.innerHTML).not.toContain('cdn.example.com');
  });

  it('draws a message with nothing but its text', async () => {
    const screen = await render(
      <TimelineWidget {...listsProps<'timeline'>({ messages: [{ text: 'bare' }] })} />,
    );
    await expect.element(screen.getByText('bare')).toBeVisible();
    expect(screen.container.querySelector('time')).toBeNull();
  });

  it('shows as many whole messages as fit', async () => {
    const messages = Array.from({ length: 30 }, (_, index) => ({
      from: 'Ada',
      text: `message ${index} ${'word '.repeat(40)}`,
      timestamp: 1,
    }));
    const screen = await render(
      <TimelineWidget {...listsProps<'timeline'>({ messages }, { height: 300 })} />,
    );
    const items = screen.container.querySelectorAll('li');
    const root = screen.container.querySelector('.lists-timeline')!.getBoundingClientRect();
    // 17 px text in 73 px items.
    expect(items.length).toBe(4);
    for (const item of items) expect(item.scrollHeight).toBeLessThanOrEqual(item.clientHeight);
    expect(items[items.length - 1]!.getBoundingClientRect().bottom).toBeLessThanOrEqual(root.bottom);
  });

  it('words relative times', () => {
    const now = 1_000_000 * 1000;
    expect(relativeTime(1_000_000 - 30, now)).toBe('just now');
    expect(relativeTime(1_000_000 + 600, now)).toBe('just now');
    expect(relativeTime(1_000_000 - 60, now)).toBe('1 min ago');
    expect(relativeTime(1_000_000 - 59 * 60, now)).toBe('59 min ago');
    expect(relativeTime(1_000_000 - 3 * 3600, now)).toBe('3 h ago');
    expect(relativeTime(1_000_000 - 3 * 86400, now)).toBe('3 d ago');
  });

  it('shows through the frame', async () => {
    const screen = await render(framed('timeline', { messages: [{ from: 'Ada', text: 'framed' }] }));
    await expect.element(screen.getByText('framed')).toBeVisible();
  });

  it('shows the invalid face for data that does not fit', async () => {
    const screen = await render(framed('timeline', { messages: [{ text: 'x', icon_url: 'ftp://nope' }] }));
    await expect.element(screen.getByText('Data does not fit this widget')).toBeVisible();
  });

  it('shows the empty face before any data', async () => {
    const screen = await render(framed('timeline', undefined));
    await expect.element(screen.getByText('No data yet')).toBeVisible();
  });
});
