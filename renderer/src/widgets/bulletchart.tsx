import { useMemo } from 'react';
import { formatValue } from '../format/number';
import type { WidgetProps } from './types';

/**
 * How many of `count` rows fit when each needs at least `minRow` pixels; when not all fit, the
 * last line says how many are left out instead of drawing rows too thin to read.
 */
export function fitRows(count: number, height: number, minRow: number): { shown: number; hidden: number } {
  const room = Math.max(1, Math.floor(height / Math.max(1, minRow)));
  if (count <= room) return { shown: count, hidden: 0 };
  const shown = Math.max(0, room - 1);
  return { shown, hidden: count - shown };
}

interface Band {
  from: number;
  to: number;
  color: string;
  opacity: number;
}

type Entry = WidgetProps<'bulletchart'>['data']['bulletcharts'][number];

/** The qualitative ranges behind the bar: `thresholds` are the upper edges, `colors` their fills. */
export function bulletBands(entry: Entry, max: number, fallback: string): Band[] {
  // Thresholds split the track; the last range runs from the highest threshold to the end.
  const edges = [...(entry.thresholds ?? [])].filter((edge) => edge < max).sort((a, b) => a - b);
  edges.push(max);
  let from = 0;
  return edges.map((edge, index) => {
    const to = Math.min(max, Math.max(from, edge));
    const color = entry.colors?.[index];
    // Without colours the ranges are shades of one colour, darker for the lower ones.
    const band = {
      from,
      to,
      color: color ?? fallback,
      opacity: color ? 1 : Math.max(0.12, 0.5 - index * 0.13),
    };
    from = to;
    return band;
  });
}

export function bulletMax(entry: Entry): number {
  const max = entry.max ?? Math.max(0, entry.value, entry.marker ?? 0, ...(entry.thresholds ?? []));
  return max > 0 ? max : 1;
}

export function BulletchartWidget({ data, width, height, theme, fontSize }: WidgetProps<'bulletchart'>) {
  const entries = data.bulletcharts;
  const rows = fitRows(entries.length, height, Math.min(fontSize * 1.6, height));
  const rowHeight = height / (rows.shown + (rows.hidden ? 1 : 0));
  const small = Math.max(1, Math.min(fontSize, rowHeight * 0.45));

  const drawn = useMemo(
    () =>
      entries.slice(0, rows.shown).map((entry) => {
        const max = bulletMax(entry);
        return {
          entry,
          max,
          text: formatValue(entry.value, { value_type: entry.value_type }),
          bands: bulletBands(entry, max, theme.muted),
        };
      }),
    [entries, rows.shown, theme.muted],
  );

  const labelChars = Math.max(0, ...drawn.map((row) => row.entry.label?.length ?? 0));
  const valueChars = Math.max(1, ...drawn.map((row) => row.text.length));
  const labelWidth = labelChars ? Math.min(width * 0.3, labelChars * small * 0.62 + small * 0.3) : 0;
  const valueWidth = Math.min(width * 0.3, valueChars * small * 0.62 + small * 0.3);
  const gaps = small * 0.5 * (labelWidth ? 2 : 1);
  const barWidth = Math.max(0, width - labelWidth - valueWidth - gaps);
  const barHeight = Math.max(0, Math.min(rowHeight * 0.7, fontSize * 2.5));
  const x = (v: number, max: number) => (Math.min(max, Math.max(0, v)) / max) * barWidth;

  return (
    <div className="num-rows num-bulletchart" style={{ width, height }}>
      {drawn.map(({ entry, max, text, bands }, index) => (
        <div className="num-row" key={index} style={{ height: rowHeight, fontSize: small, gap: small * 0.5 }}>
          {labelWidth > 0 && (
            <div className="num-row-label num-ellipsis" style={{ width: labelWidth, color: theme.muted }}>
              {entry.label}
            </div>
          )}
          <svg
            className="num-svg num-bullet"
            width={barWidth}
            height={barHeight}
            viewBox={`0 0 ${barWidth} ${barHeight}`}
          >
            {bands.map((band, bandIndex) => (
              <rect
                className="num-bullet-band"
                key={bandIndex}
                x={x(band.from, max)}
                width={Math.max(0, x(band.to, max) - x(band.from, max))}
                height={barHeight}
                fill={band.color}
                opacity={band.opacity}
              />
            ))}
            <rect
              className="num-bullet-value"
              y={barHeight / 3}
              width={x(entry.value, max)}
              height={barHeight / 3}
              fill={theme.accent}
            />
            {entry.marker !== undefined && (
              <line
                className="num-bullet-marker"
                x1={Math.min(barWidth - 1, Math.max(1, x(entry.marker, max)))}
                x2={Math.min(barWidth - 1, Math.max(1, x(entry.marker, max)))}
                y1={barHeight * 0.15}
                y2={barHeight * 0.85}
                stroke={theme.foreground}
                strokeWidth={2}
              />
            )}
          </svg>
          <div className="num-row-value num-ellipsis" style={{ width: valueWidth, color: theme.foreground }}>
            {text}
          </div>
        </div>
      ))}
      {rows.hidden > 0 && (
        <div className="num-more" style={{ height: rowHeight, fontSize: small, color: theme.muted }}>
          +{formatValue(rows.hidden)} more
        </div>
      )}
    </div>
  );
}
