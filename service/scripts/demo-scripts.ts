import type { Variant } from '../../src/shared/variants';

/** One widget of the demo board and, unless it needs no data, the script that feeds its flow. */
export interface DemoWidget {
  tag: string;
  variant: Variant;
  column: number;
  row: number;
  width: number;
  height: number;
  /** Metrics it starts with (the scripts run at once and replace them). */
  data?: Record<string, unknown>;
  script?: { name: string; interval: string; code: string };
}

// Each run starts from nothing: scripts that walk from their last value read it from `previous`.
const VISITORS = `
const last = typeof previous.value === 'number' ? previous.value : 1200;
const value = Math.max(0, Math.round(last + (Math.random() - 0.5) * 120));
const sparkline = (Array.isArray(previous.sparkline) ? previous.sparkline : []).concat(value).slice(-30);
return { title: 'Visitors online', value, delta: value - last, sparkline, label: 'right now' };`;

const CPU = `
const last = typeof previous.value === 'number' ? previous.value : 40;
const value = Math.round(Math.min(100, Math.max(0, last + (Math.random() - 0.5) * 16)));
return {
  title: 'CPU load', value, min: 0, max: 100, value_type: 'percent',
  range: [
    { from: 0, to: 60, color: '#2ecc71' },
    { from: 60, to: 85, color: '#f1c40f' },
    { from: 85, to: 100, color: '#e74c3c' },
  ],
};`;

const TRAFFIC = `
const now = Math.floor(Date.now() / 1000);
const points = 30;
const step = 60;
const wave = (phase, scale, base) =>
  Array.from({ length: points }, (_, i) => {
    const t = now - (points - 1 - i) * step;
    return Math.round(base + scale * Math.sin(t / 600 + phase) + scale * 0.3 * Math.sin(t / 97 + phase * 2));
  });
return {
  title: 'Requests per minute', renderer: 'line', start_time: now - (points - 1) * step, end_time: now,
  series: [
    { label: 'web', values: wave(0, 120, 400), color: '#3498db' },
    { label: 'api', values: wave(2, 80, 250), color: '#e67e22' },
  ],
};`;

const SALES = `
const old = Array.isArray(previous.bars) ? previous.bars : [];
const bars = ['North', 'South', 'East', 'West', 'Online'].map((label, i) => {
  const last = old[i] && typeof old[i].value === 'number' ? old[i].value : 50 + i * 10;
  return { label, value: Math.max(5, Math.round(last + (Math.random() - 0.5) * 20)) };
});
return { title: 'Sales by region', bars };`;

const BROWSERS = `
const labels = ['Chrome', 'Firefox', 'Safari', 'Edge', 'Other'];
const values = [62, 8, 18, 7, 5].map((share) => Math.max(1, Math.round(share * (0.85 + Math.random() * 0.3))));
return { title: 'Browsers', labels, values, colors: ['#4285f4', '#ff7139', '#1abc9c', '#0078d7', '#95a5a6'] };`;

const KPIS = `
const between = (min, max) => Math.round(min + Math.random() * (max - min));
return {
  title: 'Today',
  values: [
    { label: 'Orders', value: between(300, 420) },
    { label: 'Revenue', value: between(18000, 26000), abbreviate: true },
    { label: 'Refunds', value: between(2, 12), color: '#e74c3c' },
    { label: 'NPS', value: between(40, 60) },
  ],
};`;

const DEPLOYS = `
const minute = Math.floor(Date.now() / 60000);
const cells = ['api', 'web', 'worker', 'billing', 'search'].map((name, i) => {
  const roll = (minute + i * 7) % 11;
  const state = roll === 0 ? ['failed', '#e74c3c'] : roll < 3 ? ['deploying', '#f1c40f'] : ['ok', '#2ecc71'];
  return [
    { value: name },
    { value: 'v1.' + ((minute + i * 13) % 40) },
    { value: state[0], color: state[1] },
    { value: Math.round(40 + Math.random() * 260) + ' ms', alignment: 'right' },
  ];
});
return { title: 'Deployments', headers: ['Service', 'Version', 'State', 'p95'], cells };`;

const EVENTS = `
const samples = [
  ['User signed up', '#2ecc71'], ['Payment received', '#3498db'], ['Cache cleared', '#95a5a6'],
  ['Slow query on orders', '#f1c40f'], ['Login failed', '#e74c3c'], ['Report exported', '#9b59b6'],
];
const [text, color] = samples[Math.floor(Math.random() * samples.length)];
const old = Array.isArray(previous.messages) ? previous.messages : [];
const messages = [{ text, color, timestamp: Math.floor(Date.now() / 1000) }].concat(old).slice(0, 15);
return { title: 'Events', messages };`;

const SERVERS = `
const servers = ['web-1', 'web-2', 'db-1', 'cache-1', 'queue-1'].map((name) => ({
  name,
  labels: ['cpu', 'mem', 'disk'],
  values: [Math.round(Math.random() * 100), Math.round(30 + Math.random() * 60), Math.round(40 + Math.random() * 40)],
}));
return { title: 'Servers', servers, orange: 70, red: 90 };`;

const FUNNEL = `
let value = 10000 + Math.round(Math.random() * 2000);
const values = ['Visits', 'Sign-ups', 'Trials', 'Customers'].map((label, i) => {
  if (i > 0) value = Math.round(value * (0.3 + Math.random() * 0.3));
  return { label, value };
});
return { title: 'Conversion', values };`;

const TARGETS = `
const between = (min, max) => Math.round(min + Math.random() * (max - min));
return {
  title: 'Targets',
  bulletcharts: [
    { label: 'Revenue', value: between(60, 95), max: 100, marker: 80, thresholds: [50, 75, 100] },
    { label: 'Sign-ups', value: between(40, 90), max: 100, marker: 70, thresholds: [50, 75, 100] },
    { label: 'Uptime', value: between(95, 100), max: 100, marker: 99, thresholds: [90, 99, 100] },
  ],
};`;

const SYSTEMS = `
const statuses = ['API', 'Web', 'Mail', 'Backups'].map((label) => {
  const roll = Math.random();
  return { label, color: roll < 0.08 ? '#e74c3c' : roll < 0.2 ? '#f1c40f' : '#2ecc71' };
});
return { title: 'Systems', statuses };`;

const TICKER = `
const time = new Date().toISOString().slice(11, 16) + ' UTC';
return {
  messages: [
    'It is ' + time,
    'Every widget on this board is fed by a script running in the service',
    'Orders today: ' + (300 + Math.round(Math.random() * 100)),
    'Next deploy window: 16:00 UTC',
  ],
};`;

const COUNTDOWN = `
const quarter = 15 * 60;
const now = Math.floor(Date.now() / 1000);
return { title: 'Next sync', time: (Math.floor(now / quarter) + 1) * quarter, message: 'Data sync' };`;

const WELCOME = `
const hour = new Date().getUTCHours();
const greeting = hour < 12 ? 'Good morning' : hour < 18 ? 'Good afternoon' : 'Good evening';
return { text: greeting + '! This is a demo board: scripts in the service feed every widget.', alignment: 'center' };`;

/** Posts to the default channel; the note changes every two minutes. */
export const ANNOUNCER = {
  name: 'Demo: announcements',
  interval: '2m',
  code: `
const { post } = require('wallboard/notifications');
const notes = [
  ['Deploy finished', 'api v1.42 is live', 'rocket'],
  ['Coffee is ready', 'Fresh pot in the kitchen', 'mug-hot'],
  ['Stand-up in 5 minutes', 'Room Orion', 'users'],
  ['Backup complete', 'All databases saved', 'database'],
];
const [title, message, icon] = notes[Math.floor(Date.now() / 120000) % notes.length];
await post('default', '', title, message, '10s', icon);
console.log('posted: ' + title);`,
};

const fed = (name: string, interval: string, code: string) => ({ name: `Demo: ${name}`, interval, code });

/** A 32 x 20 layout, row by row; every row fills the 32 columns. */
export const DEMO_WIDGETS: readonly DemoWidget[] = [
  { tag: 'demo-clock', variant: 'clock', column: 0, row: 0, width: 6, height: 5, data: { style: 'digital' } },
  {
    tag: 'demo-visitors',
    variant: 'value',
    column: 6,
    row: 0,
    width: 5,
    height: 5,
    script: fed('visitors', '5s', VISITORS),
  },
  {
    tag: 'demo-cpu',
    variant: 'gauge',
    column: 11,
    row: 0,
    width: 5,
    height: 5,
    script: fed('CPU load', '5s', CPU),
  },
  {
    tag: 'demo-kpis',
    variant: 'multivalue',
    column: 16,
    row: 0,
    width: 8,
    height: 5,
    script: fed('KPIs', '10s', KPIS),
  },
  {
    tag: 'demo-countdown',
    variant: 'countdown',
    column: 24,
    row: 0,
    width: 8,
    height: 5,
    script: fed('countdown', '30s', COUNTDOWN),
  },
  {
    tag: 'demo-traffic',
    variant: 'graph',
    column: 0,
    row: 5,
    width: 12,
    height: 7,
    script: fed('traffic', '10s', TRAFFIC),
  },
  {
    tag: 'demo-sales',
    variant: 'barchart',
    column: 12,
    row: 5,
    width: 7,
    height: 7,
    script: fed('sales', '15s', SALES),
  },
  {
    tag: 'demo-browsers',
    variant: 'piechart',
    column: 19,
    row: 5,
    width: 6,
    height: 7,
    script: fed('browsers', '30s', BROWSERS),
  },
  {
    tag: 'demo-systems',
    variant: 'status',
    column: 25,
    row: 5,
    width: 7,
    height: 3,
    script: fed('systems', '20s', SYSTEMS),
  },
  {
    tag: 'demo-targets',
    variant: 'bulletchart',
    column: 25,
    row: 8,
    width: 7,
    height: 4,
    script: fed('targets', '15s', TARGETS),
  },
  {
    tag: 'demo-deploys',
    variant: 'table',
    column: 0,
    row: 12,
    width: 10,
    height: 6,
    script: fed('deployments', '20s', DEPLOYS),
  },
  {
    tag: 'demo-events',
    variant: 'log',
    column: 10,
    row: 12,
    width: 8,
    height: 6,
    script: fed('events', '5s', EVENTS),
  },
  {
    tag: 'demo-servers',
    variant: 'servers',
    column: 18,
    row: 12,
    width: 7,
    height: 6,
    script: fed('servers', '10s', SERVERS),
  },
  {
    tag: 'demo-funnel',
    variant: 'funnelchart',
    column: 25,
    row: 12,
    width: 7,
    height: 6,
    script: fed('funnel', '30s', FUNNEL),
  },
  {
    tag: 'demo-ticker',
    variant: 'tickertape',
    column: 0,
    row: 18,
    width: 22,
    height: 2,
    script: fed('ticker', '30s', TICKER),
  },
  {
    tag: 'demo-welcome',
    variant: 'text',
    column: 22,
    row: 18,
    width: 10,
    height: 2,
    script: fed('welcome', '30s', WELCOME),
  },
];
