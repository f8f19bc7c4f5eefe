const REFERENCE_PX = 100;
const MAX_ENTRIES = 2000;
const widths = new Map<string, number>();
let context: CanvasRenderingContext2D | null | undefined;

/**
 * The width of `text` in ems of the given font, measured once on a canvas and remembered: big
 * numbers are sized to their box without reading layout on every update.
 */
export function textWidthEm(text: string, fontFamily: string, weight = 600): number {
  const key = `${weight}|${fontFamily}|${text}`;
  const known = widths.get(key);
  if (known !== undefined) return known;
  if (context === undefined) context = document.createElement('canvas').getContext('2d');
  // Without a canvas, a generous guess: wide enough for bold digits.
  let width = text.length * 0.72;
  if (context) {
    context.font = `${weight} ${REFERENCE_PX}px ${fontFamily}`;
    width = context.measureText(text).width / REFERENCE_PX;
  }
  if (widths.size >= MAX_ENTRIES) widths.clear();
  widths.set(key, width);
  return width;
}
