import { useMemo } from 'react';
import { formatValue } from '../format/number';
import type { WidgetProps } from './types';
import { AxisTitles, chartFontSize, niceTicks } from './uplot-chart';

interface Bin {
  from: number;
  to: number;
  count: number;
}

const EQUAL_BINS = 10;

/** The values counted into bins (given widths, or ten equal ones), drawn as SVG bars. */
export function HistogramWidget({ data, width, height, theme, fontSize }: WidgetProps<'histogram'>) {
  const fontPx = chartFontSize(fontSize, height);
  const bins = useMemo(
    () => binValues(data.values, data.widths, data.cumulative ?? false),
    [data.values, data.widths, data.cumulative],
  );
  const colors = data.colors?.length ? data.colors : [theme.accent];

  return (
    <AxisTitles
      xLabel={data.x_label}
      yLabel={data.y_label}
      width={width}
      height={height}
      fontPx={fontPx}
      color={theme.muted}
    >
      {(plotWidth, plotHeight) => (
        <HistogramBars
          bins={bins}
          colors={colors}
          width={plotWidth}
          height={plotHeight}
          fontPx={fontPx}
          muted={theme.muted}
        />
      )}
    </AxisTitles>
  );
}

interface BarsProps {
  bins: Bin[];
  colors: string[];
  width: number;
  height: number;
  fontPx: number;
  muted: string;
}

function HistogramBars({ bins, colors, width, height, fontPx, muted }: BarsProps) {
  const most = bins.reduce((m, bin) => Math.max(m, bin.count), 0) || 1;
  const yTicks = niceTicks(0, most, Math.max(1, Math.floor(height / (fontPx * 2.5)))).filter(
    Number.isInteger,
  );
  const yLabels = yTicks.map((t) => formatValue(t, { abbreviate: true }));
  const left = Math.ceil(Math.max(1, ...yLabels.map((l) => l.length)) * fontPx * 0.62 + fontPx * 0.6);
  const bottom = Math.ceil(fontPx * 1.6);
  const top = Math.ceil(fontPx * 0.6);
  const plotWidth = Math.max(0, width - left - fontPx);
  const plotHeight = Math.max(0, height - bottom - top);
  const first = bins[0]?.from ?? 0;
  const last = bins[bins.length - 1]?.to ?? 1;
  const x = (v: number) => left + ((v - first) / (last - first || 1)) * plotWidth;
  const y = (count: number) => top + plotHeight - (count / most) * plotHeight;
  const edges = edgeLabels(bins, x, fontPx, width);

  return (
    <svg className="chart-svg" width={width} height={height} role="img">
      <g className="chart-grid" stroke={muted} strokeOpacity={0.25}>
        {yTicks.map((t) => (
          <line key={t} x1={left} x2={left + plotWidth} y1={y(t)} y2={y(t)} />
        ))}
      </g>
      <g className="histogram-bars">
        {bins.map((bin, i) => (
          <rect
            key={i}
            x={x(bin.from) + 0.5}
            width={Math.max(0, x(bin.to) - x(bin.from) - 1)}
            y={y(bin.count)}
            height={Math.max(0, top + plotHeight - y(bin.count))}
            fill={colors[i % colors.length]}
          />
        ))}
      </g>
      <g className="chart-ticks" fill={muted} fontSize={fontPx}>
        {yTicks.map((t, i) => (
          <text key={t} x={left - fontPx * 0.3} y={y(t)} textAnchor="end" dominantBaseline="middle">
            {yLabels[i]}
          </text>
        ))}
        {edges.map(({ at, text }) => (
          <text key={at} x={x(at)} y={top + plotHeight + fontPx * 1.2} textAnchor="middle">
            {text}
          </text>
        ))}
      </g>
    </svg>
  );
}

/** Bin edges as tick labels, leaving out any that would run into the one before or off the side. */
function edgeLabels(bins: Bin[], x: (v: number) => number, fontPx: number, width: number) {
  const edges = bins.length ? [bins[0]?.from ?? 0, ...bins.map((b) => b.to)] : [];
  const shown: { at: number; text: string }[] = [];
  let freeFrom = 0;
  for (const at of edges) {
    const text = formatValue(at, { abbreviate: true });
    const half = (text.length * fontPx * 0.62) / 2;
    if (x(at) - half < freeFrom || x(at) + half > width) continue;
    shown.push({ at, text });
    freeFrom = x(at) + half + fontPx * 0.5;
  }
  return shown;
}

/**
 * Bins start at the least value. Given widths make one bin each (values past the last edge count
 * in the last bin); otherwise ten equal bins span the values.
 */
function binValues(values: number[], widths: number[] | undefined, cumulative: boolean): Bin[] {
  const finite = values.filter(Number.isFinite);
  const lo = finite.length ? finite.reduce((a, b) => Math.min(a, b)) : 0;
  const hi = finite.length ? finite.reduce((a, b) => Math.max(a, b)) : 1;
  const steps = (widths ?? []).filter((w) => Number.isFinite(w) && w > 0);
  const edges: number[] = [];
  if (steps.length) {
    edges.push(lo);
    for (const step of steps) edges.push((edges[edges.length - 1] ?? lo) + step);
  } else {
    const start = hi > lo ? lo : lo - 0.5;
    const span = hi > lo ? hi - lo : 1;
    for (let i = 0; i <= EQUAL_BINS; i++) edges.push(start + (span * i) / EQUAL_BINS);
  }
  const counts = new Array<number>(edges.length - 1).fill(0);
  for (const v of finite) {
    const bin = Math.min(counts.length - 1, Math.max(0, binOf(edges, v)));
    counts[bin] = (counts[bin] ?? 0) + 1;
  }
  let running = 0;
  return counts.map((count, i) => {
    running += count;
    return { from: edges[i] ?? 0, to: edges[i + 1] ?? 0, count: cumulative ? running : count };
  });
}

/** The index of the last edge at or below v. */
function binOf(edges: number[], v: number): number {
  let low = 0;
  let high = edges.length - 1;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if ((edges[mid] ?? Infinity) <= v) low = mid;
    else high = mid - 1;
  }
  return low;
}
