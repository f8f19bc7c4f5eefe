import { describe, expect, it } from 'vitest';
import { render } from 'vitest-browser-react';
import { dialAngle, GaugeWidget } from './gauge';
import { itShowsFrameFaces, theme, widgetProps } from './testing/numbers-frame';

describe('gauge widget', () => {
  it('draws the track, the value arc, range bands, the formatted value and the second marker', async () => {
    const screen = await render(
      <GaugeWidget
        {...widgetProps<'gauge'>({
          value: 72.5,
          min: 0,
          max: 200,
          value_type: 'percent',
          value_color: 'rgb(1, 2, 3)',
          range: [
            { from: 0, to: 100, color: 'green' },
            { from: 150, to: 100, color: 'orange' },
            { from: 150, to: 200, color: 'red' },
          ],
          value_2: 120,
          value_2_label: 'Target',
          value_2_color: 'rgb(9, 9, 9)',
        })}
      />,
    );
    const svg = screen.container.querySelector('svg.num-gauge')!;
    expect(svg.getAttribute('width')).toBe('400');
    expect(svg.querySelector('.num-gauge-track')!.getAttribute('d')).toMatch(/^M/);
    const value = svg.querySelector('.num-gauge-value')!;
    expect(value.getAttribute('d')).toMatch(/^M/);
    expect(value.getAttribute('fill')).toBe('rgb(1, 2, 3)');
    const bands = svg.querySelectorAll('.num-gauge-band');
    expect([...bands].map((band) => band.getAttribute('fill'))).toEqual(['green', 'orange', 'red']);
    expect([...bands].every((band) => band.getAttribute('d')!.startsWith('M'))).toBe(true);
    expect(svg.querySelector('.num-gauge-text')!.textContent).toBe('72.5%');
    expect(svg.querySelector('.num-gauge-min')!.textContent).toBe('0%');
    expect(svg.querySelector('.num-gauge-max')!.textContent).toBe('200%');
    expect(svg.querySelector('.num-gauge-marker')!.getAttribute('stroke')).toBe('rgb(9, 9, 9)');
    expect(svg.querySelector('.num-gauge-second')!.textContent).toBe('Target: 120%');
  });

  it('maps values onto the half circle and clamps what is outside min..max', () => {
    expect(dialAngle(0, 0, 100)).toBeCloseTo(-Math.PI / 2);
    expect(dialAngle(50, 0, 100)).toBeCloseTo(0);
    expect(dialAngle(100, 0, 100)).toBeCloseTo(Math.PI / 2);
    expect(dialAngle(500, 0, 100)).toBeCloseTo(Math.PI / 2);
    expect(dialAngle(-5, 0, 100)).toBeCloseTo(-Math.PI / 2);
    expect(dialAngle(5, 10, 10)).toBeCloseTo(-Math.PI / 2);
  });

  it('draws with only a value: 0..100, theme colours, no bands or marker', async () => {
    const screen = await render(<GaugeWidget {...widgetProps<'gauge'>({ value: 30 })} />);
    const svg = screen.container.querySelector('svg.num-gauge')!;
    expect(svg.querySelector('.num-gauge-text')!.textContent).toBe('30');
    expect(svg.querySelector('.num-gauge-max')!.textContent).toBe('100');
    expect(svg.querySelector('.num-gauge-value')!.getAttribute('fill')).toBe(theme.accent);
    expect(svg.querySelectorAll('.num-gauge-band')).toHaveLength(0);
    expect(svg.querySelector('.num-gauge-marker')).toBeNull();
    expect(svg.querySelector('.num-gauge-second')).toBeNull();
  });

  it('uses gauge_color when there is no value_color, and shows value_2 without a label', async () => {
    const screen = await render(
      <GaugeWidget {...widgetProps<'gauge'>({ value: 30, gauge_color: 'purple', value_2: 60 })} />,
    );
    expect(screen.container.querySelector('.num-gauge-value')!.getAttribute('fill')).toBe('purple');
    expect(screen.container.querySelector('.num-gauge-second')!.textContent).toBe('60');
  });

  it('stays inside a tiny box', async () => {
    const screen = await render(
      <GaugeWidget {...widgetProps<'gauge'>({ value: 30, value_2: 1 }, { width: 20, height: 10 })} />,
    );
    const svg = screen.container.querySelector('svg')!;
    expect(svg.getBoundingClientRect().height).toBe(10);
  });

  itShowsFrameFaces('gauge', { value: 'high' }, { value: 55, max: 80 });
});
