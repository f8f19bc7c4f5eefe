import { describe, expect, it } from 'vitest';
import { describeIssues } from './issues';
import { parseMetrics, variantMetricsSchemas } from './metrics';
import { VARIANTS, type Variant } from './variants';

/** One good example per variant, shaped after the original product's documentation. */
const GOOD: Record<Variant, Record<string, unknown>> = {
  value: { value: 42.5, label: 'CPU', delta: -3, value_type: 'percent', sparkline: [1, 2, 3], rounding: 1 },
  gauge: { value: 70, min: 0, max: 100, range: [{ from: 80, to: 100, color: 'red' }] },
  graph: {
    series: [{ values: [1, 2, 3], label: 'req/s', color: '#fff' }],
    renderer: 'line',
    x_labels: ['a'],
  },
  barchart: { bars: [{ value: 100, label: 'New Bar', color: '#267288' }], sort: true },
  piechart: { values: [1, 2], labels: ['a', 'b'], colors: ['red', 'blue'] },
  multivalue: { values: [{ label: 'Up', value: 5, abbreviate: true }] },
  multigauge: { gauges: [{ label: 'Disk', value: 50, max: 100 }], layout: 'horizontal' },
  table: { headers: ['Host', 'Load'], cells: [[{ value: 'web-1' }, { value: 0.5, alignment: 'right' }]] },
  text: { text: 'Hello', alignment: 'center' },
  image: { url: 'https://example.com/logo.png', mode: 'fit' },
  video: { mp4: 'https://example.com/v.mp4', muted: true },
  countdown: { time: 1_900_000_000, message: 'Launch' },
  status: { statuses: [{ label: 'API', color: 'green' }] },
  upstatus: { up: ['api'], down: ['db'], uptime: 99.9, last_down: 1_700_000_000 },
  tickertape: { messages: ['One', 'Two'] },
  log: { messages: [{ text: 'started', timestamp: 1_700_000_000, color: 'gray' }] },
  timeline: { messages: [{ from: 'ci', text: 'build passed', timestamp: 1_700_000_000 }] },
  icon: { icons: [{ type: 'fa-bug', label: 'Bugs', color: 'red' }] },
  funnelchart: { values: [{ label: 'Visits', value: 1000 }] },
  waterfall: {
    values: [
      { label: 'Start', value: 10 },
      { label: 'Loss', value: -3 },
    ],
  },
  bulletchart: { bulletcharts: [{ value: 70, max: 100, marker: 80, thresholds: [50, 90] }] },
  servers: { servers: [{ name: 'web-1', values: [10, 20], labels: ['cpu', 'mem'] }], orange: 70, red: 90 },
  grid: { data: [[{ label: 'a', fill: 0.5 }]] },
  timeseries: { values: [[1, null, 3]], interval: 'minutes', interval_count: 5 },
  timechart: { series: [{ values: [[1_700_000_000, 3]], label: 'x' }] },
  histogram: { values: [1, 2, 2, 3], x_label: 'ms', cumulative: false },
  scatterplot: { values: [[1, 2]], x_label: 'x' },
  clock: { style: 'digital', timezone: 'Europe/Paris' },
  compass: { heading: 270, label: 'Wind' },
  iframe: { url: 'https://example.com' },
  weather: { location: 'Paris', temperature: 12 },
  map: { coords: { lat: 48.8, lon: 2.3, zoom: 10 }, markers: [] },
  box: { title: 'Section' },
  custom: { anything: ['goes'] },
};

/** One example per variant that breaks its shape (null: the variant accepts any object). */
const BAD: Record<Variant, Record<string, unknown> | null> = {
  value: { value: [1] },
  gauge: { value: 'high' },
  graph: { series: [{ values: ['x'] }] },
  barchart: { bars: 'none' },
  piechart: { values: 'a' },
  multivalue: { values: [{ label: 'x' }] },
  multigauge: { gauges: [{ value: 'x' }] },
  table: { cells: [{ value: 1 }] },
  text: { text: 5 },
  image: { url: 'javascript:alert(1)' },
  video: { muted: true },
  countdown: { time: 'tomorrow' },
  status: { statuses: [{ label: 'x' }] },
  upstatus: { up: 'api' },
  tickertape: { messages: [1] },
  log: { messages: ['plain'] },
  timeline: { messages: [{ from: 'x' }] },
  icon: { icons: [{ type: 'Not An Icon' }] },
  funnelchart: { values: [1, 2] },
  waterfall: { values: {} },
  bulletchart: { bulletcharts: [{}] },
  servers: { servers: [{ values: [] }] },
  grid: { data: [{ label: 'x' }] },
  timeseries: { values: [[1, 'x']] },
  timechart: { series: [{ values: [1] }] },
  histogram: { values: 'x' },
  scatterplot: { values: [[1]] },
  clock: { style: 'sundial' },
  compass: { heading: 400 },
  iframe: { url: 'file:///etc/passwd' },
  weather: { temperature: 3 },
  map: { coords: { lat: 100, lon: 0 } },
  box: null,
  custom: null,
};

describe('metrics of every variant', () => {
  it('has a schema for each variant', () => {
    expect(Object.keys(variantMetricsSchemas).sort()).toEqual([...VARIANTS].sort());
  });

  it.each(VARIANTS)('%s accepts its documented shape and no data', (variant) => {
    const good = parseMetrics(variant, GOOD[variant]);
    expect(good.success, good.success ? '' : describeIssues(good.error)).toBe(true);
    expect(parseMetrics(variant, {})).toEqual({ success: true, data: {} });
  });

  it.each(VARIANTS)('%s refuses data that breaks its shape, with a readable message', (variant) => {
    const bad = BAD[variant];
    if (bad === null) return;
    const result = parseMetrics(variant, bad);
    expect(result.success).toBe(false);
    if (!result.success) expect(describeIssues(result.error)).toMatch(/\S/);
  });

  it('accepts the common fields on any variant and keeps unknown ones', () => {
    const result = parseMetrics('text', {
      text: 'x',
      title: 'T',
      expires_at: 1_700_000_000,
      opacity: 0.5,
      priority: 2,
      icon: 'fa-clock',
      link: 'https://example.com',
      future_field: 1,
    });
    expect(result.success && result.data).toMatchObject({ future_field: 1, expires_at: 1_700_000_000 });
    expect(parseMetrics('text', { text: 'x', opacity: 2 }).success).toBe(false);
  });

  it('refuses data that is not an object', () => {
    expect(parseMetrics('value', 5).success).toBe(false);
    expect(parseMetrics('value', null).success).toBe(false);
    expect(parseMetrics('value', []).success).toBe(false);
  });
});
