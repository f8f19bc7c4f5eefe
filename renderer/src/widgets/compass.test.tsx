import { describe, expect, it } from 'vitest';
import { render } from 'vitest-browser-react';
import { CompassWidget, compassPoint } from './compass';
import { itShowsFrameFaces, widgetProps } from './testing/numbers-frame';

describe('compass widget', () => {
  it('points the needle at the heading and shows it with the label', async () => {
    const screen = await render(
      <CompassWidget {...widgetProps<'compass'>({ heading: 123.4, label: 'Wind' })} />,
    );
    expect(screen.container.querySelector('.num-compass-needle')!.getAttribute('transform')).toBe(
      'rotate(123.4)',
    );
    expect(screen.container.querySelector('.num-compass-heading')!.textContent).toBe('123° SE');
    await expect.element(screen.getByText('Wind')).toBeVisible();
    const marks = [...screen.container.querySelectorAll('.num-compass-mark')].map((mark) => mark.textContent);
    expect(marks).toEqual(['N', 'E', 'S', 'W']);
  });

  it('places N at the top and E on the right of the dial', async () => {
    const screen = await render(<CompassWidget {...widgetProps<'compass'>({ heading: 0 })} />);
    const [n, e] = [...screen.container.querySelectorAll('.num-compass-mark')];
    expect(Number(n!.getAttribute('y'))).toBeLessThan(0);
    expect(Math.abs(Number(n!.getAttribute('x')))).toBeLessThan(0.001);
    expect(Number(e!.getAttribute('x'))).toBeGreaterThan(0);
  });

  it('names the nearest compass point', () => {
    expect(compassPoint(0)).toBe('N');
    expect(compassPoint(44)).toBe('NE');
    expect(compassPoint(90)).toBe('E');
    expect(compassPoint(200)).toBe('S');
    expect(compassPoint(300)).toBe('NW');
    expect(compassPoint(359)).toBe('N');
    expect(compassPoint(360)).toBe('N');
  });

  it('draws without a label and inside a small box', async () => {
    const screen = await render(
      <CompassWidget {...widgetProps<'compass'>({ heading: 270 }, { width: 60, height: 40 })} />,
    );
    expect(screen.container.querySelector('.num-compass-label')).toBeNull();
    expect(screen.container.querySelector('.num-compass-heading')!.textContent).toBe('270° W');
    const root = screen.container.querySelector('.num-compass')!;
    expect(root.getBoundingClientRect().height).toBe(40);
    expect(root.scrollHeight).toBeLessThanOrEqual(41);
  });

  itShowsFrameFaces('compass', { heading: 400 }, { heading: 90, label: 'East' });
});
