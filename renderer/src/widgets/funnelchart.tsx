import { useMemo } from 'react';
import { formatValue } from '../format/number';
import type { WidgetProps } from './types';
import { chartColor, fitText, looseFormat } from './uplot-chart';

const GAP = 2;
/** The narrowest stage keeps this share of the width, so its text still has a shape behind it. */
const LEAST_SHARE = 0.2;

/** Stages as stacked trapezoids narrowing with their values, each with its label and value. */
export function FunnelchartWidget({ data, width, height, theme, fontSize }: WidgetProps<'funnelchart'>) {
  const stages = useMemo(() => {
    const format = looseFormat(data);
    const most = data.values.reduce((m, item) => Math.max(m, item.value), 0);
    const share = (v: number) => (most > 0 ? LEAST_SHARE + (1 - LEAST_SHARE) * (Math.max(0, v) / most) : 1);
    return data.values.map((item, i) => ({
      label: item.label ?? '',
      value: formatValue(item.value, format),
      color: item.color ?? chartColor(theme, i),
      top: share(item.value),
      // The last stage narrows a little on its own, so the funnel still ends in a point-ward shape.
      bottom: share(data.values[i + 1]?.value ?? item.value * 0.8),
    }));
  }, [data, theme]);

  const n = Math.max(1, stages.length);
  const rowHeight = Math.max(0, (height - GAP * (n - 1)) / n);
  const font = Math.max(6, Math.min(fontSize, rowHeight * 0.42));
  const twoLines = rowHeight >= font * 2.6;
  const center = width / 2;

  return (
    <svg className="chart-svg funnel" width={width} height={height} role="img">
      {stages.map((stage, i) => {
        const top = i * (rowHeight + GAP);
        const mid = top + rowHeight / 2;
        const a = (stage.top * width) / 2;
        const b = (stage.bottom * width) / 2;
        const text = {
          x: center,
          fill: theme.foreground,
          stroke: theme.widgetBackground,
          strokeWidth: Math.max(1, font / 8),
          paintOrder: 'stroke',
          textAnchor: 'middle',
          fontSize: font,
        } as const;
        const label = fitText(stage.label, width * 0.6, font);
        return (
          <g key={i} className="funnel-stage">
            <path
              d={`M${center - a},${top}L${center + a},${top}L${center + b},${top + rowHeight}L${center - b},${top + rowHeight}Z`}
              fill={stage.color}
            />
            {twoLines && label ? (
              <>
                <text {...text} y={mid - font * 0.2}>
                  {label}
                </text>
                <text {...text} y={mid + font * 0.95} fontWeight="bold">
                  {stage.value}
                </text>
              </>
            ) : (
              <text {...text} y={mid + font * 0.35}>
                {label && <tspan>{label} </tspan>}
                <tspan fontWeight="bold">{stage.value}</tspan>
              </text>
            )}
          </g>
        );
      })}
    </svg>
  );
}
