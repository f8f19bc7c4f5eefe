import { z } from 'zod';

/** Every widget variant of the original product. */
export const VARIANTS = [
  'barchart',
  'box',
  'bulletchart',
  'clock',
  'compass',
  'countdown',
  'custom',
  'funnelchart',
  'gauge',
  'graph',
  'grid',
  'histogram',
  'icon',
  'iframe',
  'image',
  'log',
  'map',
  'multigauge',
  'multivalue',
  'piechart',
  'scatterplot',
  'servers',
  'status',
  'table',
  'text',
  'tickertape',
  'timechart',
  'timeline',
  'timeseries',
  'upstatus',
  'value',
  'video',
  'waterfall',
  'weather',
] as const;

export const variantSchema = z.enum(VARIANTS, { error: 'must be a known widget variant' });
export type Variant = z.infer<typeof variantSchema>;

/**
 * Variants that show content from the web (docs/api/web-content.md): pages, map tiles, weather
 * forecasts, custom code. They need the network, of the screen or of the service.
 */
export const WEB_VARIANTS: readonly Variant[] = ['iframe', 'map', 'weather', 'custom'];
