// The board of bench/renderer: 100 widgets mixing every variant the player draws, on a 40 x 20
// grid (10 x 10 widgets of 4 x 2 cells at 1920 x 1080), and for each widget a pool of metric
// payloads that differ from one another so every update really redraws its widget.
import { boardCreateSchema } from '../src/shared/board';
import type { BoardExport } from '../src/shared/board-export';
import type { PlayerState } from '../src/shared/bridge';
import type { Variant } from '../src/shared/variants';

export const WIDGET_COUNT = 100;
/** Distinct payloads per widget; updates cycle through them. */
export const PAYLOADS_PER_WIDGET = 16;

const COLUMNS = 10;
const SPAN = { width: 4, height: 2 };

/** Every variant: 34 kinds, cycled over 100 widgets. */
const MIX: Variant[] = [
  'value',
  'graph',
  'gauge',
  'table',
  'timeseries',
  'multivalue',
  'barchart',
  'log',
  'timechart',
  'multigauge',
  'piechart',
  'text',
  'bulletchart',
  'funnelchart',
  'status',
  'histogram',
  'waterfall',
  'upstatus',
  'scatterplot',
  'servers',
  'timeline',
  'compass',
  'grid',
  'countdown',
  'icon',
  'clock',
  'tickertape',
  'image',
  'video',
  'iframe',
  'box',
  'map',
  'weather',
  'custom',
];

/** A custom widget's code: it draws the flow's value on every update, as users' widgets do. */
const CUSTOM_CODE = {
  html: '<p><span id="title"></span>: <b id="value"></b></p>',
  css: 'p{margin:0;font:20px sans-serif;color:#e6edf3}b{color:#3fb950}',
  script:
    "wallboard.onData((data) => { document.getElementById('title').textContent = data.title; document.getElementById('value').textContent = data.value; });",
};

/** Map tiles as the web player's agent serves them from its tile cache. */
const TILE_PATH = '/tiles/';

/** A repeatable wobble in 0..1 for widget `i`, payload `seq` and point `k`. */
function wave(i: number, seq: number, k = 0): number {
  return (Math.sin(i * 1.7 + seq * 0.9 + k * 0.45) + 1) / 2;
}

const range = (n: number) => Array.from({ length: n }, (_, k) => k);
const COLORS = ['#3fb950', '#d29922', '#f85149', '#2f81f7'];

/** The metrics of widget `i` (of `variant`) in its `seq`-th version; `now` is unix seconds. */
function metricsFor(
  variant: Variant,
  i: number,
  seq: number,
  now: number,
  pages: string,
): Record<string, unknown> {
  const title = `${variant} ${i}`;
  const w = (k = 0) => wave(i, seq, k);
  switch (variant) {
    case 'value':
      return {
        title,
        value: Math.round(1000 + w() * 9000),
        delta: Math.round((w(1) - 0.5) * 200),
        abbreviate: true,
        sparkline: range(20).map((k) => Math.round(w(k) * 100)),
      };
    case 'graph':
      return {
        title,
        renderer: i % 2 ? 'line' : 'area',
        series: [0, 1].map((s) => ({
          label: `s${s}`,
          values: range(30).map((k) => Math.round(w(k + s * 7) * 100)),
        })),
      };
    case 'gauge':
      return { title, value: Math.round(w() * 100), value_type: 'percent', value_2: Math.round(w(3) * 100) };
    case 'table':
      return {
        title,
        headers: ['Host', 'CPU', 'Trend'],
        cells: range(4).map((r) => [
          { value: `host-${r}` },
          { value: Math.round(w(r) * 100), value_type: 'percent' },
          { value: null, sparkline: range(8).map((k) => Math.round(w(k + r) * 10)) },
        ]),
      };
    case 'timeseries':
      return {
        title,
        interval: 'minutes',
        values: [0, 1].map((s) => range(30).map((k) => Math.round(w(k + s * 5) * 100))),
        series_metadata: [{ label: 'a' }, { label: 'b' }],
      };
    case 'multivalue':
      return {
        title,
        values: range(3).map((k) => ({ label: `m${k}`, value: Math.round(w(k) * 1000), abbreviate: true })),
      };
    case 'barchart':
      return { title, bars: range(5).map((k) => ({ label: `b${k}`, value: Math.round(w(k) * 100) })) };
    case 'log':
      return {
        title,
        messages: range(8).map((k) => ({
          text: `event ${seq}.${k}`,
          timestamp: now - k * 60,
          color: COLORS[k % 4],
        })),
      };
    case 'timechart':
      return {
        title,
        series: [
          { label: 'rps', values: range(30).map((k) => [now - (29 - k) * 60, Math.round(w(k) * 500)]) },
        ],
      };
    case 'multigauge':
      return {
        title,
        gauges: range(3).map((k) => ({ label: `g${k}`, value: Math.round(w(k) * 100), max: 100 })),
      };
    case 'piechart':
      return { title, values: range(4).map((k) => 1 + Math.round(w(k) * 50)), labels: ['a', 'b', 'c', 'd'] };
    case 'text':
      return { title, text: `Message number ${seq} for widget ${i}: all systems nominal.` };
    case 'bulletchart':
      return {
        title,
        bulletcharts: range(2).map((k) => ({
          label: `k${k}`,
          value: Math.round(w(k) * 100),
          max: 100,
          marker: 80,
        })),
      };
    case 'funnelchart':
    case 'waterfall':
      return {
        title,
        values: range(4).map((k) => ({ label: `v${k}`, value: Math.round(100 + w(k) * 900) })),
      };
    case 'status':
      return { title, statuses: range(4).map((k) => ({ label: `s${k}`, color: COLORS[(seq + k) % 4]! })) };
    case 'histogram':
      return { title, values: range(20).map((k) => Math.round(w(k) * 10)) };
    case 'upstatus':
      return {
        title,
        up: range(5 + (seq % 3)).map((k) => `up-${k}`),
        down: range(seq % 3).map((k) => `down-${k}`),
        uptime: 99 + w(),
      };
    case 'scatterplot':
      return { title, values: range(20).map((k) => [k, Math.round(w(k) * 100)]) };
    case 'servers':
      return {
        title,
        servers: range(3).map((k) => ({
          name: `node-${k}`,
          values: range(3).map((m) => Math.round(w(k + m) * 100)),
        })),
        orange: 70,
        red: 90,
      };
    case 'timeline':
      return {
        title,
        messages: range(3).map((k) => ({
          from: `user${k}`,
          text: `note ${seq}.${k}`,
          timestamp: now - k * 600,
        })),
      };
    case 'compass':
      return { title, heading: Math.round(w() * 359) };
    case 'grid':
      return {
        title,
        data: range(3).map((r) => range(3).map((c) => ({ label: `${r}${c}`, fill: w(r * 3 + c) }))),
      };
    case 'countdown':
      return { title, time: now + 3600 + seq };
    case 'icon':
      return {
        title,
        icons: range(3).map((k) => ({
          type: ['fa-bug', 'fa-fire', 'fa-check'][k]!,
          color: COLORS[(seq + k) % 4],
        })),
      };
    case 'clock':
      return { title: `${title} ${seq}`, timezone: 'UTC' };
    case 'tickertape':
      return { messages: range(3).map((k) => `Headline ${seq}.${k} for widget ${i}`) };
    case 'image':
      return { title, url: `https://media.example.com/${i}-${seq}.png` };
    case 'video':
      return { title, mp4: `https://media.example.com/${i}-${seq}.mp4` };
    case 'iframe':
      // A page's address rarely changes: its title does.
      return { title: `${title} ${seq}`, url: `${pages}/status.html?widget=${i}` };
    case 'box':
      return { title: `${title} ${seq}` };
    case 'weather':
      return {
        title,
        location: `Town ${i}`,
        temperature: Math.round((w() * 40 - 10) * 10) / 10,
        condition: (['clear', 'cloudy', 'rain', 'snow'] as const)[seq % 4],
        is_day: seq % 2 === 0,
        days: range(4).map((k) => ({
          date: new Date((now + (k + 1) * 86_400) * 1000).toISOString().slice(0, 10),
          condition: 'partly-cloudy',
          min: Math.round(w(k) * 10),
          max: Math.round(10 + w(k + 1) * 10),
        })),
        updated_at: new Date(now * 1000).toISOString(),
      };
    case 'custom':
      return { title, value: Math.round(w() * 1000) };
    default:
      // A fleet map: the view stays, the vehicles move.
      return {
        title,
        coords: { lat: 52.5, lon: 4.5, zoom: 9 },
        markers: range(3).map((k) => ({ lat: 52 + w(k), lon: 4 + w(k + 1), label: `m${k}` })),
        circles: [{ lat: 52.5, lon: 4.5, radius: 5000 + w(2) * 5000 }],
      };
  }
}

function tagOf(i: number): string {
  return `bench-${String(i).padStart(3, '0')}`;
}

export interface BenchBoard {
  state: PlayerState;
  /** JSON text of the metric payloads to send, by flow tag, as they would arrive over a socket. */
  payloads: { tag: string; json: string[] }[];
}

/**
 * The board and its payloads; `pages` is the origin of the pages its iframes frame (a server with
 * a frameable `/status.html`, such as e2e/web-stand-ins.ts).
 */
export function benchBoard(pages = 'http://127.0.0.1:9', now = Math.floor(Date.now() / 1000)): BenchBoard {
  const widgets: BoardExport['widgets'] = range(WIDGET_COUNT).map((i) => {
    const variant = MIX[i % MIX.length]!;
    return {
      flow: { tag: tagOf(i), data: metricsFor(variant, i, 0, now, pages), errored: false },
      variant,
      column: (i % COLUMNS) * SPAN.width,
      row: Math.floor(i / COLUMNS) * SPAN.height,
      width: SPAN.width,
      height: SPAN.height,
      in_board_index: i,
      background: 'default',
      ...(variant === 'custom' ? { code: CUSTOM_CODE } : {}),
    };
  });
  const board: BoardExport = {
    ...boardCreateSchema.parse({
      name: 'Bench',
      columns: COLUMNS * SPAN.width,
      rows: (WIDGET_COUNT / COLUMNS) * SPAN.height,
    }),
    widgets,
  };
  const state: PlayerState = {
    device: { tag: 'bench-screen', name: 'Bench' },
    online: true,
    stale: false,
    last_sync: new Date(now * 1000).toISOString(),
    playlist: {
      id: 'bench-playlist',
      name: 'Bench',
      items: [{ type: 'board', board_id: 'bench-board', channel_id: null, duration: 30 }],
      updated_at: new Date(now * 1000).toISOString(),
    },
    boards: { 'bench-board': board },
    media: {},
    web: {
      tiles: { url: `${TILE_PATH}{z}/{x}/{y}`, attribution: '© Bench tiles', max_zoom: 18 },
      custom_network: false,
    },
  };
  const payloads = widgets.map((widget, i) => ({
    tag: widget.flow.tag,
    json: range(PAYLOADS_PER_WIDGET).map((seq) =>
      JSON.stringify(metricsFor(widget.variant, i, seq + 1, now, pages)),
    ),
  }));
  return { state, payloads };
}
