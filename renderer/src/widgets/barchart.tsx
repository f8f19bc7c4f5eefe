import { useMemo } from 'react';
import { formatValue } from '../format/number';
import type { WidgetProps } from './types';
import { looseFormat } from './uplot-chart';

/** Horizontal bars from the zero point (kept inside min..max) to each value, with labels and values. */
export function BarchartWidget({ data, width, height, theme, fontSize }: WidgetProps<'barchart'>) {
  const rows = useMemo(() => {
    const format = looseFormat(data);
    const values = data.bars.map((bar) => bar.value);
    const min = data.min ?? Math.min(0, ...values);
    const max = Math.max(data.max ?? Math.max(...values), min);
    const span = max - min || 1;
    const at = (v: number) => ((Math.min(max, Math.max(min, v)) - min) / span) * 100;
    const origin = at(0);
    const bars = data.bars.map((bar, i) => {
      const end = at(bar.value);
      return {
        key: i,
        value: bar.value,
        label: bar.label ?? '',
        shown: formatValue(bar.value, format),
        color: bar.color ?? theme.accent,
        left: Math.min(origin, end),
        width: Math.abs(end - origin),
      };
    });
    if (data.sort === true || data.sort === 'desc') bars.sort((a, b) => b.value - a.value);
    else if (data.sort === 'asc') bars.sort((a, b) => a.value - b.value);
    return bars;
  }, [data, theme]);

  const rowHeight = height / Math.max(1, rows.length);
  const font = Math.max(6, Math.min(fontSize, rowHeight * 0.55, width / 14));
  const labelled = rows.some((row) => row.label);

  return (
    <ul
      className={`chart barchart${labelled ? ' barchart-labelled' : ''}`}
      style={{ width, height, fontSize: font, color: theme.foreground }}
    >
      {rows.map((row) => (
        <li key={row.key} className="barchart-row">
          {labelled && <span className="barchart-label">{row.label}</span>}
          <span
            className="barchart-track"
            style={{ background: `color-mix(in srgb, ${theme.muted} 15%, transparent)` }}
          >
            <span
              className="barchart-bar"
              style={{ left: `${row.left}%`, width: `${row.width}%`, background: row.color }}
            />
          </span>
          <span className="barchart-value">{row.shown}</span>
        </li>
      ))}
    </ul>
  );
}
