import { useEffect, useMemo, useRef, type ReactNode } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { ThemeTokens } from '../../../src/shared/theme';
import { formatValue, type NumberFormat } from '../format/number';

/** uPlot options without the size: the wrapper owns the size. */
export type ChartOptions = Omit<uPlot.Options, 'width' | 'height'>;

interface UPlotChartProps {
  options: ChartOptions;
  data: uPlot.AlignedData;
  width: number;
  height: number;
  theme: ThemeTokens;
  /** Axis text size in px (see chartFontSize). */
  fontPx: number;
}

/**
 * One uPlot canvas. The plot is built when `options` (or the theme) change and otherwise kept:
 * new data goes through setData and a new size through setSize, so a metric update costs a
 * redraw and never a new canvas. Callers must memoize `options` on what shapes the chart
 * (series count, colours, renderer) and never on the data itself.
 */
export function UPlotChart({ options, data, width, height, theme, fontPx }: UPlotChartProps) {
  const host = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const latest = useRef({ data, width, height });
  const themed = useMemo(() => themedOptions(options, theme, fontPx), [options, theme, fontPx]);

  // Declared before the effect that builds the plot, so a (re)build sees the newest data and size.
  useEffect(() => {
    latest.current = { data, width, height };
  });

  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const { data: first, width: w, height: h } = latest.current;
    const created = new uPlot({ ...themed, width: room(w), height: room(h) }, first, element);
    plot.current = created;
    return () => {
      created.destroy();
      if (plot.current === created) plot.current = null;
    };
  }, [themed]);

  useEffect(() => {
    const current = plot.current;
    if (current && current.data !== data) current.setData(data);
  }, [data]);

  useEffect(() => {
    plot.current?.setSize({ width: room(width), height: room(height) });
  }, [width, height]);

  return <div ref={host} className="chart-plot" style={{ width, height }} />;
}

/** uPlot draws nothing sensible at 0 px; one pixel stays inside the clipped widget body. */
function room(px: number): number {
  return Math.max(1, Math.floor(px));
}

/** Axis and legend text: smaller than the board's base font, and smaller still in a short box. */
export function chartFontSize(fontSize: number, height: number): number {
  return Math.max(8, Math.round(Math.min(fontSize * 0.7, height / 9)));
}

function themedOptions(options: ChartOptions, theme: ThemeTokens, fontPx: number): ChartOptions {
  const font = `${fontPx}px ${theme.fontFamily}`;
  const faint = withAlpha(theme.muted, 0.25);
  return {
    ...options,
    // Nobody points at a TV: no legend table, cursor or selection to keep in sync.
    legend: { show: false, ...options.legend },
    cursor: { show: false, drag: { x: false, y: false }, ...options.cursor },
    axes: (options.axes ?? [{}, {}]).map(({ grid, ticks, ...axis }, index) => ({
      stroke: theme.muted,
      // Room for two lines of time labels under the plot; y axes size themselves (valueAxis).
      ...(index === 0 ? { size: Math.ceil(fontPx * 3) } : {}),
      font,
      labelFont: font,
      ...axis,
      grid: { stroke: faint, width: 1, ...grid },
      ticks: { stroke: faint, width: 1, size: 4, ...ticks },
    })),
  };
}

/** The default series colours: the theme's own first, then a few that sit well beside them. */
export function chartColor(theme: ThemeTokens, index: number): string {
  const palette = [
    theme.accent,
    theme.good,
    theme.warning,
    theme.bad,
    theme.muted,
    '#a371f7',
    '#39c5cf',
    '#db61a2',
  ];
  return palette[index % palette.length] ?? theme.accent;
}

let probe: CanvasRenderingContext2D | null | undefined;
const translucent = new Map<string, string>();

/** Any CSS colour at the given opacity: the canvas normalises it to #rrggbb or rgba() first. */
export function withAlpha(color: string, alpha: number): string {
  const key = `${color}/${alpha}`;
  const cached = translucent.get(key);
  if (cached) return cached;
  probe ??= document.createElement('canvas').getContext('2d');
  let result = color;
  if (probe) {
    probe.fillStyle = '#000000';
    probe.fillStyle = color;
    const normal = String(probe.fillStyle);
    const hex = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(normal);
    const rgba = /^rgba\((\d+),\s*(\d+),\s*(\d+),\s*([\d.]+)\)$/.exec(normal);
    if (hex)
      result = `rgba(${hex
        .slice(1, 4)
        .map((h) => parseInt(h, 16))
        .join(', ')}, ${alpha})`;
    else if (rgba) result = `rgba(${rgba.slice(1, 4).join(', ')}, ${Number(rgba[4]) * alpha})`;
  }
  if (translucent.size > 500) translucent.clear();
  translucent.set(key, result);
  return result;
}

/** A plain line; its points show by themselves when there is room between them. */
export function lineSeries(color: string, fontPx: number): uPlot.Series {
  return {
    stroke: color,
    width: Math.max(1.5, fontPx / 7),
    points: { size: Math.max(4, fontPx * 0.4), fill: color, stroke: color },
  };
}

/** A y axis whose tick values go through formatValue and whose width fits the longest of them. */
export function valueAxis(format: NumberFormat, fontPx: number): uPlot.Axis {
  return {
    values: (_u, splits) => splits.map((v) => formatValue(v, { abbreviate: true, ...format })),
    size: (_u, values) => {
      const longest = Math.max(1, ...(values ?? []).map((v) => v.length));
      return Math.ceil(longest * fontPx * 0.62 + fontPx);
    },
  };
}

interface YRange {
  /** Keep this value inside the range (a baseline, or 0 under bars). */
  include?: number[];
  /** The least span of the range. */
  minSpan?: number;
}

/** uPlot's own padding of a y range, plus what the data asks to stay in view. */
export function yRange({ include = [], minSpan }: YRange): uPlot.Scale.Range {
  return (_u, dataMin, dataMax) => {
    const finite = [dataMin, dataMax, ...include].filter((v) => Number.isFinite(v));
    let lo = finite.length ? Math.min(...finite) : 0;
    let hi = finite.length ? Math.max(...finite) : 1;
    [lo, hi] = uPlot.rangeNum(lo, hi, {
      min: { pad: 0.1, soft: 0, mode: 3 },
      max: { pad: 0.1, soft: 0, mode: 3 },
    }) as [number, number];
    if (minSpan !== undefined && minSpan > 0 && hi - lo < minSpan) hi = lo + minSpan;
    return [lo, hi];
  };
}

/** A numeric x range with a little room either side, so edge points are not cut. */
export const paddedRange: uPlot.Scale.Range = (_u, min, max) =>
  Number.isFinite(min) && Number.isFinite(max)
    ? (uPlot.rangeNum(min, max, 0.05, true) as [number, number])
    : [0, 1];

/** A dashed horizontal line across the plot at `value`. */
export function baselinePlugin(value: number, color: string): uPlot.Plugin {
  return {
    hooks: {
      draw: [
        (u) => {
          const y = Math.round(u.valToPos(value, 'y', true));
          const { left, width } = u.bbox;
          const ctx = u.ctx;
          ctx.save();
          ctx.strokeStyle = color;
          ctx.lineWidth = Math.max(1, devicePixelRatio);
          ctx.setLineDash([6 * devicePixelRatio, 4 * devicePixelRatio]);
          ctx.beginPath();
          ctx.moveTo(left, y);
          ctx.lineTo(left + width, y);
          ctx.stroke();
          ctx.restore();
        },
      ],
    },
  };
}

export interface LegendItem {
  label: string;
  color: string;
}

/** The height ChartLegend takes at a given chart font size. */
export function legendHeight(fontPx: number): number {
  return Math.ceil(fontPx * 1.6);
}

/** One line of coloured swatches and labels under a chart; what does not fit is clipped. */
export function ChartLegend({
  items,
  fontPx,
  color,
}: {
  items: LegendItem[];
  fontPx: number;
  color: string;
}) {
  return (
    <ul className="chart-legend" style={{ fontSize: fontPx, height: legendHeight(fontPx), color }}>
      {items.map((item, index) => (
        <li key={index}>
          <span className="chart-swatch" style={{ background: item.color }} />
          <span className="chart-legend-label">{item.label}</span>
        </li>
      ))}
    </ul>
  );
}

/** The number format a chart's loose data may carry beside its declared fields. */
export function looseFormat(data: Record<string, unknown>): NumberFormat {
  const { value_type, abbreviate, rounding } = data;
  return {
    value_type: typeof value_type === 'string' ? value_type : undefined,
    abbreviate: typeof abbreviate === 'boolean' ? abbreviate : undefined,
    rounding:
      typeof rounding === 'number' && Number.isInteger(rounding) && rounding >= 0 && rounding <= 10
        ? rounding
        : undefined,
  };
}

/** Cuts text to what fits `widthPx` at `fontPx` (an estimate: SVG text cannot ellipse itself). */
export function fitText(text: string, widthPx: number, fontPx: number): string {
  const room = Math.floor(widthPx / (fontPx * 0.58));
  if (text.length <= room) return text;
  return room <= 1 ? '' : `${text.slice(0, room - 1)}…`;
}

/** Round tick values covering [lo, hi] with at most `count` steps. */
export function niceTicks(lo: number, hi: number, count: number): number[] {
  if (!(hi > lo) || count < 1) return [lo];
  const raw = (hi - lo) / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 2.5, 5, 10].find((m) => m * magnitude >= raw) ?? 10) * magnitude;
  const ticks: number[] = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step)
    ticks.push(Number(v.toPrecision(12)));
  return ticks;
}

interface AxisTitlesProps {
  xLabel?: string;
  yLabel?: string;
  width: number;
  height: number;
  fontPx: number;
  color: string;
  /** Draws the chart in the room the titles leave. */
  children: (plotWidth: number, plotHeight: number) => ReactNode;
}

/** Axis titles as HTML around a chart: crisp at any scale, and ellipsed when long. */
export function AxisTitles({ xLabel, yLabel, width, height, fontPx, color, children }: AxisTitlesProps) {
  const band = Math.ceil(fontPx * 1.5);
  const left = yLabel ? band : 0;
  const plotWidth = Math.max(0, width - left);
  const plotHeight = Math.max(0, height - (xLabel ? band : 0));
  const title = { height: band, lineHeight: `${band}px`, fontSize: fontPx, color };
  return (
    <div className="chart chart-titled" style={{ width, height }}>
      {yLabel && (
        <div
          className="chart-axis-title chart-y-title"
          style={{ ...title, width: plotHeight, top: plotHeight }}
        >
          {yLabel}
        </div>
      )}
      <div className="chart-titled-plot" style={{ left, width: plotWidth, height: plotHeight }}>
        {children(plotWidth, plotHeight)}
      </div>
      {xLabel && (
        <div
          className="chart-axis-title chart-x-title"
          style={{ ...title, left, top: plotHeight, width: plotWidth }}
        >
          {xLabel}
        </div>
      )}
    </div>
  );
}
