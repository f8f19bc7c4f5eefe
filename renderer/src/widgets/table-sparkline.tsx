import { memo, useMemo } from 'react';

/** More points than a cell has pixels only cost time: long series are thinned to this many. */
const MAX_POINTS = 120;
const VIEW_WIDTH = 100;
const VIEW_HEIGHT = 24;

function thin(values: readonly number[]): number[] {
  const finite = values.filter(Number.isFinite);
  if (finite.length <= MAX_POINTS) return finite;
  const step = (finite.length - 1) / (MAX_POINTS - 1);
  return Array.from({ length: MAX_POINTS }, (_, index) => finite[Math.round(index * step)] ?? 0);
}

export function sparklinePoints(values: readonly number[]): string {
  const points = thin(values);
  if (points.length === 0) return '';
  const min = Math.min(...points);
  const max = Math.max(...points);
  const span = max - min || 1;
  const stepX = points.length > 1 ? VIEW_WIDTH / (points.length - 1) : 0;
  return points
    .map((value, index) => {
      // A flat series sits in the middle rather than on the floor.
      const y = max === min ? VIEW_HEIGHT / 2 : VIEW_HEIGHT - ((value - min) / span) * VIEW_HEIGHT;
      return `${(index * stepX).toFixed(2)},${y.toFixed(2)}`;
    })
    .join(' ');
}

interface TableSparklineProps {
  values: readonly number[];
  color: string;
}

/** A small trend line inside a table cell, drawn as one SVG polyline. */
export const TableSparkline = memo(function TableSparkline({ values, color }: TableSparklineProps) {
  const points = useMemo(() => sparklinePoints(values), [values]);
  if (!points) return null;
  return (
    <svg
      className="lists-table-sparkline"
      viewBox={`0 -1 ${VIEW_WIDTH} ${VIEW_HEIGHT + 2}`}
      preserveAspectRatio="none"
      aria-hidden="true"
    >
      <polyline
        points={points}
        fill="none"
        stroke={color}
        strokeWidth={1.5}
        strokeLinejoin="round"
        vectorEffect="non-scaling-stroke"
      />
    </svg>
  );
});
