import { useMemo } from 'react';
import { textWidthEm } from '../format/measure';
import { formatValue } from '../format/number';
import { Icon } from '../icons/icon';
import { Sparkline } from './sparkline';
import type { WidgetProps } from './types';

/** Average glyph width of the board fonts in em, bold: digits of DejaVu Sans Bold are 0.7em wide. */
const GLYPH_EM = 0.7;

/**
 * The largest font size at which `chars` characters (plus `extraEm` of icons) fit in width x
 * height on one line. Estimated from the character count rather than measured, so a redraw
 * never has to read layout.
 */
export function fitFontSize(chars: number, width: number, height: number, extraEm = 0): number {
  return fitEm(chars * GLYPH_EM, width, height, extraEm);
}

/** The same for a text measured in its font (see textWidthEm): exact where the estimate is not. */
export function fitTextSize(
  text: string,
  fontFamily: string,
  width: number,
  height: number,
  extraEm = 0,
): number {
  return fitEm(textWidthEm(text, fontFamily), width, height, extraEm);
}

function fitEm(widthEm: number, width: number, height: number, extraEm: number): number {
  const byWidth = width / Math.max(0.5, widthEm + extraEm);
  return Math.max(1, Math.min(byWidth, height / 1.15));
}

/** Up is good unless `delta_type` is 'inverse' (for costs, errors, latency). */
export function deltaColor(delta: number, inverse: boolean, good: string, bad: string, flat: string): string {
  if (delta === 0) return flat;
  return delta > 0 !== inverse ? good : bad;
}

export function ValueWidget({ data, width, height, theme, fontSize }: WidgetProps<'value'>) {
  const { value, value_type, abbreviate, rounding, delta, sparkline, label, icon } = data;
  const text = useMemo(
    () => formatValue(value, { value_type, abbreviate, rounding }),
    [value, value_type, abbreviate, rounding],
  );
  // The original product's `delta_type: "percent"` shows the delta as a percentage of its own.
  const deltaFormat = data.delta_type === 'percent' ? 'percent' : value_type;
  const deltaText = useMemo(
    () =>
      delta === undefined
        ? ''
        : formatValue(Math.abs(delta), { value_type: deltaFormat, abbreviate, rounding }),
    [delta, deltaFormat, abbreviate, rounding],
  );

  const hasSpark = sparkline !== undefined && sparkline.length > 0;
  const sparkHeight = hasSpark ? Math.round(height * 0.22) : 0;
  const small = Math.max(1, Math.min(fontSize * 1.2, height * 0.15));
  const lines = (label ? 1 : 0) + (delta === undefined ? 0 : 1);
  const valueRoom = Math.max(0, height - sparkHeight - lines * small * 1.25);
  const valueSize = fitTextSize(text, theme.fontFamily, width * 0.94, valueRoom, icon ? 1.2 : 0);
  const color = data.color ?? theme.foreground;

  return (
    <div className="num-value" style={{ width, height }}>
      <div className="num-value-main" style={{ fontSize: valueSize, color }}>
        {icon && <Icon name={icon} size="0.8em" className="num-value-icon" />}
        <span className="num-value-number">{text}</span>
      </div>
      {label && (
        <div
          className="num-value-label num-ellipsis"
          style={{ fontSize: small, color: data.label_color ?? theme.muted }}
        >
          {label}
        </div>
      )}
      {delta !== undefined && (
        <div
          className="num-value-delta"
          data-direction={delta > 0 ? 'up' : delta < 0 ? 'down' : 'flat'}
          style={{
            fontSize: small,
            color: deltaColor(delta, data.delta_type === 'inverse', theme.good, theme.bad, theme.muted),
          }}
        >
          {delta !== 0 && (
            <Icon name={delta > 0 ? 'caret-up' : 'caret-down'} title={delta > 0 ? 'Up' : 'Down'} />
          )}
          <span>{deltaText}</span>
        </div>
      )}
      {hasSpark && (
        <Sparkline values={sparkline} width={width} height={sparkHeight} color={data.color ?? theme.accent} />
      )}
    </div>
  );
}
