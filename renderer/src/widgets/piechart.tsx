import { useMemo } from 'react';
import { arc, pie, type PieArcDatum } from 'd3-shape';
import { formatValue } from '../format/number';
import type { WidgetProps } from './types';
import { chartColor } from './uplot-chart';

interface Slice {
  label: string;
  color: string;
  percent: string;
  path: string | null;
}

/** A donut of the values, with a legend of labels and shares beside or under it. */
export function PiechartWidget({ data, width, height, theme, fontSize }: WidgetProps<'piechart'>) {
  // The legend goes beside a wide box and under a tall one.
  const beside = width >= height * 1.3;
  const diameter = Math.max(0, beside ? Math.min(height, width * 0.45) : Math.min(width, height * 0.62));
  const radius = diameter / 2;

  const slices = useMemo<Slice[]>(() => {
    // A share of a negative amount means nothing: it counts as none.
    const amounts = data.values.map((v) => Math.max(0, v));
    const total = amounts.reduce((sum, v) => sum + v, 0);
    const arcs = pie<number>()
      .sort(null)
      .value((v) => v)(amounts);
    const shape = arc<PieArcDatum<number>>()
      .innerRadius(radius * 0.58)
      .outerRadius(radius)
      .padAngle(amounts.length > 1 ? 0.01 : 0);
    return arcs.map((datum, i) => ({
      label: data.labels?.[i] ?? formatValue(data.values[i]),
      color: data.colors?.[i] ?? chartColor(theme, i),
      percent:
        total > 0
          ? formatValue(Math.round((datum.value / total) * 1000) / 10, { value_type: 'percent' })
          : '–',
      path: datum.value > 0 ? shape(datum) : null,
    }));
  }, [data.values, data.labels, data.colors, radius, theme]);

  const legendBox = beside
    ? { width: Math.max(0, width - diameter - fontSize * 0.8), height }
    : { width, height: Math.max(0, height - diameter - fontSize * 0.4) };
  const rowHeight = Math.max(1, legendBox.height / Math.max(1, slices.length));
  const legendFont = Math.max(6, Math.min(fontSize * 0.85, rowHeight * 0.7, legendBox.width / 9));

  return (
    <div
      className={`chart piechart ${beside ? 'piechart-beside' : 'piechart-under'}`}
      style={{ width, height }}
    >
      <svg className="chart-svg" width={diameter} height={diameter} role="img">
        <g transform={`translate(${radius},${radius})`}>
          {slices.every((s) => s.path === null) && (
            <circle
              r={radius * 0.79}
              fill="none"
              stroke={theme.muted}
              strokeWidth={radius * 0.42}
              strokeOpacity={0.3}
            />
          )}
          {slices.map((slice, i) => slice.path && <path key={i} d={slice.path} fill={slice.color} />)}
        </g>
      </svg>
      <ul className="chart-key" style={{ ...legendBox, fontSize: legendFont, color: theme.foreground }}>
        {slices.map((slice, i) => (
          <li key={i}>
            <span className="chart-swatch" style={{ background: slice.color }} />
            <span className="chart-key-label">{slice.label}</span>
            <span className="chart-key-value" style={{ color: theme.muted }}>
              {slice.percent}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
