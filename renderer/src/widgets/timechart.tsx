import { useMemo } from 'react';
import type uPlot from 'uplot';
import { TimeLines } from './timeseries';
import type { WidgetProps } from './types';
import { chartColor } from './uplot-chart';

/** Series of [unix seconds, value] points as lines on one time axis. */
export function TimechartWidget({ data, width, height, theme, fontSize }: WidgetProps<'timechart'>) {
  const aligned = useMemo<uPlot.AlignedData>(() => {
    // uPlot shares one x between series: the union of every series' timestamps, in order.
    const times = [...new Set(data.series.flatMap((s) => s.values.map(([t]) => t)))].sort((a, b) => a - b);
    const slot = new Map(times.map((t, i) => [t, i]));
    const ys = data.series.map((s) => {
      const row = new Array<number | null>(times.length).fill(null);
      for (const [t, v] of s.values) {
        const i = slot.get(t);
        if (i !== undefined) row[i] = v;
      }
      return row;
    });
    return [times, ...ys];
  }, [data.series]);

  const lines = useMemo(
    () =>
      data.series.map((s, i) => ({
        label: s.label ?? `Series ${i + 1}`,
        color: s.color ?? chartColor(theme, i),
      })),
    [data.series, theme],
  );

  return (
    <TimeLines
      aligned={aligned}
      lines={lines}
      legend={data.series.length > 1 || data.series.some((s) => s.label)}
      valueType={data.value_type}
      baseline={undefined}
      spanGaps
      width={width}
      height={height}
      theme={theme}
      fontSize={fontSize}
    />
  );
}
