import type { Variant } from './variants';

/**
 * The original product's clients (docs/compatibility.md) send variant data in forms older or
 * looser than ours: `null` for a field they do not set, `""` for a colour they do not set, an
 * empty list as `null` (Go), and whole shapes that changed since (a table's `table` rows, a
 * map's `vertices`, PHP's servers). `fromOriginalShapes` gives the same data in our shape.
 * parseMetrics applies it before its check, so the service stores what a client sent (and
 * answers it back unchanged) while everything that draws or checks data reads our shape.
 * What no rule here recognises is left as it is, for the check to refuse by name.
 */

type Json = Record<string, unknown>;

/** Keys for which `""` means "not set": colours, icons, links and enumerated choices. */
const UNSET_WHEN_EMPTY = new Set([
  'icon',
  'link',
  'icon_url',
  'renderer',
  'alignment',
  'mode',
  'layout',
  'delta_type',
  'interval',
  'sort',
  'style',
  'timezone',
  'type',
  'poster',
]);

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const isNumber = (value: unknown): value is number => typeof value === 'number';

/**
 * `value` without the object fields a client left unset: `null` anywhere, `""` where an empty
 * string is no value. Nulls inside arrays stay (a time series' gaps).
 */
function withoutUnset(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutUnset);
  if (!isObject(value)) return value;
  const kept = Object.entries(value).flatMap(([key, field]): [string, unknown][] => {
    if (field === null || field === undefined) return [];
    if (field === '' && (UNSET_WHEN_EMPTY.has(key) || key.endsWith('color'))) return [];
    return [[key, withoutUnset(field)]];
  });
  return Object.fromEntries(kept);
}

const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** Each object in the list `value` through `change`; anything else as it was. */
const eachObject = (value: unknown, change: (item: Json) => unknown) =>
  Array.isArray(value) ? value.map((item) => (isObject(item) ? change(item) : item)) : value;

/** `{lat, lon}` as our `[lat, lon]` point, or the value as it was. */
function point(value: unknown): unknown {
  return isObject(value) && 'lat' in value && 'lon' in value ? [value.lat, value.lon] : value;
}

/**
 * A map shape in our form: its place from the object under `at` (a marker's `coords`, a
 * circle's `center`), its points from `vertices`, its `color` from the first of `colors` (the
 * original's fill and stroke colours) it has. Fields we do not draw (line widths) stay.
 */
function mapShape(shape: Json, at: string | null, ...colors: string[]): Json {
  const out: Json = { ...shape };
  const where = at === null ? undefined : shape[at];
  if (isObject(where)) Object.assign(out, { lat: where.lat, lon: where.lon });
  if (out.points === undefined && Array.isArray(shape.vertices)) out.points = shape.vertices.map(point);
  const color = colors.map((key) => shape[key]).find((c) => c !== undefined);
  if (out.color === undefined && color !== undefined) out.color = color;
  return out;
}

/** The Ruby gem's map centre as `coordinates`, and the Go library's shapes. */
function map(data: Json): Json {
  const out: Json = { ...data };
  if (out.coords === undefined && data.coordinates !== undefined) out.coords = data.coordinates;
  const shapes = (key: string, at: string | null, ...colors: string[]) => {
    if (data[key] !== undefined) out[key] = eachObject(data[key], (shape) => mapShape(shape, at, ...colors));
  };
  shapes('markers', 'coords');
  shapes('circles', 'center', 'fill_color', 'stroke_color');
  shapes('polygons', null, 'fill_color', 'stroke_color');
  shapes('polylines', null, 'stroke_color');
  return out;
}

/** Rows of plain values (`table`, PHP's `header` and per-column `colors`) as our `cells`. */
function tableCells(data: Json): Json {
  const out: Json = { ...data };
  if (list(data.headers).length === 0 && Array.isArray(data.header)) out.headers = data.header;
  const rows = list(data.cells).length === 0 && list(data.table).length > 0 ? list(data.table) : data.cells;
  const colors = list(data.colors);
  if (Array.isArray(rows))
    out.cells = rows.map((row) =>
      Array.isArray(row)
        ? row.map((cell, column) => {
            // A cell the client left empty is an empty cell.
            const base: Json = isObject(cell) ? cell : { value: cell };
            const color = colors[column];
            const colored = typeof color === 'string' && base.color === undefined ? { color } : {};
            return { ...colored, ...base, value: base.value ?? null };
          })
        : row,
    );
  return out;
}

/** The window PHP's time series `type` names, as the interval of its points. */
const PHP_WINDOWS: Json = { hour: 'minutes', day: 'hours', month: 'days' };

/** PHP's time series of one `value` per `type` ("hour": the last 60 minutes), and Go's one flat series. */
function timeseries(data: Json): Json {
  const out: Json = { ...data };
  if (out.values === undefined && isNumber(data.value)) {
    const { value, type, label, color, value_type } = data;
    out.values = [[value]];
    if (typeof type === 'string' && out.interval === undefined) out.interval = PHP_WINDOWS[type] ?? type;
    if (out.series_metadata === undefined) out.series_metadata = [withoutUnset({ label, color, value_type })];
  }
  if (Array.isArray(out.values) && out.values.some((v) => v === null || isNumber(v)))
    out.values = [out.values];
  if (out.interval_count === 0) delete out.interval_count;
  if (out.baseline !== undefined && !isNumber(out.baseline)) delete out.baseline;
  if (Array.isArray(out.series_metadata))
    out.series_metadata = out.series_metadata.map((meta) => {
      if (!isObject(meta) || typeof meta.interpolate !== 'boolean') return meta;
      const { interpolate, ...rest } = meta;
      return interpolate ? { ...rest, interpolate: 'linear' } : rest;
    });
  return out;
}

/** PHP's servers as `{label, cpu, mem, disk}`. */
function server(entry: Json): Json {
  if (entry.name !== undefined || typeof entry.label !== 'string') return entry;
  const { label, cpu, mem, disk, ...rest } = entry;
  const figures = (
    [
      ['CPU', cpu],
      ['Memory', mem],
      ['Disk', disk],
    ] as const
  ).filter(([, v]) => isNumber(v));
  return { name: label, values: figures.map(([, v]) => v), labels: figures.map(([name]) => name), ...rest };
}

/** Go's grid `fill` is a whole number: above 1, a percentage. */
const gridCell = (cell: Json): Json =>
  isNumber(cell.fill) && cell.fill > 1 && cell.fill <= 100 ? { ...cell, fill: cell.fill / 100 } : cell;

/** Flat numbers as points `[index, value]` (Go's scatterplot), pairs as they are. */
const indexed = (values: unknown) =>
  Array.isArray(values) && values.every(isNumber) ? values.map((v, i) => [i, v]) : values;

const UPGRADES: Partial<Record<Variant, (data: Json) => Json>> = {
  grid: (data) => ({
    ...data,
    data: Array.isArray(data.data) ? data.data.map((row) => eachObject(row, gridCell)) : data.data,
  }),
  /** Go's gauge `range` is a number, not the coloured bands we draw. */
  gauge: (data) => {
    if (!isNumber(data.range)) return data;
    const { range: _, ...rest } = data;
    return rest;
  },
  map,
  table: tableCells,
  timeseries,
  scatterplot: (data) => ({ ...data, values: indexed(data.values) }),
  /** The Ruby gem's `{values: [[t, v]], type}`: one series. */
  timechart: (data) =>
    data.series === undefined && Array.isArray(data.values)
      ? { ...data, series: [{ values: data.values }] }
      : data,
  servers: (data) => ({ ...data, servers: eachObject(data.servers, server) }),
  /** Go leaves both lists out when they are empty. */
  upstatus: (data) => ({ ...data, up: data.up ?? [], down: data.down ?? [] }),
  /**
   * The Ruby gem's waterfall of plain numbers, and the Go library's rows of numbers by `serial`,
   * the newest (highest serial) drawn as the steps.
   */
  waterfall: (data) => {
    const rows = list(data.data).filter(isObject);
    const newest = rows.reduce<Json | undefined>(
      (top, row) => (top === undefined || Number(row.serial) > Number(top.serial) ? row : top),
      undefined,
    );
    const values = data.values ?? newest?.values;
    return {
      ...data,
      values: Array.isArray(values) ? values.map((v) => (isNumber(v) ? { value: v } : v)) : values,
    };
  },
  /** The Go library's histogram has no field for its values: an empty histogram. */
  histogram: (data) => ({ ...data, values: data.values ?? [] }),
};

/**
 * `data` in our shape: `requiredLists` (the variant's lists that must be there) sent as `null`
 * become empty, other unset fields go, and older shapes become ours. A custom widget's data is
 * its code's own: it is left alone.
 */
export function fromOriginalShapes(variant: Variant, data: Json, requiredLists: readonly string[]): Json {
  if (variant === 'custom') return data;
  const lists = Object.fromEntries(requiredLists.filter((key) => data[key] === null).map((key) => [key, []]));
  const set = { ...(withoutUnset(data) as Json), ...lists };
  return UPGRADES[variant]?.(set) ?? set;
}
