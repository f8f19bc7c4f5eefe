import {
  startHttpFixtures,
  MIME,
  type HttpFixtures,
} from '../service/data-sources/test-servers/http-fixtures';
import { mariadbMissing, startMariadb, type TestMariadb } from '../service/data-sources/test-servers/mariadb';
import {
  prometheusMissing,
  startPrometheus,
  type TestPrometheus,
} from '../service/data-sources/test-servers/prometheus';
import { createTestDatabase, TEST_POSTGRES_URL } from '../service/test-support';
import { expect, test } from './fixtures';
import { Stack } from './stack';

// Data sources end to end (docs/data-sources.md): every kind of source, each a real server on
// loopback (Debian's Prometheus scraping an exporter, PostgreSQL from `npm run test:e2e`'s
// throwaway cluster, a MariaDB server, an HTTP server serving JSON, CSV, RSS and an .ics file),
// feeds a widget of one board that a web player in Chromium draws; then one source fails, its
// widget is marked on the screen and its last data stays, and it recovers.

const missing = [
  prometheusMissing(),
  mariadbMissing(),
  TEST_POSTGRES_URL ? null : 'no PostgreSQL server (npm run test:e2e starts one)',
];

interface Sources {
  http: HttpFixtures;
  prometheus: TestPrometheus;
  mariadb: TestMariadb;
  postgres: { url: string; drop(): Promise<void> };
}

/** An event of the calendar around `now`: the meeting under way. */
function calendar(now: Date): string {
  const stamp = (date: Date) =>
    date
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d+Z$/, 'Z');
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Wallboard e2e//EN',
    'BEGIN:VEVENT',
    'UID:review-1@e2e',
    `DTSTAMP:${stamp(now)}`,
    `DTSTART:${stamp(new Date(now.getTime() - 30 * 60_000))}`,
    `DTEND:${stamp(new Date(now.getTime() + 30 * 60_000))}`,
    'SUMMARY:Quarterly review',
    'LOCATION:Atlas',
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n');
}

const RSS = `<?xml version="1.0"?><rss version="2.0"><channel><title>Company news</title>
<item><title>Canteen opens at 11:30 today</title><link>https://news.example/1</link></item>
<item><title>New parking rules from Monday</title><link>https://news.example/2</link></item>
</channel></rss>`;

async function startSources(): Promise<Sources> {
  const http = await startHttpFixtures();
  http.serve('/tickets.json', { type: MIME.json, body: JSON.stringify({ queue: { open: 42 } }) });
  http.serve('/units.csv', { type: MIME.csv, body: 'shop,units\nNorth,12\nSouth,18\n' });
  http.serve('/news.rss', { type: MIME.rss, body: RSS });
  http.serve('/atlas.ics', { type: MIME.ics, body: calendar(new Date()) });
  const prometheus = await startPrometheus();
  prometheus.set('requests_in_flight', 17, { service: 'api' });
  await prometheus.waitFor('requests_in_flight', (value) => value === 17);
  const mariadb = await startMariadb();
  await mariadb.query(
    "create table sales (region varchar(20), total int); insert into sales values ('North', 1200), ('South', 4500), ('East', 3000);",
  );
  const postgres = await createTestDatabase(TEST_POSTGRES_URL as string);
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: postgres.url });
  await client.connect();
  await client.query(
    "create table rooms (name text, seats int); insert into rooms values ('Atlas', 12), ('Borealis', 6)",
  );
  await client.end();
  return { http, prometheus, mariadb, postgres };
}

/** Each widget of the board: its flow, variant, cells, and where its data comes from. */
function widgets(sources: Sources) {
  const { http } = sources;
  return [
    {
      tag: 'ds-in-flight',
      variant: 'gauge',
      at: [0, 0, 8, 7],
      source: { kind: 'prometheus', url: sources.prometheus.url },
      query: 'requests_in_flight',
      mapping: { value: '[0].value', min: '`0`', max: '`50`', title: "'Requests in flight'" },
      shows: '17',
    },
    {
      tag: 'ds-tickets',
      variant: 'value',
      at: [8, 0, 8, 7],
      source: { kind: 'json', url: `${http.url}/tickets.json` },
      query: 'queue',
      mapping: { value: 'open', title: "'Open tickets'" },
      shows: '42',
    },
    {
      tag: 'ds-units',
      variant: 'value',
      at: [16, 0, 8, 7],
      source: { kind: 'csv', url: `${http.url}/units.csv` },
      query: '',
      mapping: { value: 'sum([].units)', title: "'Units sold'" },
      shows: '30',
    },
    {
      tag: 'ds-room',
      variant: 'text',
      at: [24, 0, 8, 7],
      source: { kind: 'ical', url: `${http.url}/atlas.ics` },
      query: '',
      mapping: { title: "'Atlas now'", text: "now.summary || 'Free'" },
      shows: 'Quarterly review',
    },
    {
      tag: 'ds-in-flight-hour',
      variant: 'timechart',
      at: [0, 7, 16, 10],
      source: { kind: 'prometheus', url: sources.prometheus.url },
      query: 'requests_in_flight',
      range: { seconds: 300, step_seconds: 5 },
      mapping: {
        title: "'In flight, last 5 minutes'",
        series: '[].{label: labels.service, values: zip(times, values)}',
      },
      shows: 'api',
    },
    {
      tag: 'ds-rooms',
      variant: 'table',
      at: [16, 7, 8, 10],
      source: { kind: 'postgres', url: sources.postgres.url, secret: 'any password' },
      query: 'select name, seats from rooms order by name',
      mapping: {
        title: "'Rooms'",
        headers: '`["Room", "Seats"]`',
        cells: '[].[{value: name}, {value: seats}]',
      },
      shows: 'Borealis',
    },
    {
      tag: 'ds-sales',
      variant: 'barchart',
      at: [24, 7, 8, 10],
      source: { kind: 'mysql', url: sources.mariadb.url, secret: sources.mariadb.password },
      query: 'select region, total from sales order by total desc',
      mapping: { title: "'Sales by region'", bars: '[].{label: region, value: total}' },
      shows: 'South',
    },
    {
      tag: 'ds-news',
      variant: 'tickertape',
      at: [0, 17, 32, 3],
      source: { kind: 'rss', url: `${http.url}/news.rss` },
      query: '',
      mapping: { messages: 'items[].title' },
      shows: 'Canteen opens at 11:30 today',
    },
  ] as const;
}

test('every kind of data source feeds a widget a web player draws; a failing one is marked and recovers', async ({
  page,
}, testInfo) => {
  test.skip(missing.some(Boolean), missing.filter(Boolean).join('; '));
  test.setTimeout(180_000);
  const sources = await startSources();
  const stack = await Stack.start(`sources-${Math.random().toString(36).slice(2, 8)}`);
  try {
    const board = widgets(sources);
    const imported = await stack.api<{ id: string }>('POST', '/boards/import', {
      name: 'From the sources',
      widgets: board.map(({ tag, variant, at: [column, row, width, height] }) => ({
        flow: { tag, data: {} },
        variant,
        column,
        row,
        width,
        height,
      })),
    });
    for (const widget of board) {
      const source = await stack.api<{ id: string }>('POST', '/data-sources', {
        name: widget.tag,
        interval_seconds: 5,
        allow_private: true,
        ...widget.source,
      });
      await stack.api('POST', '/data-bindings', {
        source_id: source.id,
        flow: widget.tag,
        query: widget.query,
        range: 'range' in widget ? widget.range : null,
        mapping: widget.mapping,
      });
    }
    const playlist = await stack.api<{ id: string }>('POST', '/playlists', {
      name: 'Sources',
      items: [{ type: 'board', board_id: imported.id, duration: 60 }],
    });
    await stack.startPlayer();
    await stack.waitOnline();
    await stack.api('PATCH', `/devices/${stack.tag}`, { playlist_id: playlist.id });

    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto(stack.playerUrl);
    const drawn = page.locator('[data-board-name="From the sources"]');
    await expect(drawn).toBeVisible({ timeout: 20_000 });
    for (const widget of board) {
      await expect(drawn.locator(`[data-flow-tag="${widget.tag}"]`), widget.tag).toContainText(widget.shows, {
        timeout: 20_000,
      });
    }
    const series = await stack.api<{ series: { values: unknown[] }[] }>(
      'GET',
      '/flows/ds-in-flight-hour/metrics',
    );
    expect(series.series[0]?.values.length).toBeGreaterThan(0);
    await page.screenshot({ path: testInfo.outputPath('sources.png') });

    // The JSON source fails: its widget is marked on the screen and keeps its last value.
    const tickets = drawn.locator('[data-flow-tag="ds-tickets"]');
    sources.http.serve('/tickets.json', { status: 503, body: 'down for maintenance' });
    await expect(tickets.locator('.widget-error-icon')).toBeVisible({ timeout: 15_000 });
    await expect(tickets).toContainText('42');
    const failing = await stack.api<{ last_error: string | null }[]>('GET', '/data-bindings');
    expect(failing.find((binding) => binding.last_error !== null)?.last_error).toMatch(/503/);
    await page.screenshot({ path: testInfo.outputPath('failing.png') });

    // It answers again: the mark goes, the new value shows.
    sources.http.serve('/tickets.json', { type: MIME.json, body: JSON.stringify({ queue: { open: 7 } }) });
    await expect(tickets.locator('.widget-error-icon')).toHaveCount(0, { timeout: 15_000 });
    await expect(tickets).toContainText('7');
  } finally {
    await stack.stop();
    await Promise.all([
      sources.http.stop(),
      sources.prometheus.stop(),
      sources.mariadb.stop(),
      sources.postgres.drop(),
    ]);
  }
});
