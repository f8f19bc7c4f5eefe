import { useMemo } from 'react';
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
  yRange,
  type ChartOptions,
  type LegendItem,
} from './uplot-chart';

type Interval = NonNullable<WidgetProps<'timeseries'>['data']['interval']>;

const INTERVAL_SECONDS: Record<Exclude<Interval, 'months'>, number> = {
  seconds: 1,
  minutes: 60,
  hours: 3600,
  days: 86400,
  weeks: 7 * 86400,
};

/** Regularly sampled series ending now; nulls are gaps in the line. */
export function TimeseriesWidget({ data, width, height, theme, fontSize }: WidgetProps<'timeseries'>) {
  const interval = data.interval ?? 'minutes';
  const every = data.interval_count ?? 1;

  const aligned = useMemo<uPlot.AlignedData>(() => {
    const n = data.values.reduce((most, values) => Math.max(most, values.length), 0);
    const times = sampleTimes(n, interval, every, nowSeconds());
    // Every series ends at the latest sample; a shorter one starts later.
    const ys = data.values.map((values) =>
      Array.from({ length: n }, (_, i) => values[i - (n - values.length)] ?? null),
    );
    return [times, ...ys];
  }, [data.values, interval, every]);

  const meta = data.series_metadata;
  const lines = useMemo(
    () =>
      data.values.map((_, i) => ({
        label: meta?.[i]?.label ?? `Series ${i + 1}`,
        color: meta?.[i]?.color ?? chartColor(theme, i),
      })),
    [data.values, meta, theme],
  );

  return (
    <TimeLines
      aligned={aligned}
      lines={lines}
      legend={data.values.length > 1 || !!meta?.some((m) => m.label)}
      valueType={meta?.find((m) => m.value_type)?.value_type}
      baseline={data.baseline}
      spanGaps={false}
      width={width}
      height={height}
      theme={theme}
      fontSize={fontSize}
    />
  );
}

/** The sampling instant is when the data arrived: the last sample is "now" by definition. */
function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

function sampleTimes(n: number, interval: Interval, every: number, now: number): number[] {
  return Array.from({ length: n }, (_, i) => {
    const back = (n - 1 - i) * every;
    if (interval !== 'months') return now - back * INTERVAL_SECONDS[interval];
    const date = new Date(now * 1000);
    date.setMonth(date.getMonth() - back);
    return date.getTime() / 1000;
  });
}

interface TimeLinesProps extends Pick<WidgetProps, 'width' | 'height' | 'theme' | 'fontSize'> {
  aligned: uPlot.AlignedData;
  lines: LegendItem[];
  legend: boolean;
  valueType?: string;
  baseline?: number;
  /** Join the line across missing points (they are another series' timestamps, not gaps). */
  spanGaps: boolean;
}

/** Lines on a time axis (x in unix seconds) with an optional legend; shared with timechart. */
const CLOCK = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
const DAY = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short' });

/** A time axis with short 24-hour labels (dates past two days) spaced so they never touch. */
function timeAxis(fontPx: number): uPlot.Axis {
  return {
    space: fontPx * 4.5,
    values: (chart, splits) => {
      const span = (chart.scales.x?.max ?? 0) - (chart.scales.x?.min ?? 0);
      const format = span > 2 * 86400 ? DAY : CLOCK;
      return splits.map((seconds) => format.format(seconds * 1000));
    },
  };
}

export function TimeLines(props: TimeLinesProps) {
  const { aligned, lines, legend, valueType, baseline, spanGaps, width, height, theme, fontSize } = props;
  const fontPx = chartFontSize(fontSize, height);
  const plotHeight = Math.max(0, height - (legend ? legendHeight(fontPx) : 0));
  const colorKey = lines.map((line) => line.color).join('|');

  const options = useMemo<ChartOptions>(
    () => ({
      scales: {
        x: { time: true },
        y: { range: yRange({ include: baseline === undefined ? [] : [baseline] }) },
      },
      axes: [timeAxis(fontPx), valueAxis({ value_type: valueType }, fontPx)],
      series: [{}, ...colorKey.split('|').map((color) => ({ ...lineSeries(color, fontPx), spanGaps }))],
      plugins: baseline === undefined ? [] : [baselinePlugin(baseline, theme.muted)],
    }),
    [colorKey, valueType, baseline, spanGaps, fontPx, theme],
  );

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
      {legend && <ChartLegend items={lines} fontPx={fontPx} color={theme.foreground} />}
    </div>
  );
}
