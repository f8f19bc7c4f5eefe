import { memo, useMemo } from 'react';

interface SparklineProps {
  values: readonly number[];
  width: number;
  height: number;
  color: string;
  strokeWidth?: number;
  className?: string;
}

const round = (n: number) => Math.round(n * 10) / 10;

/**
 * The `points` of a polyline through `values`, fitted into width x height with `inset` room at
 * the top and bottom for the stroke. Long series keep each pixel column's lowest and highest
 * point, so a 10,000-number series stays a few hundred points and its spikes still show.
 */
export function sparklinePoints(values: readonly number[], width: number, height: number, inset = 1): string {
  const n = values.length;
  if (n === 0 || width <= 0 || height <= 0) return '';
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of values) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  const usable = Math.max(0, height - 2 * inset);
  const y = (v: number) => round(hi === lo ? height / 2 : inset + ((hi - v) / (hi - lo)) * usable);
  const at = (i: number) => values[i] ?? lo;

  if (n === 1) return `0,${y(at(0))} ${round(width)},${y(at(0))}`;
  const x = (i: number) => round((i / (n - 1)) * width);
  const columns = Math.max(1, Math.floor(width));
  const points: string[] = [];
  if (n <= columns * 2) {
    for (let i = 0; i < n; i++) points.push(`${x(i)},${y(at(i))}`);
    return points.join(' ');
  }
  for (let c = 0; c < columns; c++) {
    const start = Math.floor((c * n) / columns);
    const end = Math.max(start + 1, Math.floor(((c + 1) * n) / columns));
    let low = start;
    let high = start;
    for (let i = start + 1; i < end; i++) {
      if (at(i) < at(low)) low = i;
      if (at(i) > at(high)) high = i;
    }
    const [first, second] = low < high ? [low, high] : [high, low];
    points.push(`${x(first)},${y(at(first))}`);
    if (second !== first) points.push(`${x(second)},${y(at(second))}`);
  }
  return points.join(' ');
}

/** A plain SVG line of numbers: cheap enough to redraw on every metric update. */
export const Sparkline = memo(function Sparkline({
  values,
  width,
  height,
  color,
  strokeWidth = 2,
  className,
}: SparklineProps) {
  const w = Math.max(0, width);
  const h = Math.max(0, height);
  const points = useMemo(() => sparklinePoints(values, w, h, strokeWidth / 2), [values, w, h, strokeWidth]);
  return (
    <svg
      className={className ? `num-sparkline ${className}` : 'num-sparkline'}
      width={w}
      height={h}
      viewBox={`0 0 ${w} ${h}`}
      aria-hidden
    >
      {points && (
        <polyline
          points={points}
          fill="none"
          stroke={color}
          strokeWidth={strokeWidth}
          strokeLinejoin="round"
          strokeLinecap="round"
        />
      )}
    </svg>
  );
});
