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

/** Variants that need the internet (map tiles, weather feeds) or foreign code: shown as unavailable offline. */
export const OFFLINE_UNAVAILABLE_VARIANTS: readonly Variant[] = ['map', 'weather', 'custom'];
