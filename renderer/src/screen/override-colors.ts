import { OVERRIDE_DEFAULT_BACKGROUND } from '../../../src/shared/override';

export type Rgb = readonly [number, number, number];

/** The two text colours an override is written in: whichever stands out more from its background. */
export const DARK_TEXT = '#000000';
export const LIGHT_TEXT = '#ffffff';

/**
 * The background an override is painted: its own colour when the browser reads it as one (the
 * service checks its shape, not that it names a colour), else the default alarm red.
 */
export function overrideBackground(color: string | null): string {
  return color !== null && CSS.supports('color', color) ? color : OVERRIDE_DEFAULT_BACKGROUND;
}

let canvas: CanvasRenderingContext2D | null | undefined;

/**
 * The colour as it shows on the screen, in sRGB: painted over black, as the face is, so a
 * translucent colour counts as the darker one it looks. Any CSS colour (a name, hsl(), #rgba),
 * read back through a 1 x 1 canvas, which parses them as the page does.
 */
export function paintedRgb(color: string): Rgb {
  canvas ??= Object.assign(document.createElement('canvas'), { width: 1, height: 1 }).getContext('2d', {
    willReadFrequently: true,
  });
  if (!canvas) return [0, 0, 0];
  canvas.globalCompositeOperation = 'copy';
  canvas.fillStyle = '#000';
  canvas.fillRect(0, 0, 1, 1);
  canvas.globalCompositeOperation = 'source-over';
  canvas.fillStyle = color;
  canvas.fillRect(0, 0, 1, 1);
  const [r = 0, g = 0, b = 0] = canvas.getImageData(0, 0, 1, 1).data;
  return [r, g, b];
}

/** WCAG 2's relative luminance of an sRGB colour, 0 (black) to 1 (white). */
export function luminance([r, g, b]: Rgb): number {
  const linear = (channel: number) => {
    const c = channel / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/** WCAG 2's contrast ratio of two luminances, 1 to 21. */
export function contrastRatio(a: number, b: number): number {
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}

/**
 * Black or white text, whichever has the higher contrast with the background: an operator picks
 * the colour in an emergency, and the message must be read from across a room whatever it is.
 */
export function readableText(background: Rgb): string {
  const light = luminance(background);
  return contrastRatio(light, 1) >= contrastRatio(light, 0) ? LIGHT_TEXT : DARK_TEXT;
}
