import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render } from 'vitest-browser-react';
import { CountdownWidget, timeLeft } from './countdown';
import { itShowsFrameFaces, widgetProps } from './testing/numbers-frame';

const NOW = 1_700_000_000;
const text = (root: Element) => root.querySelector('.num-countdown-time')!.textContent;

describe('countdown widget', () => {
  it('splits the time left into days, hours, minutes and seconds', () => {
    expect(timeLeft(NOW + 86400 + 2 * 3600 + 3 * 60 + 4, NOW * 1000)).toEqual([
      [1, 'd'],
      [2, 'h'],
      [3, 'm'],
      [4, 's'],
    ]);
    expect(timeLeft(NOW + 3605, NOW * 1000)).toEqual([
      [1, 'h'],
      [0, 'm'],
      [5, 's'],
    ]);
    expect(timeLeft(NOW + 1, NOW * 1000 + 200)).toEqual([[1, 's']]);
    expect(timeLeft(NOW, NOW * 1000)).toEqual([[0, 's']]);
    expect(timeLeft(NOW - 100, NOW * 1000)).toEqual([[0, 's']]);
  });

  describe('on a fake clock', () => {
    beforeEach(() => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
      vi.setSystemTime(NOW * 1000);
    });
    afterEach(() => {
      vi.useRealTimers();
    });

    it('counts down once per second', async () => {
      const screen = await render(
        <CountdownWidget
          {...widgetProps<'countdown'>({ time: NOW + 86400 + 2 * 3600 + 3 * 60 + 4, message: 'Launch' })}
        />,
      );
      expect(text(screen.container)).toBe('1d 2h 3m 4s');
      expect(screen.container.textContent).not.toContain('Launch');
      expect(vi.getTimerCount()).toBe(1);
      await vi.advanceTimersByTimeAsync(1000);
      await expect.poll(() => text(screen.container)).toBe('1d 2h 3m 3s');
      await vi.advanceTimersByTimeAsync(4000);
      await expect.poll(() => text(screen.container)).toBe('1d 2h 2m 59s');
      expect(vi.getTimerCount()).toBe(1);
    });

    it('shows "0s" and the message once reached, and stops ticking', async () => {
      const screen = await render(
        <CountdownWidget {...widgetProps<'countdown'>({ time: NOW + 2, message: 'Go!' })} />,
      );
      expect(text(screen.container)).toBe('2s');
      await vi.advanceTimersByTimeAsync(2000);
      await expect.poll(() => text(screen.container)).toBe('0s');
      await expect.element(screen.getByText('Go!')).toBeVisible();
      expect(screen.container.querySelector<HTMLElement>('.num-countdown')!.dataset.reached).toBe('true');
      expect(vi.getTimerCount()).toBe(0);
    });

    it('starts at "0s" with no timer when the time has passed, and draws without a message', async () => {
      const screen = await render(<CountdownWidget {...widgetProps<'countdown'>({ time: NOW - 60 })} />);
      expect(text(screen.container)).toBe('0s');
      expect(screen.container.querySelector('.num-countdown-message')).toBeNull();
      expect(vi.getTimerCount()).toBe(0);
    });

    it('starts over when the data brings a new time', async () => {
      const screen = await render(<CountdownWidget {...widgetProps<'countdown'>({ time: NOW - 60 })} />);
      await vi.advanceTimersByTimeAsync(3_600_000);
      await screen.rerender(<CountdownWidget {...widgetProps<'countdown'>({ time: NOW + 3600 + 90 })} />);
      expect(text(screen.container)).toBe('1m 30s');
      expect(vi.getTimerCount()).toBe(1);
    });

    it('clears its timer when it goes away', async () => {
      const screen = await render(<CountdownWidget {...widgetProps<'countdown'>({ time: NOW + 100 })} />);
      expect(vi.getTimerCount()).toBe(1);
      await vi.advanceTimersByTimeAsync(1000);
      expect(vi.getTimerCount()).toBe(1);
      await screen.unmount();
      expect(vi.getTimerCount()).toBe(0);
    });
  });

  itShowsFrameFaces('countdown', { time: 'tomorrow' }, { time: NOW, message: 'Done' });
});
