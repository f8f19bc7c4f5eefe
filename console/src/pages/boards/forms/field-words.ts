/**
 * The words of a data form: each field's label and help in plain language, by its path in the
 * data (`range[].color`) or else by its key wherever it appears. The schemas name fields as the
 * API does (`value_type`, `x_labels`); an operator reads these instead. A field without words
 * here is labelled from its key ("value_2_label" reads "Value 2 label").
 */
export interface FieldWords {
  label: string;
  help?: string;
  /** The two parts of a pair (`[lat, lon]`). */
  parts?: [string, string];
}

type Words = Partial<FieldWords> & { label?: string };

const BY_KEY: Record<string, Words> = {
  title: { label: 'Title', help: 'Drawn above the widget; empty for none' },
  expires_at: { label: 'Stale after', help: 'After this moment the data shows as out of date' },
  opacity: { label: 'Opacity', help: 'From 0 (invisible) to 1 (solid)' },
  priority: { label: 'Priority', help: 'A whole number; higher draws attention first' },
  icon: { label: 'Icon', help: 'Drawn beside the title' },
  link: { label: 'Link', help: 'A web address the widget opens when clicked' },
  value: { label: 'Value', help: 'A number, or a short text such as "42 open tickets"' },
  label: { label: 'Label' },
  color: { label: 'Colour' },
  label_color: { label: 'Label colour' },
  value_type: { label: 'Unit or format', help: 'How numbers are written: percent, currency, bytes, ...' },
  abbreviate: { label: 'Abbreviate large numbers', help: '1,200,000 as 1.2M' },
  rounding: { label: 'Decimals', help: 'Digits after the decimal point' },
  delta: { label: 'Change', help: 'How much the value moved since last time' },
  delta_type: { label: 'How the change reads' },
  sparkline: { label: 'Recent values', help: 'Numbers separated by commas, drawn as a small line' },
  min: { label: 'Minimum' },
  max: { label: 'Maximum' },
  values: { label: 'Values' },
  labels: { label: 'Labels' },
  colors: { label: 'Colours' },
  messages: { label: 'Messages' },
  text: { label: 'Text' },
  timestamp: { label: 'When' },
  alignment: { label: 'Alignment' },
  url: { label: 'Web address' },
  mode: { label: 'How it fits' },
  time: { label: 'Counts down to' },
  message: { label: 'Message once it is over' },
  x_labels: { label: 'Labels along the bottom' },
  x_label: { label: 'Label of the horizontal axis' },
  y_label: { label: 'Label of the vertical axis' },
  series: { label: 'Series', help: 'One line (or set of bars) each' },
  renderer: { label: 'Drawn as' },
  headers: { label: 'Column headers' },
  cells: { label: 'Rows' },
  statuses: { label: 'Statuses' },
  up: { label: 'Up', help: 'The names of what is up' },
  down: { label: 'Down', help: 'The names of what is down' },
  uptime: { label: 'Uptime' },
  last_down: { label: 'Last down' },
  heading: { label: 'Heading (degrees)', help: '0 is north, 90 east' },
  timezone: { label: 'Time zone', help: 'Such as Europe/Paris; empty for the screen’s own' },
  style: { label: 'Style' },
  latitude: { label: 'Latitude' },
  longitude: { label: 'Longitude' },
  location: { label: 'Place' },
  unit: { label: 'Unit' },
  temperature: { label: 'Temperature' },
  condition: { label: 'Weather' },
  is_day: { label: 'Daytime' },
  updated_at: { label: 'Measured at', help: 'A date and time such as 2026-11-23T08:00:00Z' },
  fill: { label: 'Fill', help: 'From 0 (empty) to 1 (full)' },
  fill_color: { label: 'Fill colour' },
  bg_color: { label: 'Background colour' },
  gauge_color: { label: 'Dial colour' },
  value_color: { label: 'Value colour' },
  value_2: { label: 'Second value' },
  value_2_color: { label: 'Second value’s colour' },
  value_2_label: { label: 'Second value’s label' },
  range: { label: 'Coloured ranges' },
  from: { label: 'From' },
  to: { label: 'To' },
  marker: { label: 'Target' },
  thresholds: { label: 'Range limits', help: 'Numbers separated by commas' },
  interval: { label: 'One point every' },
  interval_count: { label: 'Points per interval' },
  baseline: { label: 'Baseline' },
  name: { label: 'Name' },
  start_time: { label: 'Starts at' },
  end_time: { label: 'Ends at' },
  poster: { label: 'Picture before it plays' },
  muted: { label: 'Muted' },
};

const BY_PATH: Record<string, Words> = {
  'bars[]': { label: 'Bar' },
  'range[]': { label: 'Range' },
  'series[]': { label: 'Series' },
  'series[].values': { label: 'Values', help: 'Numbers separated by commas' },
  'values[]': { label: 'Item' },
  'messages[]': { label: 'Message' },
  'cells[]': { label: 'Row' },
  'cells[][]': { label: 'Cell' },
  'data[]': { label: 'Row' },
  'data[][]': { label: 'Cell' },
  'x_labels[]': { label: 'Label' },
  'labels[]': { label: 'Label' },
  'headers[]': { label: 'Header' },
  'colors[]': { label: 'Colour' },
  'up[]': { label: 'Name' },
  'down[]': { label: 'Name' },
  'statuses[]': { label: 'Status' },
  'icons[]': { label: 'Icon' },
  'icons[].type': { label: 'Icon' },
  'gauges[]': { label: 'Gauge' },
  'bulletcharts[]': { label: 'Bullet chart' },
  'servers[]': { label: 'Server' },
  'days[]': { label: 'Day' },
  'days[].date': { label: 'Date' },
  'markers[]': { label: 'Marker' },
  'circles[]': { label: 'Circle' },
  'circles[].radius': { label: 'Radius (metres)' },
  'polygons[]': { label: 'Polygon' },
  'polylines[]': { label: 'Line' },
  'series_metadata[]': { label: 'Series' },
  series_metadata: { label: 'How each series looks' },
  coords: { label: 'Centre of the map' },
  'coords.lat': { label: 'Latitude' },
  'coords.lon': { label: 'Longitude' },
  'coords.zoom': { label: 'Zoom', help: 'From 0 (the world) to 22 (a building)' },
  'markers[].lat': { label: 'Latitude' },
  'markers[].lon': { label: 'Longitude' },
  'circles[].lat': { label: 'Latitude' },
  'circles[].lon': { label: 'Longitude' },
  'polygons[].points': { label: 'Points' },
  'polylines[].points': { label: 'Points' },
  'polygons[].points[]': { label: 'Point', parts: ['Latitude', 'Longitude'] },
  'polylines[].points[]': { label: 'Point', parts: ['Latitude', 'Longitude'] },
  'series[].values[]': { label: 'Point', parts: ['Time (unix seconds)', 'Value'] },
  'bulletcharts[].colors': { label: 'Range colours' },
  'servers[].values': { label: 'Values', help: 'Numbers separated by commas' },
};

/** Where the words of a scatter plot's points differ from a time chart's: by variant-free path. */
const POINT_PARTS: [string, string] = ['X', 'Y'];

/** "value_2_label" reads "Value 2 label". */
const fromKey = (key: string) => {
  const words = key.replace(/_/g, ' ').trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : 'Item';
};

export function fieldWords(path: string, key: string): FieldWords {
  const words = BY_PATH[path] ?? (key ? BY_KEY[key] : undefined) ?? {};
  const parts = words.parts ?? (path === 'values[]' ? POINT_PARTS : undefined);
  return {
    label: words.label ?? fromKey(key),
    ...(words.help === undefined ? {} : { help: words.help }),
    ...(parts ? { parts } : {}),
  };
}
