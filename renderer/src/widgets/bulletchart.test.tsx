import { describe, expect, it } from 'vitest';
import { render } from 'vitest-browser-react';
import { BulletchartWidget, bulletBands, bulletMax, fitRows } from './bulletchart';
import { itShowsFrameFaces, theme, widgetProps } from './testing/numbers-frame';

const width = (element: Element | null | undefined) => Number(element?.getAttribute('width'));

describe('bulletchart widget', () => {
  it('draws one bullet per entry: bands, value bar, marker, label and formatted value', async () => {
    const screen = await render(
      <BulletchartWidget
        {...widgetProps<'bulletchart'>({
          bulletcharts: [
            {
              label: 'Revenue',
              value: 270,
              max: 300,
              marker: 250,
              thresholds: [150, 225, 300],
              colors: ['rgb(100, 0, 0)', 'rgb(0, 100, 0)', 'rgb(0, 0, 100)'],
              value_type: 'currency',
            },
            { label: 'Profit', value: 0.2, value_type: 'percent' },
          ],
        })}
      />,
    );
    const rows = screen.container.querySelectorAll('.num-row');
    expect(rows).toHaveLength(2);
    const [revenue, profit] = [...rows];
    expect(revenue!.querySelector('.num-row-label')!.textContent).toBe('Revenue');
    expect(revenue!.querySelector('.num-row-value')!.textContent).toBe('$270');
    expect(profit!.querySelector('.num-row-value')!.textContent).toBe('0.2%');

    const bands = revenue!.querySelectorAll('.num-bullet-band');
    expect([...bands].map((band) => band.getAttribute('fill'))).toEqual([
      'rgb(100, 0, 0)',
      'rgb(0, 100, 0)',
      'rgb(0, 0, 100)',
    ]);
    const barWidth = width(revenue!.querySelector('svg'));
    expect(width(bands[0])).toBeCloseTo(barWidth / 2);
    expect(width(revenue!.querySelector('.num-bullet-value'))).toBeCloseTo(barWidth * 0.9);
    expect(Number(revenue!.querySelector('.num-bullet-marker')!.getAttribute('x1'))).toBeCloseTo(
      (barWidth * 250) / 300,
    );
  });

  it('draws an entry with only a value: one default band, no marker, no label column', async () => {
    const screen = await render(
      <BulletchartWidget {...widgetProps<'bulletchart'>({ bulletcharts: [{ value: 40 }] })} />,
    );
    expect(screen.container.querySelectorAll('.num-bullet-band')).toHaveLength(1);
    expect(screen.container.querySelector('.num-bullet-band')!.getAttribute('fill')).toBe(theme.muted);
    expect(screen.container.querySelector('.num-bullet-marker')).toBeNull();
    expect(screen.container.querySelector('.num-row-label')).toBeNull();
    expect(screen.container.querySelector('.num-row-value')!.textContent).toBe('40');
    // Without max the scale ends at the value, so the bar is full.
    const svg = screen.container.querySelector('svg')!;
    expect(width(screen.container.querySelector('.num-bullet-value'))).toBeCloseTo(width(svg));
    const empty = await render(<BulletchartWidget {...widgetProps<'bulletchart'>({ bulletcharts: [] })} />);
    expect(empty.container.querySelector('.num-bulletchart')!.children).toHaveLength(0);
  });

  it('turns thresholds into bands and picks a scale', () => {
    const bands = bulletBands({ value: 1, thresholds: [80, 20, 50] }, 100, 'grey');
    expect(bands.map(({ from, to }) => [from, to])).toEqual([
      [0, 20],
      [20, 50],
      [50, 80],
      [80, 100],
    ]);
    expect(bands.every((band) => band.color === 'grey' && band.opacity < 1)).toBe(true);
    expect(bulletMax({ value: 10, marker: 30, thresholds: [20] })).toBe(30);
    expect(bulletMax({ value: -5 })).toBe(1);
    expect(bulletMax({ value: 5, max: 8 })).toBe(8);
  });

  it('shows as many rows as fit and counts the rest', async () => {
    expect(fitRows(3, 300, 30)).toEqual({ shown: 3, hidden: 0 });
    expect(fitRows(50, 300, 30)).toEqual({ shown: 9, hidden: 41 });
    const screen = await render(
      <BulletchartWidget
        {...widgetProps<'bulletchart'>(
          { bulletcharts: Array.from({ length: 40 }, (_, i) => ({ label: `Row ${i}`, value: i })) },
          { width: 300, height: 200 },
        )}
      />,
    );
    const shown = screen.container.querySelectorAll('.num-row').length;
    expect(shown).toBeGreaterThan(0);
    expect(shown).toBeLessThan(40);
    await expect.element(screen.getByText(`+${40 - shown} more`)).toBeVisible();
    const root = screen.container.querySelector('.num-bulletchart')!;
    expect(root.scrollHeight).toBeLessThanOrEqual(201);
  });

  itShowsFrameFaces(
    'bulletchart',
    { bulletcharts: [{ label: 'no value' }] },
    { bulletcharts: [{ label: 'A', value: 3 }] },
  );
});
