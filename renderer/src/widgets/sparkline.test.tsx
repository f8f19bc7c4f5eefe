import { describe, expect, it } from 'vitest';
import { render } from 'vitest-browser-react';
import { Sparkline, sparklinePoints } from './sparkline';

const pointsOf = (points: string) => points.split(' ').map((pair) => pair.split(',').map(Number));

describe('sparkline', () => {
  it('fits a short series into the box, highest value at the top', () => {
    const points = pointsOf(sparklinePoints([0, 10, 5], 100, 20, 1));
    expect(points).toEqual([
      [0, 19],
      [50, 1],
      [100, 10],
    ]);
  });

  it('draws a flat line through the middle for one value or equal values', () => {
    expect(sparklinePoints([7], 50, 10)).toBe('0,5 50,5');
    expect(pointsOf(sparklinePoints([3, 3, 3], 50, 10)).every(([, y]) => y === 5)).toBe(true);
    expect(sparklinePoints([], 50, 10)).toBe('');
    expect(sparklinePoints([1, 2], 0, 10)).toBe('');
  });

  it('keeps a long series to about two points per pixel column without losing its spikes', () => {
    const values = Array.from({ length: 10000 }, (_, i) => (i === 5000 ? 100 : i === 7000 ? -100 : 0));
    const points = pointsOf(sparklinePoints(values, 100, 50, 0));
    expect(points.length).toBeLessThanOrEqual(200);
    expect(Math.min(...points.map(([, y]) => y!))).toBe(0);
    expect(Math.max(...points.map(([, y]) => y!))).toBe(50);
    const xs = points.map(([x]) => x!);
    expect(xs).toEqual([...xs].sort((a, b) => a - b));
  });

  it('renders one SVG polyline of the given size and colour', async () => {
    const screen = await render(<Sparkline values={[1, 3, 2]} width={120} height={30} color="teal" />);
    const svg = screen.container.querySelector('svg.num-sparkline')!;
    expect(svg.getAttribute('width')).toBe('120');
    expect(svg.getAttribute('height')).toBe('30');
    const line = svg.querySelectorAll('polyline');
    expect(line).toHaveLength(1);
    expect(line[0]!.getAttribute('stroke')).toBe('teal');
    expect(line[0]!.getAttribute('points')!.split(' ')).toHaveLength(3);
  });

  it('draws an empty SVG for no values', async () => {
    const screen = await render(<Sparkline values={[]} width={120} height={30} color="teal" />);
    expect(screen.container.querySelector('svg')).not.toBeNull();
    expect(screen.container.querySelector('polyline')).toBeNull();
  });
});
