import { useLayoutEffect, useRef } from 'react';
import type { WidgetProps } from './types';

const LINE_HEIGHT = 1.25;

/**
 * The largest whole font size in [min, max] at which the text fits the box, found by binary
 * search: a handful of layouts per change of text or size, never per frame.
 */
function fitFontSize(element: HTMLElement, width: number, height: number, min: number, max: number): number {
  const fits = (size: number) => {
    element.style.fontSize = `${size}px`;
    return element.scrollHeight <= height && element.scrollWidth <= width;
  };
  if (fits(max)) return max;
  let low = min;
  let high = max - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (fits(middle)) low = middle;
    else high = middle - 1;
  }
  return low;
}

/** Free text, wrapped and sized to fill its box; what cannot fit even small is cut at a line. */
export function TextWidget({ data, width, height, fontSize, theme }: WidgetProps<'text'>) {
  const textRef = useRef<HTMLDivElement>(null);
  const alignment = data.alignment ?? 'left';

  useLayoutEffect(() => {
    const element = textRef.current;
    if (!element || width <= 0 || height <= 0) return;
    const min = Math.max(8, Math.round(fontSize * 0.5));
    const max = Math.max(min, Math.min(Math.round(fontSize * 3), Math.floor(height / LINE_HEIGHT)));
    element.style.webkitLineClamp = 'none';
    const size = fitFontSize(element, width, height, min, max);
    element.style.fontSize = `${size}px`;
    // Even the smallest size overflows: end on a whole line with an ellipsis, not a cut glyph.
    if (element.scrollHeight > height) {
      element.style.webkitLineClamp = String(Math.max(1, Math.floor(height / (size * LINE_HEIGHT))));
    }
  }, [data.text, alignment, width, height, fontSize]);

  return (
    <div className="lists-widget lists-text" style={{ width, height, color: theme.foreground }}>
      <div
        ref={textRef}
        className="lists-text-body"
        style={{ textAlign: alignment, lineHeight: LINE_HEIGHT }}
      >
        {data.text}
      </div>
    </div>
  );
}
