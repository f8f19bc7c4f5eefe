import { afterEach, describe, expect, it, vi } from 'vitest';
import { render } from 'vitest-browser-react';
import { framed, listsProps } from './testing/lists-frame';
import { TickertapeWidget } from './tickertape';

function preferReducedMotion(reduce: boolean) {
  const real = window.matchMedia.bind(window);
  vi.spyOn(window, 'matchMedia').mockImplementation((query: string) =>
    query.includes('prefers-reduced-motion')
      ? ({
          ...real(query),
          matches: reduce,
          addEventListener() {},
          removeEventListener() {},
        } as MediaQueryList)
      : real(query),
  );
}

function seconds(strip: HTMLElement): number {
  return parseFloat(strip.style.animationDuration);
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe('tickertape widget', () => {
  it('runs every message on one line with a transform animation', async () => {
    preferReducedMotion(false);
    const screen = await render(
      <TickertapeWidget
        {...listsProps<'tickertape'>({ messages: ['Build green', 'Deploy at 3'] }, { height: 40 })}
      />,
    );
    await expect.element(screen.getByText('Build green')).toBeInTheDocument();
    await expect.element(screen.getByText('Deploy at 3')).toBeInTheDocument();
    const strip = screen.container.querySelector<HTMLElement>('.lists-ticker-strip')!;
    const style = getComputedStyle(strip);
    expect(style.animationName).toBe('lists-ticker');
    expect(style.animationIterationCount).toBe('infinite');
    expect(style.whiteSpace).toBe('nowrap');
    // It starts beyond the right edge and moves by transform only.
    expect(strip.style.paddingLeft).toBe('400px');
    expect(style.transform).toMatch(/matrix|none/);
    const root = screen.container.querySelector('.lists-tickertape')!.getBoundingClientRect();
    expect(root.height).toBe(40);
  });

  it('takes longer over longer text, so the speed stays the same', async () => {
    preferReducedMotion(false);
    const short = await render(<TickertapeWidget {...listsProps<'tickertape'>({ messages: ['Short'] })} />);
    const shortSeconds = seconds(short.container.querySelector<HTMLElement>('.lists-ticker-strip')!);
    await short.unmount();
    const long = await render(
      <TickertapeWidget {...listsProps<'tickertape'>({ messages: ['Long '.repeat(60)] })} />,
    );
    const longSeconds = seconds(long.container.querySelector<HTMLElement>('.lists-ticker-strip')!);
    expect(longSeconds).toBeGreaterThan(shortSeconds * 3);
  });

  it('takes the messages in turns, without motion, when motion is reduced', async () => {
    preferReducedMotion(true);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const screen = await render(
      <TickertapeWidget {...listsProps<'tickertape'>({ messages: ['First', 'Second'] })} />,
    );
    expect(screen.container.querySelector('.lists-ticker-strip')).toBeNull();
    const still = screen.container.querySelector<HTMLElement>('.lists-ticker-still')!;
    expect(still.textContent).toBe('First');
    vi.advanceTimersByTime(5000);
    vi.useRealTimers();
    await expect.poll(() => still.textContent).toBe('Second');
  });

  it('draws with empty messages among them', async () => {
    preferReducedMotion(false);
    const screen = await render(
      <TickertapeWidget {...listsProps<'tickertape'>({ messages: ['', 'Only'] })} />,
    );
    await expect.element(screen.getByText('Only')).toBeInTheDocument();
    expect(screen.container.querySelectorAll('.lists-ticker-message')).toHaveLength(1);
  });

  it('shows through the frame', async () => {
    const screen = await render(framed('tickertape', { messages: ['Through the frame'] }));
    await expect.element(screen.getByText('Through the frame')).toBeInTheDocument();
  });

  it('shows the invalid face for data that does not fit', async () => {
    const screen = await render(framed('tickertape', { messages: 'not a list' }));
    await expect.element(screen.getByText('Data does not fit this widget')).toBeVisible();
  });

  it('shows the empty face before any data', async () => {
    const screen = await render(framed('tickertape', undefined));
    await expect.element(screen.getByText('No data yet')).toBeVisible();
  });
});
