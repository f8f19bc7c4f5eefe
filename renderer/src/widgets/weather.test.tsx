import { describe, expect, it, vi } from 'vitest';
import { render } from 'vitest-browser-react';
import type { VariantMetrics } from '../../../src/shared/metrics';
import { itShowsFrameFaces, theme, widgetProps } from './testing/numbers-frame';
import { conditionIcon, WeatherWidget, weekdayOf } from './weather';

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

const oslo = (): VariantMetrics['weather'] => ({
  location: 'Oslo',
  latitude: 59.91,
  longitude: 10.75,
  temperature: 4.4,
  condition: 'partly-cloudy',
  is_day: true,
  days: [
    { date: '2026-11-21', condition: 'cloudy', min: 1, max: 7 },
    { date: '2026-11-22', condition: 'rain', min: 2.4, max: 6.6 },
    { date: '2026-11-23', condition: 'snow', min: -3, max: 0 },
    { date: '2026-11-24', min: -0.4 },
    { date: '2026-11-25', condition: 'thunderstorm', min: 0, max: 5 },
  ],
  updated_at: minutesAgo(5),
});

const icons = (root: Element) => [...root.querySelectorAll('svg')].map((svg) => svg.dataset.icon);
const dayTexts = (root: Element) =>
  [...root.querySelectorAll('.weather-day')].map((day) => day.textContent?.replace(/\s+/g, ' ').trim());

describe('weather widget', () => {
  it('draws the place, the temperature with its icon, and the next days', async () => {
    const screen = await render(
      <WeatherWidget {...widgetProps<'weather'>(oslo(), { width: 600, height: 300 })} />,
    );
    await expect.element(screen.getByText('Oslo')).toBeVisible();
    await expect.element(screen.getByText('4°C')).toBeVisible();
    await expect.element(screen.getByRole('img', { name: 'Partly cloudy' })).toBeVisible();
    expect(dayTexts(screen.container)).toEqual(['Sat7° 1°', 'Sun7° 2°', 'Mon0° -3°', 'Tue–– 0°', 'Wed5° 0°']);
    expect(icons(screen.container)).toEqual([
      'cloud-sun',
      'cloud',
      'cloud-showers-heavy',
      'snowflake',
      'cloud-bolt',
    ]);
    expect(screen.container.querySelector<HTMLElement>('.weather')!.dataset.stale).toBe('false');
    expect(screen.container.textContent).not.toContain('Updated');
    // Nothing is drawn past the box.
    const box = screen.container.querySelector('.weather')!;
    expect(box.scrollHeight).toBeLessThanOrEqual(300);
    expect(box.scrollWidth).toBeLessThanOrEqual(600);
  });

  it('uses the night icons at night, and names the days as the place has them', () => {
    expect(conditionIcon('clear', false)).toBe('moon');
    expect(conditionIcon('clear')).toBe('sun');
    expect(conditionIcon('partly-cloudy', false)).toBe('cloud-moon');
    expect(conditionIcon('rain', false)).toBe('cloud-showers-heavy');
    expect(weekdayOf('2026-11-21')).toBe('Sat');
  });

  it('shows fahrenheit', async () => {
    const screen = await render(
      <WeatherWidget {...widgetProps<'weather'>({ ...oslo(), unit: 'fahrenheit', temperature: 39.9 })} />,
    );
    await expect.element(screen.getByText('40°F')).toBeVisible();
  });

  it('marks an old forecast as stale, saying how old', async () => {
    const screen = await render(
      <WeatherWidget {...widgetProps<'weather'>({ ...oslo(), updated_at: minutesAgo(125) })} />,
    );
    const stale = screen.getByText('Updated 2 h ago');
    await expect.element(stale).toBeVisible();
    expect(getComputedStyle(stale.element()).color).toBe(hexToRgb(theme.warning));
    expect(screen.container.querySelector<HTMLElement>('.weather')!.dataset.stale).toBe('true');
  });

  it('turns stale by itself once the forecast is 30 minutes old', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    try {
      vi.setSystemTime(Date.now());
      const screen = await render(
        <WeatherWidget {...widgetProps<'weather'>({ ...oslo(), updated_at: minutesAgo(29) })} />,
      );
      const box = screen.container.querySelector<HTMLElement>('.weather')!;
      expect(box.dataset.stale).toBe('false');
      await vi.advanceTimersByTimeAsync(61_000);
      await expect.poll(() => box.dataset.stale).toBe('true');
      await expect.element(screen.getByText('Updated 30 min ago')).toBeVisible();
    } finally {
      vi.useRealTimers();
    }
  });

  it('colours old figures as stale where there is no room to say how old', async () => {
    const screen = await render(
      <WeatherWidget
        {...widgetProps<'weather'>({ ...oslo(), updated_at: minutesAgo(45) }, { width: 300, height: 60 })}
      />,
    );
    expect(screen.container.textContent).not.toContain('Updated');
    const current = screen.container.querySelector<HTMLElement>('.weather-current')!;
    expect(getComputedStyle(current).color).toBe(hexToRgb(theme.warning));
  });

  it('waits for the forecast when only the place is known', async () => {
    const screen = await render(
      <WeatherWidget {...widgetProps<'weather'>({ location: 'Lyon', latitude: 45.76, longitude: 4.84 })} />,
    );
    await expect.element(screen.getByText('Lyon')).toBeVisible();
    await expect.element(screen.getByText('Waiting for the forecast')).toBeVisible();
  });

  it('draws as many days as the width allows', async () => {
    const narrow = await render(
      <WeatherWidget {...widgetProps<'weather'>(oslo(), { width: 140, height: 300 })} />,
    );
    // Two days fit 140 pixels at 20 pixels a line.
    expect(dayTexts(narrow.container)).toHaveLength(2);
  });

  it('drops the days and the place in a flat box, keeping the temperature', async () => {
    const flat = await render(
      <WeatherWidget {...widgetProps<'weather'>(oslo(), { width: 400, height: 60 })} />,
    );
    expect(flat.container.querySelector('.weather-days')).toBeNull();
    expect(flat.container.querySelector('.weather-location')).toBeNull();
    await expect.element(flat.getByText('4°C')).toBeVisible();
    expect(flat.container.querySelector('.weather')!.scrollHeight).toBeLessThanOrEqual(60);
  });

  it('stays inside a tiny box', async () => {
    const tiny = await render(
      <WeatherWidget {...widgetProps<'weather'>(oslo(), { width: 40, height: 24 })} />,
    );
    const box = tiny.container.querySelector('.weather')!;
    expect(box.scrollWidth).toBeLessThanOrEqual(40);
    expect(box.scrollHeight).toBeLessThanOrEqual(24);
  });

  itShowsFrameFaces('weather', { location: 'Oslo', temperature: 'warm' }, oslo());
});

function hexToRgb(hex: string): string {
  const n = Number.parseInt(hex.slice(1), 16);
  return `rgb(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255})`;
}
