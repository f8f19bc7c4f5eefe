// The reference boards of e2e/board-render.spec.ts: fixed data only. Every time in here is an
// offset from FROZEN_AT, the instant the tests freeze the page's clock at, so nothing drawn
// depends on when the tests run.
import { boardCreateSchema } from '../src/shared/board';
import type { BoardExport } from '../src/shared/board-export';
import type { PlayerState } from '../src/shared/bridge';
import type { ThemeName } from '../src/shared/theme';

/** 2025-01-15T12:00:00Z in unix seconds: the page's frozen "now". */
export const FROZEN_AT = 1_736_942_400;
export const FROZEN_AT_ISO = '2025-01-15T12:00:00.000Z';

type Widget = BoardExport['widgets'][number];
type Placement = Pick<Widget, 'variant' | 'column' | 'row' | 'width' | 'height'>;

function widget(
  tag: string,
  placement: Placement,
  data: Record<string, unknown>,
  extra: { errored?: boolean; background?: Widget['background'] } = {},
): Omit<Widget, 'in_board_index'> {
  return {
    flow: { tag, data, errored: extra.errored ?? false },
    background: extra.background ?? 'default',
    ...placement,
  };
}

const at = (variant: Widget['variant'], column: number, row: number, width: number, height: number) => ({
  variant,
  column,
  row,
  width,
  height,
});

/** Remote media the agent has cached: a small inline SVG stands in for the cached file. */
export const CACHED_IMAGE_URL = 'https://media.example.com/logo.png';
const CACHED_IMAGE = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" width="160" height="90" viewBox="0 0 160 90">' +
    '<rect width="160" height="90" rx="8" fill="#2f81f7"/>' +
    '<circle cx="45" cy="45" r="25" fill="#ffffff"/>' +
    '<rect x="85" y="30" width="55" height="30" fill="#3fb950"/></svg>',
)}`;

/**
 * Web content the tests answer themselves (page.route, on loopback): a page that lets itself be
 * framed, and map tiles on the page's own origin, as the web player serves them from its cache.
 */
export const STATUS_PAGE_URL = 'http://127.0.0.1:9/status.html';
export const TILE_PATH = '/tiles/';
const WEB = {
  tiles: { url: `${TILE_PATH}{z}/{x}/{y}`, attribution: '© Test tiles', max_zoom: 18 },
  custom_network: false,
};

/** Tags the tests look for. */
export const TAGS = {
  revenue: 'revenue',
  stale: 'queue-depth-stale',
  errored: 'traffic-errored',
  empty: 'orders-empty',
  invalid: 'disk-invalid',
  map: 'fleet-map',
} as const;

/**
 * 32 x 20 cells (the original HD templates), native 1920 x 1080: cells are 60 x 54 px. Bands of
 * four rows, then three, then one; positions count from 0.
 */
const REFERENCE_WIDGETS: Omit<Widget, 'in_board_index'>[] = [
  // Band 1, rows 0-3: numbers.
  widget(TAGS.revenue, at('value', 0, 0, 4, 4), {
    title: 'Revenue',
    icon: 'fa-sack-dollar',
    value: 1_234_567,
    value_type: 'currency',
    abbreviate: true,
    rounding: 1,
    label: 'this month',
    delta: 12.5,
    sparkline: [3, 5, 4, 6, 8, 7, 9, 12, 10, 14],
  }),
  widget(TAGS.stale, at('value', 4, 0, 4, 4), {
    title: 'Queue depth',
    value: 42,
    label: 'jobs waiting',
    delta: -3,
    delta_type: 'inverse',
    expires_at: FROZEN_AT - 3600,
  }),
  widget('health', at('multivalue', 8, 0, 6, 4), {
    title: 'Health',
    expires_at: FROZEN_AT + 86_400,
    values: [
      { label: 'Uptime', value: 99.95, value_type: 'percent', rounding: 2, color: '#3fb950' },
      { label: 'Build time', value: 5400, value_type: 'duration' },
      { label: 'Users', value: 48_213, abbreviate: true, icon: 'fa-user' },
      { label: 'Status', value: 'OK', label_color: '#d29922' },
    ],
  }),
  widget('cpu-gauge', at('gauge', 14, 0, 4, 4), {
    title: 'CPU',
    value: 72,
    min: 0,
    max: 100,
    value_type: 'percent',
    range: [
      { from: 0, to: 60, color: '#3fb950' },
      { from: 60, to: 85, color: '#d29922' },
      { from: 85, to: 100, color: '#f85149' },
    ],
    value_2: 64,
    value_2_label: 'avg',
  }),
  widget('disks', at('multigauge', 18, 0, 6, 4), {
    title: 'Disks',
    layout: 'horizontal',
    gauges: [
      { label: 'sda', value: 81, max: 100, value_type: 'percent', icon: 'fa-hard-drive' },
      { label: 'sdb', value: 35, max: 100, value_type: 'percent' },
      { label: 'nfs', value: 12, max: 100, value_type: 'percent' },
    ],
  }),
  widget('targets', at('bulletchart', 24, 0, 8, 4), {
    title: 'Targets',
    bulletcharts: [
      { label: 'Sales', value: 270, max: 300, marker: 250, thresholds: [150, 225], value_type: 'currency' },
      { label: 'Signups', value: 82, max: 100, marker: 90 },
      { label: 'NPS', value: 41, max: 100, marker: 50, colors: ['#f85149', '#d29922', '#3fb950'] },
    ],
  }),

  // Band 2, rows 4-7: time charts.
  widget(
    TAGS.errored,
    at('graph', 0, 4, 8, 4),
    {
      title: 'Traffic',
      icon: 'fa-chart-line',
      renderer: 'area',
      x_labels: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'],
      series: [
        { label: 'Visits', values: [1200, 1500, 900, 2000, 2400, 1800, 1300], color: '#ff8800' },
        { label: 'Signups', values: [300, 400, 350, 500, 650, 420, 380] },
      ],
    },
    { errored: true },
  ),
  widget('load', at('timeseries', 8, 4, 8, 4), {
    title: 'Load',
    interval: 'hours',
    interval_count: 1,
    values: [
      [22, 25, 31, 28, null, 35, 41, 38, 44, 40, 36, 33],
      [10, 12, 11, 14, 15, 13, 18, 17, 16, 19, 21, 20],
    ],
    series_metadata: [
      { label: 'CPU', color: '#2f81f7', value_type: 'percent' },
      { label: 'IO wait', value_type: 'percent' },
    ],
    baseline: 30,
  }),
  widget('requests', at('timechart', 16, 4, 8, 4), {
    title: 'Requests',
    series: [
      {
        label: 'OK',
        color: 'teal',
        values: [0, 1, 2, 3, 4, 5, 6].map((i) => [FROZEN_AT - 3600 + i * 600, 1500 + ((i * 373) % 900)]),
      },
      {
        label: 'Errors',
        values: [0, 1, 2, 3, 4, 5, 6].map((i) => [FROZEN_AT - 3600 + i * 600, 100 + ((i * 97) % 200)]),
      },
    ],
  }),
  widget('regions', at('barchart', 24, 4, 4, 4), {
    title: 'Regions',
    bars: [
      { label: 'North', value: 1200, color: '#f85149' },
      { label: 'South', value: 4500 },
      { label: 'East', value: 3000 },
      { label: 'West', value: 2100 },
    ],
    sort: 'desc',
  }),
  widget('browsers', at('piechart', 28, 4, 4, 4), {
    title: 'Browsers',
    values: [50, 30, 20],
    labels: ['Chrome', 'Firefox', 'Safari'],
  }),

  // Band 3, rows 8-11: other charts and a table.
  widget('funnel', at('funnelchart', 0, 8, 5, 4), {
    title: 'Funnel',
    values: [
      { label: 'Visits', value: 12_000 },
      { label: 'Carts', value: 3000 },
      { label: 'Orders', value: 900, color: '#3fb950' },
    ],
  }),
  widget('cash', at('waterfall', 5, 8, 5, 4), {
    title: 'Cash flow',
    values: [
      { label: 'Start', value: 1000 },
      { label: 'Sales', value: 500 },
      { label: 'Costs', value: -300 },
      { label: 'Tax', value: -100 },
    ],
  }),
  widget('latency', at('histogram', 10, 8, 5, 4), {
    title: 'Latency',
    values: [1, 2, 2, 3, 3, 3, 4, 4, 5, 7, 10],
    x_label: 'ms',
    y_label: 'requests',
  }),
  widget('size-vs-time', at('scatterplot', 15, 8, 5, 4), {
    title: 'Size vs time',
    values: [
      [1, 10],
      [2, 25],
      [3, 40],
      [4, 38],
      [5, 60],
      [6, 52],
    ],
    x_label: 'MB',
    y_label: 's',
  }),
  widget('services', at('table', 20, 8, 8, 4), {
    title: 'Services',
    headers: ['Service', 'Uptime', 'Revenue', 'Trend'],
    cells: [
      [
        { value: 'api', icon: 'fa-server' },
        { value: 99.5, value_type: 'percent' },
        { value: 1234.5, value_type: 'currency', alignment: 'right' },
        { value: null, sparkline: [1, 3, 2, 5, 4] },
      ],
      [
        { value: 'web', color: '#f85149' },
        { value: 97.1, value_type: 'percent' },
        { value: 880, value_type: 'currency', alignment: 'right' },
        { value: null, sparkline: [5, 4, 4, 2, 1] },
      ],
      [{ value: 'mail' }, { value: 100, value_type: 'percent' }, { value: null }, { value: null }],
    ],
  }),
  widget('wind', at('compass', 28, 8, 4, 4), { title: 'Wind', heading: 225, label: 'SW 12 kn' }),

  // Band 4, rows 12-15: text and lists.
  widget('notice', at('text', 0, 12, 4, 4), {
    title: 'Notice',
    text: 'Maintenance window on Saturday from 02:00 to 04:00 UTC. Deploys are frozen.',
    alignment: 'center',
  }),
  widget('deploys', at('log', 4, 12, 6, 4), {
    title: 'Deploys',
    messages: [
      { text: 'api v2.14.0 rolled out', timestamp: FROZEN_AT - 300, color: '#3fb950' },
      { text: 'web v8.3.1 rolled back', timestamp: FROZEN_AT - 2400, color: '#f85149' },
      { text: 'worker v1.9.2 rolled out', timestamp: FROZEN_AT - 7200 },
      { text: 'db migration 0042 applied', timestamp: FROZEN_AT - 90_000 },
    ],
  }),
  widget('chat', at('timeline', 10, 12, 6, 4), {
    title: 'Team',
    messages: [
      { from: 'Ada', text: 'Release notes are up', timestamp: FROZEN_AT - 120 },
      { from: 'Linus', text: 'Reviewing the storage patch', timestamp: FROZEN_AT - 3700 },
      { text: 'Nightly build passed', timestamp: FROZEN_AT - 20_000 },
    ],
  }),
  widget('checks', at('status', 16, 12, 4, 4), {
    title: 'Checks',
    statuses: [
      { label: 'DNS', color: '#3fb950' },
      { label: 'TLS', color: '#3fb950' },
      { label: 'SMTP', color: '#d29922' },
      { label: 'VPN', color: '#f85149' },
    ],
  }),
  widget('uptime', at('upstatus', 20, 12, 4, 4), {
    title: 'Hosts',
    up: ['web-1', 'web-2', 'db-1', 'cache-1'],
    down: ['mail-1'],
    uptime: 99.5,
    last_down: FROZEN_AT - 720,
  }),
  widget('alerts', at('icon', 24, 12, 4, 4), {
    title: 'Alerts',
    icons: [
      { type: 'fa-bug', label: 'Bugs', color: '#f85149' },
      { type: 'fa-fire', label: 'Incidents', color: '#d29922' },
      { type: 'fa-check', label: 'Healthy', color: '#3fb950' },
    ],
  }),
  widget('racks', at('grid', 28, 12, 4, 4), {
    title: 'Racks',
    data: [
      [
        { label: 'A1', fill: 0.8, fill_color: '#d29922' },
        { label: 'A2', fill: 0.3 },
      ],
      [
        { label: 'B1', fill: 1, fill_color: '#f85149' },
        { label: 'B2', fill: 0 },
      ],
    ],
  }),

  // Band 5, rows 16-18: the clock, media and the states.
  widget('utc-clock', at('clock', 0, 16, 4, 3), { title: 'UTC', timezone: 'UTC' }),
  widget('tokyo-clock', at('clock', 4, 16, 3, 3), { style: 'analog', timezone: 'Asia/Tokyo' }),
  widget('launch', at('countdown', 7, 16, 4, 3), {
    title: 'Launch',
    time: FROZEN_AT + 2 * 3600 + 5 * 60 + 30,
    message: 'Launched!',
  }),
  widget('cluster', at('servers', 11, 16, 5, 3), {
    title: 'Cluster',
    servers: [
      { name: 'node-1', values: [35, 52, 20], labels: ['cpu', 'mem', 'disk'] },
      { name: 'node-2', values: [88, 61, 45], labels: ['cpu', 'mem', 'disk'] },
      { name: 'node-3', values: [12, 97, 70], labels: ['cpu', 'mem', 'disk'] },
    ],
    orange: 70,
    red: 90,
  }),
  widget('logo', at('image', 16, 16, 3, 3), { url: CACHED_IMAGE_URL, mode: 'fit' }),
  widget('promo', at('video', 19, 16, 3, 3), {
    title: 'Promo',
    mp4: 'https://media.example.com/promo.mp4',
  }),
  widget('docs-page', at('iframe', 22, 16, 3, 3), { title: 'Docs', url: STATUS_PAGE_URL }),
  widget(TAGS.map, at('map', 25, 16, 3, 3), {
    title: 'Fleet',
    coords: { lat: 52.37, lon: 4.89, zoom: 10 },
    markers: [{ lat: 52.37, lon: 4.89, label: 'HQ' }],
    circles: [{ lat: 52.33, lon: 4.95, radius: 3000, color: '#d29922' }],
  }),
  widget(TAGS.empty, at('value', 28, 16, 2, 3), {}),
  widget(TAGS.invalid, at('gauge', 30, 16, 2, 3), { title: 'Disk', value: 'full' }),

  // Band 6, row 19: the ticker and a box.
  widget('news', at('tickertape', 0, 19, 26, 1), {
    messages: ['Deploy freeze from Saturday 02:00 UTC', 'New office opens on Monday', 'Coffee machine fixed'],
  }),
  widget('note-box', at('box', 26, 19, 6, 1), { title: 'Floor 3 · Ops' }, { background: 'none' }),
];

function playerState(board: BoardExport, media: Record<string, string> = {}): PlayerState {
  return {
    device: { tag: 'lobby-screen', name: 'Lobby' },
    online: true,
    stale: false,
    last_sync: FROZEN_AT_ISO,
    playlist: {
      id: 'reference-playlist',
      name: 'Reference',
      items: [{ type: 'board', board_id: 'reference-board', channel_id: null, duration: 30 }],
      updated_at: FROZEN_AT_ISO,
    },
    boards: { 'reference-board': board },
    media,
    web: WEB,
  };
}

/** The documented defaults of every board field but name and theme. */
const { name: _name, theme: _theme, ...BOARD_DEFAULTS } = boardCreateSchema.parse({ name: 'defaults' });

/**
 * The reference board: 36 widgets of 32 variants (weather and custom are on the settings board)
 * and every widget state; board settings at their defaults. Its iframe and map load what the
 * tests serve on loopback (STATUS_PAGE_URL, TILE_PATH).
 */
export function referenceBoard(theme: ThemeName): BoardExport {
  return {
    ...BOARD_DEFAULTS,
    size: [...BOARD_DEFAULTS.size],
    channel_ids: [],
    name: 'Operations',
    theme,
    widgets: REFERENCE_WIDGETS.map((w, index) => ({ ...w, in_board_index: index })),
  };
}

export function referenceState(theme: ThemeName): PlayerState {
  return playerState(referenceBoard(theme), { [CACHED_IMAGE_URL]: CACHED_IMAGE });
}

/**
 * A small board with the settings the reference board leaves at their defaults: the name bar,
 * large fonts, a background and title colour, widget colour, other margins and padding, a grid
 * whose cells are not whole pixels, and a 4:3 native size (pillarboxed on a 16:9 screen).
 */
export function settingsBoard(): BoardExport {
  return {
    ...BOARD_DEFAULTS,
    channel_ids: [],
    name: 'Settings board',
    theme: 'light',
    columns: 7,
    rows: 5,
    size: [1600, 1200],
    aspect_ratio: '4:3',
    display_board_name: true,
    widget_margins: 6,
    widget_padding: 14,
    font_size: 'large',
    font_family: 'DejaVu Serif',
    widget_title_size: 'large',
    background_color: '#dde6f0',
    widget_color: '#fdfdf7',
    widget_title_color: '#8250df',
    widgets: [
      widget('big-number', at('value', 0, 0, 3, 2), { title: 'Visitors', value: 5321, label: 'today' }),
      widget(
        'bare-text',
        at('text', 3, 0, 4, 2),
        { title: 'Transparent', text: 'No background' },
        {
          background: 'none',
        },
      ),
      widget('weather-here', at('weather', 0, 2, 2, 3), {
        title: 'Weather',
        location: 'Amsterdam',
        temperature: 7.4,
        condition: 'partly-cloudy',
        is_day: true,
        days: [
          { date: '2025-01-16', condition: 'rain', min: 1.9, max: 6.5 },
          { date: '2025-01-17', condition: 'cloudy', min: 0.4, max: 5.2 },
          { date: '2025-01-18', condition: 'snow', min: -3.2, max: 1.4 },
        ],
        updated_at: new Date((FROZEN_AT - 300) * 1000).toISOString(),
      }),
      {
        ...widget('foreign', at('custom', 2, 2, 2, 3), { title: 'Custom', waiting: 42 }),
        code: {
          html: '<p>Waiting: <b id="count"></b></p>',
          css: 'p{margin:0;font:28px "DejaVu Serif",serif;color:#1f2328}b{color:#8250df}',
          script:
            "wallboard.onData((data) => { document.getElementById('count').textContent = data.waiting; });",
        },
      },
      widget('coloured', at('multivalue', 4, 2, 3, 3), {
        title: 'Colours',
        values: [
          { label: 'Red', value: 1, color: '#cf222e' },
          { label: 'Green', value: 2, color: '#1a7f37' },
        ],
      }),
    ].map((w, index) => ({ ...w, in_board_index: index })),
  };
}

export function settingsState(): PlayerState {
  return playerState(settingsBoard());
}
