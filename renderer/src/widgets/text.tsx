import { useMemo } from 'react';
import { textWidthEm } from '../format/measure';
import type { WidgetProps } from './types';

const LINE_HEIGHT = 1.25;

/** How many lines `text` wraps to at `size` px in `width`: words measured once, no layout read. */
function linesAt(text: string, size: number, width: number, fontFamily: string): number {
  const space = textWidthEm(' ', fontFamily, 400) * size;
  let lines = 0;
  for (const paragraph of text.split('\n')) {
    lines += 1;
    let used = 0;
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      const wordWidth = textWidthEm(word, fontFamily, 400) * size;
      if (wordWidth > width) {
        // A word longer than the line breaks across lines (the CSS breaks it too).
        if (used > 0) lines += 1;
        const extra = Math.ceil(wordWidth / width) - 1;
        lines += extra;
        used = wordWidth - extra * width;
      } else if (used === 0) {
        used = wordWidth;
      } else if (used + space + wordWidth <= width) {
        used += space + wordWidth;
      } else {
        lines += 1;
        used = wordWidth;
      }
    }
  }
  return lines;
}

/** The largest whole font size in [min, max] at which the text fits the box (binary search). */
function fitFontSize(
  text: string,
  fontFamily: string,
  width: number,
  height: number,
  min: number,
  max: number,
) {
  const fits = (size: number) => linesAt(text, size, width, fontFamily) * size * LINE_HEIGHT <= height;
  if (fits(max)) return { size: max, fits: true };
  let low = min;
  let high = max - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (fits(middle)) low = middle;
    else high = middle - 1;
  }
  return { size: low, fits: fits(low) };
}

/** Free text, wrapped and sized to fill its box; what cannot fit even small is cut at a line. */
export function TextWidget({ data, width, height, fontSize, theme }: WidgetProps<'text'>) {
  const alignment = data.alignment ?? 'left';
  const fit = useMemo(() => {
    const min = Math.max(8, Math.round(fontSize * 0.5));
    const max = Math.max(min, Math.min(Math.round(fontSize * 3), Math.floor(height / LINE_HEIGHT)));
    if (width <= 0 || height <= 0) return { size: min, fits: true };
    return fitFontSize(data.text, theme.fontFamily, width, height, min, max);
  }, [data.text, theme.fontFamily, width, height, fontSize]);
  // Even the smallest size overflows: end on a whole line with an ellipsis, not a cut glyph.
  const clamp = fit.fits ? undefined : Math.max(1, Math.floor(height / (fit.size * LINE_HEIGHT)));

  return (
    <div className="lists-widget lists-text" style={{ width, height, color: theme.foreground }}>
      <div
        className="lists-text-body"
        style={{
          textAlign: alignment,
          lineHeight: LINE_HEIGHT,
          fontSize: fit.size,
          WebkitLineClamp: clamp ?? 'none',
        }}
      >
        {data.text}
      </div>
    </div>
  );
}
