import { useMemo } from 'react';
import { formatValue } from '../format/number';
import type { ThemeTokens } from '../../../src/shared/theme';
import type { WidgetProps } from './types';
import { chartFontSize, fitText, looseFormat } from './uplot-chart';

interface Step {
  label: string;
  change: string;
  from: number;
  to: number;
  color: string;
}

/** Running-total bars: each change starts where the one before ended; rises good, falls bad. */
export function WaterfallWidget({ data, width, height, theme, fontSize }: WidgetProps<'waterfall'>) {
  const fontPx = chartFontSize(fontSize, height);
  const steps = useMemo(() => runningSteps(data, theme), [data, theme]);

  const n = Math.max(1, steps.length);
  const slot = width / n;
  const font = Math.max(6, Math.min(fontPx, slot / 3));
  const labelBand = Math.ceil(font * 1.6);
  // Room above and below the bars for the change written beside each of them.
  const valueBand = Math.ceil(font * 1.4);
  const plotTop = valueBand;
  const plotHeight = Math.max(0, height - labelBand - 2 * valueBand);
  const totals = steps.flatMap((s) => [s.from, s.to]);
  const lo = Math.min(0, ...totals);
  const hi = Math.max(0, ...totals);
  const y = (v: number) => plotTop + plotHeight - ((v - lo) / (hi - lo || 1)) * plotHeight;
  const barWidth = slot * 0.7;

  return (
    <svg className="chart-svg" width={width} height={height} role="img">
      <line
        className="chart-zero"
        x1={0}
        x2={width}
        y1={y(0)}
        y2={y(0)}
        stroke={theme.muted}
        strokeOpacity={0.5}
      />
      <g className="waterfall-links" stroke={theme.muted} strokeDasharray="3 3">
        {steps.slice(1).map((step, i) => (
          <line
            key={i}
            x1={slot * i + (slot + barWidth) / 2}
            x2={slot * (i + 1) + (slot - barWidth) / 2}
            y1={y(step.from)}
            y2={y(step.from)}
          />
        ))}
      </g>
      <g className="waterfall-bars">
        {steps.map((step, i) => (
          <rect
            key={i}
            x={slot * i + (slot - barWidth) / 2}
            width={barWidth}
            y={Math.min(y(step.from), y(step.to))}
            height={Math.max(1, Math.abs(y(step.to) - y(step.from)))}
            fill={step.color}
          />
        ))}
      </g>
      <g className="waterfall-values" fill={theme.foreground} fontSize={font} textAnchor="middle">
        {steps.map((step, i) => {
          const rising = step.to >= step.from;
          const edge = rising ? Math.min(y(step.from), y(step.to)) : Math.max(y(step.from), y(step.to));
          return (
            <text key={i} x={slot * (i + 0.5)} y={rising ? edge - font * 0.35 : edge + font * 1.05}>
              {fitText(step.change, slot, font)}
            </text>
          );
        })}
      </g>
      <g className="waterfall-labels" fill={theme.muted} fontSize={font} textAnchor="middle">
        {steps.map((step, i) => (
          <text key={i} x={slot * (i + 0.5)} y={height - font * 0.45}>
            {fitText(step.label, slot, font)}
          </text>
        ))}
      </g>
    </svg>
  );
}

function runningSteps(data: WidgetProps<'waterfall'>['data'], theme: ThemeTokens): Step[] {
  const format = looseFormat(data);
  let total = 0;
  return data.values.map((item, i) => {
    const from = total;
    total += item.value;
    const shown = formatValue(item.value, format);
    return {
      label: item.label ?? `${i + 1}`,
      change: item.value > 0 ? `+${shown}` : shown,
      from,
      to: total,
      color: item.color ?? (item.value < 0 ? theme.bad : theme.good),
    };
  });
}
