import { z } from 'zod';
import { colorSchema, iconNameSchema, timestampSchema, webUrlSchema } from './common';
import { storableJson, UNIX_SECONDS_MAX } from './limits';
import { imageUrlSchema, mediaUrlSchema } from './media';
import { fromOriginalShapes } from './original-shapes';
import type { Variant } from './variants';
import { weatherConditionSchema } from './web-content';

/**
 * Metrics as stored and sent: any JSON object that can be stored (limits.ts: no NUL, no lone
 * surrogate, nesting limited); `{}` means the flow has no data yet.
 */
export const metricsDataSchema = storableJson(
  z.record(z.string(), z.unknown(), { error: 'must be a JSON object' }),
);
export type MetricsData = z.infer<typeof metricsDataSchema>;

const text = z.string().max(1000, 'must be at most 1000 characters');
const label = z.string().max(255, 'must be at most 255 characters');
const valueType = z.string().max(32);
const numbers = z.array(z.number()).max(10000, 'must hold at most 10000 numbers');
const unixSeconds = z
  .number()
  .nonnegative('must be unix seconds')
  .max(UNIX_SECONDS_MAX, `must be unix seconds, at most ${UNIX_SECONDS_MAX} (9999-12-31)`);
const list = <T extends z.ZodType>(item: T) => z.array(item).max(1000, 'must hold at most 1000 items');

/** Fields every variant accepts (the original product's common fields). */
const common = {
  title: label.optional(),
  /** Unix seconds; after it the data shows as stale. */
  expires_at: unixSeconds.optional(),
  opacity: z.number().min(0).max(1).optional(),
  priority: z.int().optional(),
  icon: iconNameSchema.optional(),
  link: webUrlSchema.optional(),
};

/** Unknown fields pass through: the original product had more than we render. */
const metrics = <S extends z.ZodRawShape>(shape: S) => z.looseObject({ ...common, ...shape });

const numberFormat = {
  value_type: valueType.optional(),
  abbreviate: z.boolean().optional(),
  rounding: z.int().min(0).max(10).optional(),
};

const labelledValue = z.looseObject({
  label: label.optional(),
  value: z.number(),
  color: colorSchema.optional(),
});

const latitude = z.number().min(-90).max(90);
const longitude = z.number().min(-180).max(180);
/** A map shape's points, each `[lat, lon]`. */
const path = z
  .array(z.tuple([latitude, longitude], { error: 'must be a [lat, lon] pair' }))
  .min(2, 'must hold at least 2 points')
  .max(1000, 'must hold at most 1000 points');
const shapeLook = { label: label.optional(), color: colorSchema.optional() };
/** A map's shapes: a city's bus stops run to thousands (the original's own example has 1573). */
const shapes = <T extends z.ZodType>(item: T) => z.array(item).max(10000, 'must hold at most 10000 items');

const value = metrics({
  value: z.union([z.number(), z.string().max(255)]),
  label: label.optional(),
  color: colorSchema.optional(),
  label_color: colorSchema.optional(),
  delta: z.number().optional(),
  /**
   * Which way is good (`inverse`: down, for costs and errors), or, as the original product had
   * it, how the delta is shown: `percent` or `absolute` (in the value's unit); up is good.
   */
  delta_type: z.enum(['normal', 'inverse', 'percent', 'absolute']).optional(),
  sparkline: numbers.optional(),
  ...numberFormat,
});

const gauge = metrics({
  value: z.number(),
  min: z.number().optional(),
  max: z.number().optional(),
  value_type: valueType.optional(),
  value_color: colorSchema.optional(),
  gauge_color: colorSchema.optional(),
  range: list(z.looseObject({ from: z.number(), to: z.number(), color: colorSchema })).optional(),
  value_2: z.number().optional(),
  value_2_color: colorSchema.optional(),
  value_2_label: label.optional(),
});

const graph = metrics({
  series: list(z.looseObject({ values: numbers, label: label.optional(), color: colorSchema.optional() })),
  renderer: z.enum(['line', 'area', 'bar', 'stack', 'scatterplot']).optional(),
  x_labels: list(label).optional(),
  min_scale: z.number().optional(),
  unstack: z.boolean().optional(),
  start_time: unixSeconds.optional(),
  end_time: unixSeconds.optional(),
  baseline: z.number().optional(),
  value_type: valueType.optional(),
});

const point = z.tuple([z.number(), z.number()]);

const schemas = {
  value,
  gauge,
  graph,
  barchart: metrics({
    bars: list(labelledValue),
    min: z.number().optional(),
    max: z.number().optional(),
    sort: z.union([z.boolean(), z.enum(['asc', 'desc'])]).optional(),
  }),
  piechart: metrics({
    values: numbers,
    labels: list(label).optional(),
    colors: list(colorSchema).optional(),
  }),
  multivalue: metrics({
    values: list(
      z.looseObject({
        label: label.optional(),
        value: z.union([z.number(), z.string().max(255)]),
        color: colorSchema.optional(),
        label_color: colorSchema.optional(),
        icon: iconNameSchema.optional(),
        ...numberFormat,
      }),
    ),
  }),
  multigauge: metrics({
    gauges: list(
      z.looseObject({
        label: label.optional(),
        value: z.number(),
        max: z.number().optional(),
        value_type: valueType.optional(),
        icon: iconNameSchema.optional(),
      }),
    ),
    gauge_color: colorSchema.optional(),
    layout: z.enum(['horizontal', 'vertical', 'grid']).optional(),
  }),
  table: metrics({
    headers: list(label).optional(),
    cells: list(
      list(
        z.looseObject({
          value: z.union([z.number(), z.string().max(1000), z.null()]),
          color: colorSchema.optional(),
          alignment: z.enum(['left', 'center', 'right']).optional(),
          icon: iconNameSchema.optional(),
          value_type: valueType.optional(),
          sparkline: numbers.optional(),
        }),
      ),
    ),
  }),
  text: metrics({ text: z.string().max(10000), alignment: z.enum(['left', 'center', 'right']).optional() }),
  image: metrics({ url: imageUrlSchema, mode: z.enum(['fit', 'fill', 'stretch', 'center']).optional() }),
  video: metrics({
    mp4: mediaUrlSchema.optional(),
    webm: mediaUrlSchema.optional(),
    ogg: mediaUrlSchema.optional(),
    poster: mediaUrlSchema.optional(),
    mode: z.enum(['fit', 'fill', 'stretch']).optional(),
    muted: z.boolean().optional(),
  }).refine((v) => v.mp4 ?? v.webm ?? v.ogg, {
    message: 'give at least one of mp4, webm and ogg',
    path: ['mp4'],
  }),
  countdown: metrics({ time: unixSeconds, message: label.optional() }),
  status: metrics({ statuses: list(z.looseObject({ label: label.optional(), color: colorSchema })) }),
  upstatus: metrics({
    up: list(label),
    down: list(label),
    uptime: z.union([z.number(), label]).optional(),
    last_down: z.union([unixSeconds, label]).optional(),
  }),
  tickertape: metrics({ messages: list(text) }),
  log: metrics({
    messages: list(z.looseObject({ text, timestamp: unixSeconds.optional(), color: colorSchema.optional() })),
  }),
  timeline: metrics({
    messages: list(
      z.looseObject({
        from: label.optional(),
        text,
        timestamp: unixSeconds.optional(),
        icon_url: webUrlSchema.optional(),
      }),
    ),
  }),
  icon: metrics({
    icons: list(
      z.looseObject({ type: iconNameSchema, label: label.optional(), color: colorSchema.optional() }),
    ),
  }),
  funnelchart: metrics({ values: list(labelledValue) }),
  waterfall: metrics({ values: list(labelledValue) }),
  bulletchart: metrics({
    bulletcharts: list(
      z.looseObject({
        value: z.number(),
        max: z.number().optional(),
        label: label.optional(),
        marker: z.number().optional(),
        thresholds: numbers.optional(),
        colors: list(colorSchema).optional(),
        value_type: valueType.optional(),
      }),
    ),
  }),
  servers: metrics({
    servers: list(z.looseObject({ name: label, values: numbers, labels: list(label).optional() })),
    orange: z.number().optional(),
    red: z.number().optional(),
  }),
  grid: metrics({
    data: list(
      list(
        z.looseObject({
          label: label.optional(),
          fill: z
            .number()
            .min(0, 'must be 0 to 1 (or a percentage up to 100)')
            .max(1, 'must be 0 to 1 (or a percentage up to 100)')
            .optional(),
          fill_color: colorSchema.optional(),
          bg_color: colorSchema.optional(),
          color: colorSchema.optional(),
        }),
      ),
    ),
  }),
  timeseries: metrics({
    /** One array of numbers (or nulls for gaps) per series. */
    values: list(z.array(z.number().nullable()).max(10000)),
    interval: z.enum(['seconds', 'minutes', 'hours', 'days', 'weeks', 'months']).optional(),
    interval_count: z.int().min(1).optional(),
    series_metadata: list(
      z.looseObject({
        aggregation: z.string().max(32).optional(),
        label: label.optional(),
        color: colorSchema.optional(),
        value_type: valueType.optional(),
        interpolate: z.string().max(32).optional(),
      }),
    ).optional(),
    baseline: z.number().optional(),
  }),
  /** Ours: series of [unix seconds, value] points. */
  timechart: metrics({
    series: list(
      z.looseObject({ values: list(point), label: label.optional(), color: colorSchema.optional() }),
    ),
    value_type: valueType.optional(),
  }),
  histogram: metrics({
    values: numbers,
    colors: list(colorSchema).optional(),
    widths: numbers.optional(),
    x_label: label.optional(),
    y_label: label.optional(),
    cumulative: z.boolean().optional(),
  }),
  scatterplot: metrics({
    values: list(point),
    color: colorSchema.optional(),
    x_label: label.optional(),
    y_label: label.optional(),
  }),
  clock: metrics({
    style: z.enum(['digital', 'analog']).optional(),
    timezone: z.string().max(64).optional(),
  }),
  compass: metrics({ heading: z.number().min(0).max(360), label: label.optional() }),
  iframe: metrics({ url: webUrlSchema }),
  /**
   * With `latitude` and `longitude`, the service fills in the forecast every 10 minutes
   * (docs/api/web-content.md); without them, whoever writes the flow gives the figures.
   */
  weather: metrics({
    location: label,
    latitude: z.number().min(-90).max(90).optional(),
    longitude: z.number().min(-180).max(180).optional(),
    unit: z.enum(['celsius', 'fahrenheit']).optional(),
    temperature: z.number().optional(),
    condition: weatherConditionSchema.optional(),
    is_day: z.boolean().optional(),
    days: z
      .array(
        z.looseObject({
          date: z.iso.date('must be a date as YYYY-MM-DD'),
          condition: weatherConditionSchema.optional(),
          min: z.number().optional(),
          max: z.number().optional(),
        }),
      )
      .max(16, 'must hold at most 16 days')
      .optional(),
    /** When the figures were measured or forecast; older than 30 minutes shows as stale. */
    updated_at: timestampSchema.optional(),
  }),
  map: metrics({
    coords: z.looseObject({
      lat: latitude,
      lon: longitude,
      zoom: z.number().min(0).max(22).optional(),
    }),
    markers: shapes(z.looseObject({ lat: latitude, lon: longitude, ...shapeLook })).optional(),
    /** `radius` in metres. */
    circles: shapes(
      z.looseObject({ lat: latitude, lon: longitude, radius: z.number().positive(), ...shapeLook }),
    ).optional(),
    polygons: shapes(z.looseObject({ points: path, ...shapeLook })).optional(),
    polylines: shapes(z.looseObject({ points: path, ...shapeLook })).optional(),
  }),
  /** A frame with a title only. */
  box: metrics({}),
  /** Anything: the widget's own code (its `code`) draws it. */
  custom: metrics({}),
} satisfies Record<Variant, z.ZodType>;

export const variantMetricsSchemas: Readonly<Record<Variant, z.ZodType<MetricsData>>> = schemas;

export type VariantMetrics = { [V in Variant]: z.infer<(typeof schemas)[V]> };

type MetricsResult<V extends Variant> = z.ZodSafeParseResult<VariantMetrics[V] | Record<string, never>>;

/** Each variant's lists that must be there (a Go client sends them empty as `null`). */
const requiredLists = Object.fromEntries(
  Object.entries(schemas).map(([variant, schema]) => [
    variant,
    Object.entries(schema.shape as z.ZodRawShape)
      .filter(([, field]) => field instanceof z.ZodArray)
      .map(([key]) => key),
  ]),
) as Record<Variant, string[]>;

/**
 * Checks `data` against its variant; `{}` is always fine (no data yet). The storage rules come
 * first, for every variant: the fields a variant does not know are kept, so they are stored too.
 * The original product's clients' forms are read as ours first (original-shapes.ts): what
 * succeeds is the data in our shape.
 */
export function parseMetrics<V extends Variant>(variant: V, data: unknown): MetricsResult<V> {
  if (isEmptyObject(data)) return { success: true, data: {} };
  const storable = metricsDataSchema.safeParse(data);
  if (!storable.success) return { success: false, error: storable.error as z.ZodError<VariantMetrics[V]> };
  const ours = fromOriginalShapes(variant, storable.data, requiredLists[variant]);
  return (schemas[variant] as unknown as z.ZodType<VariantMetrics[V]>).safeParse(ours);
}

function isEmptyObject(data: unknown): data is Record<string, never> {
  return typeof data === 'object' && data !== null && !Array.isArray(data) && Object.keys(data).length === 0;
}
