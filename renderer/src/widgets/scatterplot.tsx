import { useMemo } from 'react';
import type uPlot from 'uplot';
import { formatValue } from '../format/number';
import type { WidgetProps } from './types';
import {
  AxisTitles,
  UPlotChart,
  chartFontSize,
  paddedRange,
  valueAxis,
  withAlpha,
  yRange,
  type ChartOptions,
} from './uplot-chart';

/** [x, y] points in one colour on numeric axes, with optional axis titles. */
export function ScatterplotWidget({ data, width, height, theme, fontSize }: WidgetProps<'scatterplot'>) {
  const fontPx = chartFontSize(fontSize, height);
  const color = data.color ?? theme.accent;

  // uPlot wants x in order; points keep their pairing, so sorting changes nothing drawn.
  const aligned = useMemo<uPlot.AlignedData>(() => {
    const sorted = [...data.values].sort((a, b) => a[0] - b[0]);
    return [sorted.map(([x]) => x), sorted.map(([, y]) => y)];
  }, [data.values]);

  const options = useMemo<ChartOptions>(
    () => ({
      scales: { x: { time: false, range: paddedRange }, y: { range: yRange({}) } },
      axes: [
        {
          size: Math.ceil(fontPx * 2 + 4),
          values: (_u, splits) => splits.map((v) => formatValue(v, { abbreviate: true })),
        },
        valueAxis({}, fontPx),
      ],
      series: [
        {},
        {
          stroke: color,
          fill: color,
          paths: () => null,
          points: {
            show: true,
            space: 0,
            size: Math.max(5, fontPx * 0.5),
            width: 1,
            fill: withAlpha(color, 0.7),
            stroke: color,
          },
        },
      ],
    }),
    [color, fontPx],
  );

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
        <UPlotChart
          options={options}
          data={aligned}
          width={plotWidth}
          height={plotHeight}
          theme={theme}
          fontPx={fontPx}
        />
      )}
    </AxisTitles>
  );
}
