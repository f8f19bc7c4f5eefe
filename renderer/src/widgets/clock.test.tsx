import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render } from 'vitest-browser-react';
import { ClockWidget, wallClock } from './clock';
import { itShowsFrameFaces, widgetProps } from './testing/numbers-frame';

// 2024-01-02 03:04:05.000 UTC
const NOW = Date.UTC(2024, 0, 2, 3, 4, 5);
const time = (root: Element) => root.querySelector('.num-clock-time')?.textContent;

describe('clock widget', () => {
  it('reads the wall clock of a zone', () => {
    const format = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Asia/Tokyo',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    expect(wallClock(format, NOW)).toEqual({ hour: 12, minute: 4, second: 5 });
    expect(wallClock(format, Date.UTC(2024, 0, 1, 15, 0, 0))).toEqual({ hour: 0, minute: 0, second: 0 });
  });

  describe('on a fake clock', () => {
    beforeEach(() => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
      vi.setSystemTime(NOW);
    });
    afterEach(() => {
      vi.useRealTimers();
    });

    it('shows HH:MM:SS in the given zone and ticks once per second', async () => {
      const screen = await render(<ClockWidget {...widgetProps<'clock'>({ timezone: 'UTC' })} />);
      expect(time(screen.container)).toBe('03:04:05');
      await expect.element(screen.getByText('UTC', { exact: true })).toBeVisible();
      expect(screen.container.querySelector('.num-clock-date')!.textContent).toMatch(/2/);
      expect(vi.getTimerCount()).toBe(1);
      await vi.advanceTimersByTimeAsync(1000);
      await expect.poll(() => time(screen.container)).toBe('03:04:06');
      await vi.advanceTimersByTimeAsync(60_000);
      await expect.poll(() => time(screen.container)).toBe('03:05:06');
      expect(vi.getTimerCount()).toBe(1);
    });

    it('shows other zones by their IANA name', async () => {
      const tokyo = await render(<ClockWidget {...widgetProps<'clock'>({ timezone: 'Asia/Tokyo' })} />);
      expect(time(tokyo.container)).toBe('12:04:05');
      const york = await render(<ClockWidget {...widgetProps<'clock'>({ timezone: 'America/New_York' })} />);
      expect(time(york.container)).toBe('22:04:05');
    });

    it("uses the screen's zone without a timezone, and for a zone it does not know", async () => {
      const local = await render(<ClockWidget {...widgetProps<'clock'>({})} />);
      expect(time(local.container)).toMatch(/^\d\d:04:05$/);
      expect(local.container.querySelector('.num-clock-zone')).toBeNull();
      const unknown = await render(
        <ClockWidget {...widgetProps<'clock'>({ timezone: 'Mars/Olympus_Mons' })} />,
      );
      expect(time(unknown.container)).toBe(time(local.container));
      await expect.element(unknown.getByText('Unknown time zone "Mars/Olympus_Mons"')).toBeVisible();
    });

    it('draws an analog dial with hands at the time', async () => {
      const screen = await render(
        <ClockWidget {...widgetProps<'clock'>({ style: 'analog', timezone: 'UTC' })} />,
      );
      expect(screen.container.querySelector('.num-clock-time')).toBeNull();
      const hand = (name: string) =>
        screen.container.querySelector(`.num-clock-${name}`)!.getAttribute('transform');
      expect(hand('hour')).toBe('rotate(92)');
      expect(hand('minute')).toBe('rotate(24.5)');
      expect(hand('second')).toBe('rotate(30)');
      await vi.advanceTimersByTimeAsync(1000);
      await expect.poll(() => hand('second')).toBe('rotate(36)');
      const dial = screen.container.querySelector('svg.num-clock-dial')!;
      expect(Number(dial.getAttribute('height'))).toBeLessThanOrEqual(300);
    });

    it('clears its timers when it goes away', async () => {
      const screen = await render(<ClockWidget {...widgetProps<'clock'>({ timezone: 'UTC' })} />);
      await vi.advanceTimersByTimeAsync(1500);
      expect(vi.getTimerCount()).toBe(1);
      await screen.unmount();
      expect(vi.getTimerCount()).toBe(0);
    });
  });

  itShowsFrameFaces('clock', { style: 'sundial' }, { timezone: 'UTC' });
});
