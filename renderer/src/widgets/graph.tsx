import { useLayoutEffect, useMemo, useRef } from 'react';
import type uPlot from 'uplot';
import type { WidgetProps } from './types';
import {
  ChartLegend,
  UPlotChart,
  baselinePlugin,
  chartColor,
  chartFontSize,
  legendHeight,
  lineSeries,
  valueAxis,
  withAlpha,
  yRange,
  type ChartOptions,
} from './uplot-chart';

type GraphData = WidgetProps<'graph'>['data'];
type Renderer = NonNullable<GraphData['renderer']>;

const INDEX_STEPS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000];

/** Series of values as lines, filled areas, bars (grouped or stacked) or points. */
export function GraphWidget({ data, width, height, theme, fontSize }: WidgetProps<'graph'>) {
  const renderer: Renderer = data.renderer ?? 'line';
  const stacked = renderer === 'stack' && !data.unstack;
  const bars = renderer === 'bar' || renderer === 'stack';
  const xLabels = data.x_labels;
  const labelled = !!xLabels?.length;
  const timed = !labelled && data.start_time !== undefined && data.end_time !== undefined;
  const { baseline, min_scale: minScale, value_type: valueType } = data;
  const colorKey = data.series.map((s, i) => s.color ?? chartColor(theme, i)).join('|');

  const fontPx = chartFontSize(fontSize, height);
  const showLegend = data.series.length > 1 || data.series.some((s) => s.label);
  const plotHeight = Math.max(0, height - (showLegend ? legendHeight(fontPx) : 0));

  // x labels slide with the data; the axis reads them at draw time instead of rebuilding the plot.
  // A layout effect runs before the chart's passive setData effect, so the labels are never stale.
  const labels = useRef<readonly string[]>([]);
  useLayoutEffect(() => {
    labels.current = xLabels ?? [];
  }, [xLabels]);

  const aligned = useMemo(
    () => alignSeries(data.series, stacked, timed ? [data.start_time ?? 0, data.end_time ?? 0] : null),
    [data.series, stacked, timed, data.start_time, data.end_time],
  );

  const options = useMemo<ChartOptions>(() => {
    const colors = colorKey.split('|');
    const include = [...(baseline === undefined ? [] : [baseline]), ...(bars ? [0] : [])];
    const xAxis: uPlot.Axis = labelled
      ? {
          incrs: INDEX_STEPS,
          size: Math.ceil(fontPx * 2 + 4),
          space: () =>
            Math.max(40, Math.max(0, ...labels.current.map((l) => l.length)) * fontPx * 0.62 + fontPx),
          values: (_u, splits) => splits.map((v) => (Number.isInteger(v) ? (labels.current[v] ?? '') : '')),
        }
      : timed
        ? {}
        : { incrs: INDEX_STEPS, size: Math.ceil(fontPx * 2 + 4) };
    return {
      scales: {
        x: bars ? { time: timed, range: padHalfStep } : { time: timed },
        y: { range: yRange({ include, minSpan: minScale }) },
      },
      axes: [xAxis, valueAxis({ value_type: valueType }, fontPx)],
      series: [
        {},
        ...colors.map((color, i) => graphSeries(renderer, color, i, colors.length, stacked, fontPx)),
      ],
      plugins: baseline === undefined ? [] : [baselinePlugin(baseline, theme.muted)],
    };
  }, [colorKey, baseline, bars, labelled, timed, minScale, valueType, renderer, stacked, fontPx, theme]);

  const legend = useMemo(() => {
    const colors = colorKey.split('|');
    return data.series.map((s, i) => ({
      label: s.label ?? `Series ${i + 1}`,
      color: colors[i] ?? theme.accent,
    }));
  }, [data.series, colorKey, theme]);

  return (
    <div className="chart" style={{ width, height }}>
      <UPlotChart
        options={options}
        data={aligned}
        width={width}
        height={plotHeight}
        theme={theme}
        fontPx={fontPx}
      />
      {showLegend && <ChartLegend items={legend} fontPx={fontPx} color={theme.foreground} />}
    </div>
  );
}

/** One shared x for every series; stacked series carry running totals so each bar sits on the last. */
function alignSeries(
  series: GraphData['series'],
  stacked: boolean,
  times: [number, number] | null,
): uPlot.AlignedData {
  const n = series.reduce((most, s) => Math.max(most, s.values.length), 0);
  const xs = Array.from({ length: n }, (_, i) => {
    if (!times) return i;
    const [start, end] = times;
    return n > 1 ? start + (i * (end - start)) / (n - 1) : end;
  });
  let running = new Array<number>(n).fill(0);
  const ys = series.map((s) => {
    if (!stacked) return Array.from({ length: n }, (_, i) => s.values[i] ?? null);
    running = running.map((sum, i) => sum + (s.values[i] ?? 0));
    return running;
  });
  return [xs, ...ys];
}

function graphSeries(
  renderer: Renderer,
  color: string,
  index: number,
  count: number,
  stacked: boolean,
  fontPx: number,
): uPlot.Series {
  switch (renderer) {
    case 'area':
      return { ...lineSeries(color, fontPx), fill: withAlpha(color, 0.25) };
    case 'bar':
    case 'stack':
      return {
        stroke: color,
        fill: color,
        paths: stacked ? barPaths(0, 1, true) : barPaths(index, count, false),
        points: { show: false },
      };
    case 'scatterplot':
      return {
        stroke: color,
        fill: color,
        paths: () => null,
        points: { show: true, space: 0, size: Math.max(4, fontPx * 0.5), fill: color, stroke: color },
      };
    default:
      return lineSeries(color, fontPx);
  }
}

/** Bars centred on their x: side by side within the slot when grouped, on the series below when stacked. */
function barPaths(group: number, groups: number, stacked: boolean): uPlot.Series.PathBuilder {
  return (u, seriesIdx, idx0, idx1) => {
    const xs = u.data[0];
    const ys = u.data[seriesIdx];
    const below = stacked && seriesIdx > 1 ? u.data[seriesIdx - 1] : undefined;
    const fill = new Path2D();
    if (!ys) return { stroke: null, fill };
    const first = xs[0];
    const second = xs[1];
    const step =
      first !== undefined && second !== undefined
        ? Math.abs(u.valToPos(second, 'x', true) - u.valToPos(first, 'x', true))
        : u.bbox.width / 2;
    const slot = step * 0.8;
    const barWidth = slot / groups;
    for (let i = idx0; i <= idx1; i++) {
      const x = xs[i];
      const top = ys[i];
      if (x === undefined || top === null || top === undefined) continue;
      const left = u.valToPos(x, 'x', true) - slot / 2 + group * barWidth;
      const y0 = u.valToPos(below?.[i] ?? 0, 'y', true);
      const y1 = u.valToPos(top, 'y', true);
      fill.rect(left, Math.min(y0, y1), barWidth, Math.abs(y1 - y0));
    }
    return { stroke: null, fill, clip: null, flags: 0 };
  };
}

/** Half a step of room either side, so the first and last bars are not cut in half. */
const padHalfStep: uPlot.Scale.Range = (u, min, max) => {
  const n = u.data[0].length;
  const step = n > 1 ? (max - min) / (n - 1) : 1;
  return [min - step / 2, max + step / 2];
};
