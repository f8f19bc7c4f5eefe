import { describe, expect, it } from 'vitest';
import { render } from 'vitest-browser-react';
import { itShowsFrameFaces, theme, widgetProps } from './testing/numbers-frame';
import { deltaColor, fitFontSize, ValueWidget } from './value';

describe('value widget', () => {
  it('draws the formatted number, its label, icon, delta and sparkline', async () => {
    const screen = await render(
      <ValueWidget
        {...widgetProps<'value'>({
          value: 1234567,
          abbreviate: true,
          rounding: 1,
          label: 'Visitors',
          color: 'rgb(1, 2, 3)',
          label_color: 'rgb(4, 5, 6)',
          icon: 'fa-bug',
          delta: 12.5,
          sparkline: [1, 4, 2, 8],
        })}
      />,
    );
    const number = screen.container.querySelector('.num-value-number')!;
    expect(number.textContent).toBe('1.2M');
    expect(getComputedStyle(number).color).toBe('rgb(1, 2, 3)');
    await expect.element(screen.getByText('Visitors')).toHaveStyle({ color: 'rgb(4, 5, 6)' });
    expect(screen.container.querySelector('[data-icon="bug"]')).not.toBeNull();
    const delta = screen.container.querySelector<HTMLElement>('.num-value-delta')!;
    expect(delta.dataset.direction).toBe('up');
    expect(delta.textContent).toBe('12.5');
    expect(delta.style.color).toBe('rgb(63, 185, 80)');
    await expect.element(screen.getByRole('img', { name: 'Up' })).toBeInTheDocument();
    expect(screen.container.querySelectorAll('svg.num-sparkline polyline')).toHaveLength(1);
  });

  it('formats by value_type and passes strings through as they are', async () => {
    const percent = await render(
      <ValueWidget {...widgetProps<'value'>({ value: 42.126, value_type: 'percent' })} />,
    );
    expect(percent.container.querySelector('.num-value-number')!.textContent).toBe('42.13%');
    const text = await render(
      <ValueWidget {...widgetProps<'value'>({ value: 'All good', value_type: 'percent' })} />,
    );
    expect(text.container.querySelector('.num-value-number')!.textContent).toBe('All good');
  });

  it("shows the original product's singular currencies and its percent and absolute deltas", async () => {
    const percent = await render(
      <ValueWidget
        {...widgetProps<'value'>({ value: 19.99, value_type: 'dollar', delta: 1.2, delta_type: 'percent' })}
      />,
    );
    expect(percent.container.querySelector('.num-value-number')!.textContent).toBe('$19.99');
    const delta = percent.container.querySelector<HTMLElement>('.num-value-delta')!;
    expect(delta.textContent).toBe('1.2%');
    expect(delta.style.color).toBe('rgb(63, 185, 80)');
    const absolute = await render(
      <ValueWidget
        {...widgetProps<'value'>({ value: 5, value_type: 'euro', delta: -2, delta_type: 'absolute' })}
      />,
    );
    expect(absolute.container.querySelector('.num-value-delta')!.textContent).toMatch(/^€2(\.00)?$/);
  });

  it('colours a falling delta bad, and swaps the colours for delta_type inverse', async () => {
    const down = await render(<ValueWidget {...widgetProps<'value'>({ value: 5, delta: -3 })} />);
    const delta = down.container.querySelector<HTMLElement>('.num-value-delta')!;
    expect(delta.dataset.direction).toBe('down');
    expect(delta.textContent).toBe('3');
    expect(delta.style.color).toBe('rgb(248, 81, 73)');
    expect(down.container.querySelector('[data-icon="caret-down"]')).not.toBeNull();

    expect(deltaColor(-3, true, 'good', 'bad', 'flat')).toBe('good');
    expect(deltaColor(3, true, 'good', 'bad', 'flat')).toBe('bad');
    expect(deltaColor(3, false, 'good', 'bad', 'flat')).toBe('good');
    expect(deltaColor(0, false, 'good', 'bad', 'flat')).toBe('flat');
  });

  it('draws with only a value: default colour, no label, delta or sparkline', async () => {
    const screen = await render(<ValueWidget {...widgetProps<'value'>({ value: 7 })} />);
    const number = screen.container.querySelector('.num-value-number')!;
    expect(number.textContent).toBe('7');
    expect(getComputedStyle(number).color).toBe('rgb(230, 237, 243)');
    expect(screen.container.querySelector('.num-value-label')).toBeNull();
    expect(screen.container.querySelector('.num-value-delta')).toBeNull();
    expect(screen.container.querySelector('.num-sparkline')).toBeNull();
    expect(theme.foreground).toBe('#e6edf3');
  });

  it('keeps a long value and label inside the box', async () => {
    const screen = await render(
      <ValueWidget
        {...widgetProps<'value'>(
          {
            value: 'a very long status text that would never fit',
            label: 'x'.repeat(200),
            delta: 1,
            sparkline: [1, 2],
          },
          { width: 160, height: 90 },
        )}
      />,
    );
    const root = screen.container.querySelector<HTMLElement>('.num-value')!;
    expect(root.getBoundingClientRect().width).toBe(160);
    expect(root.getBoundingClientRect().height).toBe(90);
    for (const child of root.children) {
      const box = child.getBoundingClientRect();
      expect(box.right).toBeLessThanOrEqual(root.getBoundingClientRect().right + 0.5);
    }
    expect(root.scrollHeight).toBeLessThanOrEqual(91);
  });

  it('sizes the number by the room it has', () => {
    expect(fitFontSize(4, 400, 1000)).toBeCloseTo(400 / (4 * 0.7));
    expect(fitFontSize(1, 1000, 115)).toBeCloseTo(100);
    expect(fitFontSize(10, 0, 0)).toBe(1);
  });

  itShowsFrameFaces('value', { value: { nested: true } }, { value: 12, label: 'Open tickets' });
});
