import type { Variant } from '../variants';

/**
 * Variant data as the original product's clients put it on the wire (docs/compatibility.md),
 * written for these tests from reading each client: the Go library's structs as Go's JSON encoder
 * writes them (zero values of fields without `omitempty` included, empty lists as `null`), the
 * Ruby gem's flow classes with their defaults, the PHP client's objects with every unset
 * property as `null`. `ours` is what the data means in our shape (a subset of it).
 */
export interface OriginalVariantData {
  client: 'go' | 'ruby' | 'php';
  variant: Variant;
  sent: Record<string, unknown>;
  ours: Record<string, unknown>;
}

const T = 1_700_000_000;
const PIXEL =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
/** More stops than a list of ours held before: that board's bus map has 1573 circles. */
const STOPS = Array.from({ length: 1600 }, (_, i) => ({ lat: 43.6 + i / 10_000, lon: -79.4 }));

export const ORIGINAL_VARIANT_DATA: readonly OriginalVariantData[] = [
  // The Go library.
  { client: 'go', variant: 'barchart', sent: { bars: null }, ours: { bars: [] } },
  {
    client: 'go',
    variant: 'barchart',
    sent: { title: 'Sales', bars: [{ label: 'EU', value: 3 }] },
    ours: { bars: [{ label: 'EU', value: 3 }] },
  },
  { client: 'go', variant: 'value', sent: { label: 'CPU', value: 0 }, ours: { value: 0 } },
  { client: 'go', variant: 'gauge', sent: { value: 70, range: 3 }, ours: { value: 70 } },
  {
    client: 'go',
    variant: 'graph',
    sent: { series: [{ values: [1, 2] }] },
    ours: { series: [{ values: [1, 2] }] },
  },
  { client: 'go', variant: 'piechart', sent: { labels: null, values: [1, 2] }, ours: { values: [1, 2] } },
  {
    client: 'go',
    variant: 'icon',
    sent: { icons: [{ color: '', label: 'Bugs', type: 'fa-bug' }] },
    ours: { icons: [{ label: 'Bugs', type: 'fa-bug' }] },
  },
  {
    client: 'go',
    variant: 'table',
    sent: { cells: [[{ value: 'web-1' }, {}]] },
    ours: { cells: [[{ value: 'web-1' }, { value: null }]] },
  },
  {
    client: 'go',
    variant: 'upstatus',
    sent: { up: ['api'], uptime: 99.9 },
    ours: { up: ['api'], down: [] },
  },
  {
    client: 'go',
    variant: 'timeseries',
    sent: { interval: '', interval_count: 0, series_metadata: null, values: [1, 2, 3] },
    ours: { values: [[1, 2, 3]] },
  },
  {
    client: 'go',
    variant: 'timeseries',
    sent: {
      interval: 'minutes',
      interval_count: 5,
      series_metadata: [{ aggregation: 'avg', interpolate: true }],
      values: [4, 5],
    },
    ours: {
      values: [[4, 5]],
      interval: 'minutes',
      series_metadata: [{ aggregation: 'avg', interpolate: 'linear' }],
    },
  },
  {
    client: 'go',
    variant: 'scatterplot',
    sent: { values: [3, 1, 4] },
    ours: {
      values: [
        [0, 3],
        [1, 1],
        [2, 4],
      ],
    },
  },
  {
    client: 'go',
    variant: 'map',
    sent: {
      coords: { lat: 48.85, lon: 2.35, zoom: 0 },
      markers: [{ color: '', coords: { lat: 48.86, lon: 2.34 }, icon: '', label: 'HQ' }],
      circles: [
        { center: { lat: 48.8, lon: 2.3 }, label: '', line_width: 0, radius: 500, stroke_color: '#ff0000' },
      ],
      polygons: [
        {
          fill_color: 'teal',
          label: 'Zone',
          line_width: 2,
          stroke_color: '',
          vertices: [
            { lat: 48.8, lon: 2.3 },
            { lat: 48.9, lon: 2.4 },
            { lat: 48.8, lon: 2.4 },
          ],
        },
      ],
      polylines: [
        {
          label: '',
          line_width: 1,
          stroke_color: 'navy',
          vertices: [
            { lat: 1, lon: 2 },
            { lat: 3, lon: 4 },
          ],
        },
      ],
    },
    ours: {
      coords: { lat: 48.85, lon: 2.35, zoom: 0 },
      markers: [{ lat: 48.86, lon: 2.34, label: 'HQ' }],
      circles: [{ lat: 48.8, lon: 2.3, radius: 500, color: '#ff0000' }],
      polygons: [
        {
          points: [
            [48.8, 2.3],
            [48.9, 2.4],
            [48.8, 2.4],
          ],
          color: 'teal',
          label: 'Zone',
        },
      ],
      polylines: [
        {
          points: [
            [1, 2],
            [3, 4],
          ],
          color: 'navy',
        },
      ],
    },
  },
  {
    client: 'go',
    variant: 'log',
    sent: { messages: [{ text: 'deployed', timestamp: T }] },
    ours: { messages: [{ text: 'deployed', timestamp: T }] },
  },
  {
    client: 'go',
    variant: 'timeline',
    sent: { messages: [{ from: '', text: 'build passed', timestamp: 0 }] },
    ours: { messages: [{ text: 'build passed' }] },
  },
  { client: 'go', variant: 'countdown', sent: { message: '', time: T }, ours: { time: T } },
  {
    client: 'go',
    variant: 'grid',
    sent: {
      data: [
        [
          { fill: 1, label: '' },
          { fill: 50, label: 'half' },
        ],
      ],
    },
    ours: { data: [[{ fill: 1 }, { fill: 0.5, label: 'half' }]] },
  },
  {
    client: 'go',
    variant: 'waterfall',
    sent: {
      title: 'Steps',
      data: [
        { serial: 2, values: [10, -3, 5] },
        { serial: 1, values: [1, 2] },
      ],
    },
    ours: { values: [{ value: 10 }, { value: -3 }, { value: 5 }] },
  },
  { client: 'go', variant: 'histogram', sent: { title: 'Latency' }, ours: { values: [] } },
  // The image and the map of the Go library's own example board (boardrestore/board.json).
  { client: 'go', variant: 'image', sent: { url: PIXEL }, ours: { url: PIXEL } },
  {
    client: 'go',
    variant: 'map',
    sent: {
      coords: { lat: 43.65, lon: -79.38, zoom: 12 },
      circles: STOPS.map((center) => ({ center, radius: 20 })),
    },
    ours: { circles: STOPS.map((center) => ({ ...center, radius: 20 })) },
  },

  // The Ruby gem (`tag` is taken out before sending).
  { client: 'ruby', variant: 'value', sent: { value: 3434, abbreviate: true }, ours: { value: 3434 } },
  {
    client: 'ruby',
    variant: 'table',
    sent: { cells: [], table: [['web-1', 0.5]], headers: ['Host', 'Load'], colors: [] },
    ours: { headers: ['Host', 'Load'], cells: [[{ value: 'web-1' }, { value: 0.5 }]] },
  },
  {
    client: 'ruby',
    variant: 'timechart',
    sent: {
      values: [
        [T, 3],
        [T + 60, 4],
      ],
      type: 'minutes',
    },
    ours: {
      series: [
        {
          values: [
            [T, 3],
            [T + 60, 4],
          ],
        },
      ],
    },
  },
  {
    client: 'ruby',
    variant: 'map',
    sent: { coordinates: { lat: 51.5, lon: -0.12, zoom: 9 } },
    ours: { coords: { lat: 51.5, lon: -0.12, zoom: 9 } },
  },
  { client: 'ruby', variant: 'upstatus', sent: { up: [], down: ['db'] }, ours: { up: [], down: ['db'] } },
  {
    client: 'ruby',
    variant: 'waterfall',
    sent: { serial: 1, values: [10, -3] },
    ours: { values: [{ value: 10 }, { value: -3 }] },
  },
  {
    client: 'ruby',
    variant: 'timeseries',
    sent: { values: [1, null, 3], interval: 'minutes', interval_count: 5, timestamp: T },
    ours: { values: [[1, null, 3]] },
  },

  // The PHP client (every property, unset ones as `null`).
  {
    client: 'php',
    variant: 'value',
    sent: { value: 19.99, color: '#CCCCCC', delta: 1.2, value_type: 'dollar', delta_type: 'absolute' },
    ours: { value: 19.99, delta_type: 'absolute' },
  },
  {
    client: 'php',
    variant: 'gauge',
    sent: {
      value: 78,
      value_color: '#00FF00',
      max: null,
      range: null,
      value_2: null,
      value_2_color: null,
      value_2_label: null,
      label: 'Awesome',
    },
    ours: { value: 78 },
  },
  {
    client: 'php',
    variant: 'graph',
    sent: {
      renderer: 'line',
      series: [{ values: [1, 2, 3], color: '#FF0000', x_labels: [], label: null }],
      min_scale: null,
      unstack: null,
      stoke: null,
      title: null,
    },
    ours: { series: [{ values: [1, 2, 3], color: '#FF0000' }] },
  },
  {
    client: 'php',
    variant: 'servers',
    sent: { servers: [{ label: 'Mac Pro', cpu: 79, mem: 91, disk: 24 }] },
    ours: { servers: [{ name: 'Mac Pro', values: [79, 91, 24], labels: ['CPU', 'Memory', 'Disk'] }] },
  },
  {
    client: 'php',
    variant: 'table',
    sent: {
      colors: ['#FF0000', '#00FF00'],
      headers: [],
      table: [['Test', 'Test']],
      header: ['Name', 'Value'],
    },
    ours: {
      headers: ['Name', 'Value'],
      cells: [
        [
          { value: 'Test', color: '#FF0000' },
          { value: 'Test', color: '#00FF00' },
        ],
      ],
    },
  },
  {
    client: 'php',
    variant: 'timeseries',
    sent: { value: 42, type: 'hour', label: 'Bars', color: null, smoothing: null, value_type: null },
    ours: { values: [[42]], interval: 'minutes', series_metadata: [{ label: 'Bars' }] },
  },
  {
    client: 'php',
    variant: 'log',
    sent: { messages: [{ timestamp: T, text: 'Test Test tesT', color: null }] },
    ours: { messages: [{ timestamp: T, text: 'Test Test tesT' }] },
  },
  {
    client: 'php',
    variant: 'icon',
    sent: { icons: [{ type: 'icon-barcode', label: 'Scans', color: '#FF1100' }] },
    ours: { icons: [{ type: 'icon-barcode' }] },
  },
  {
    client: 'php',
    variant: 'upstatus',
    sent: { up: ['api.google.com'], down: [], uptime: 99.98 },
    ours: { uptime: 99.98 },
  },
];
