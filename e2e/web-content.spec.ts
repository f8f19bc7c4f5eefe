import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { Stack } from './stack';
import { startStandIns, type StandIns } from './web-stand-ins';

// Web content end to end: the real service fetching tiles and forecasts from stand-ins for the
// internet on loopback, a web player showing a board of a map, the weather, two web pages (one
// refusing to be framed) and a custom widget; then the service killed and the page reloaded, the
// map drawn again from the screen's own tile cache.

const REFERENCES = fileURLToPath(new URL('./web-references/', import.meta.url));

let stack: Stack;
let standIns: StandIns;

test.beforeEach(async () => {
  standIns = await startStandIns();
  stack = await Stack.start(`web-${Date.now().toString(36)}`, [
    ...['--map-tiles', standIns.tiles, '--map-attribution', '© Stand-in tiles', '--map-max-zoom', '18'],
    ...['--weather-url', standIns.weather],
  ]);
});
test.afterEach(async ({}, testInfo) => {
  if (testInfo.status !== testInfo.expectedStatus) {
    await testInfo.attach('device log', { body: stack.playerOutput });
  }
  await stack.stop();
  await standIns.close();
});

const CUSTOM_CODE = {
  html: '<main><h2 id="title"></h2><p><span id="count"></span> jobs waiting</p></main>',
  css: 'main{font:24px "DejaVu Sans",sans-serif;color:#e6edf3;padding:8px}#count{font-size:64px;color:#3fb950}',
  script: `wallboard.onData((data) => {
  document.getElementById('title').textContent = data.title ?? '';
  document.getElementById('count').textContent = String(data.waiting);
});`,
};

const at = (column: number, row: number, width: number, height: number) => ({ column, row, width, height });

/** The board: 32 x 20 cells at 1920 x 1080. */
function webBoard(pages: string) {
  return {
    name: 'Web content',
    widgets: [
      {
        flow: {
          tag: 'depots',
          data: {
            title: 'Depots',
            coords: { lat: 52.37, lon: 4.89, zoom: 12 },
            markers: [
              { lat: 52.379, lon: 4.9, label: 'Central' },
              { lat: 52.357, lon: 4.87, label: 'South', color: '#d29922' },
            ],
            circles: [{ lat: 52.37, lon: 4.89, radius: 900, color: '#2f81f7' }],
            polygons: [
              {
                points: [
                  [52.385, 4.86],
                  [52.39, 4.88],
                  [52.38, 4.885],
                ],
                color: '#3fb950',
                label: 'Yard',
              },
            ],
            polylines: [
              {
                points: [
                  [52.355, 4.85],
                  [52.365, 4.88],
                  [52.375, 4.92],
                ],
                color: '#f85149',
              },
            ],
          },
        },
        variant: 'map',
        ...at(0, 0, 16, 12),
      },
      {
        flow: {
          tag: 'weather-ams',
          data: { title: 'Weather', location: 'Amsterdam', latitude: 52.37, longitude: 4.89 },
        },
        variant: 'weather',
        ...at(16, 0, 8, 6),
      },
      {
        flow: { tag: 'status-page', data: { title: 'Status', url: `${pages}/status.html` } },
        variant: 'iframe',
        ...at(16, 6, 16, 6),
      },
      {
        flow: { tag: 'bank-page', data: { title: 'Bank', url: `${pages}/refuses.html` } },
        variant: 'iframe',
        ...at(24, 0, 8, 6),
      },
      {
        flow: { tag: 'queue', data: { title: 'Queue', waiting: 42 } },
        variant: 'custom',
        code: CUSTOM_CODE,
        ...at(0, 12, 16, 8),
      },
      {
        flow: { tag: 'revenue', data: { title: 'Revenue', value: 1234 } },
        variant: 'value',
        ...at(16, 12, 16, 8),
      },
    ],
  };
}

const widget = (page: Page, tag: string) => page.locator(`section.widget[data-flow-tag="${tag}"]`);

/** The map's tile images that have drawn. */
const drawnTiles = (page: Page) =>
  widget(page, 'depots')
    .locator('img.leaflet-tile')
    .evaluateAll((tiles) => tiles.filter((tile) => (tile as HTMLImageElement).naturalWidth > 0).length);

test('a board of web content plays from loopback stand-ins, and its map draws from the cache offline', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const board = await stack.api<{ id: string }>('POST', '/boards/import', webBoard(standIns.pages));
  const playlist = await stack.api<{ id: string }>('POST', '/playlists', {
    name: 'Web',
    items: [{ type: 'board', board_id: board.id, duration: 600 }],
  });
  await stack.startPlayer();
  await stack.waitOnline();
  await stack.api('PATCH', `/devices/${stack.tag}`, { playlist_id: playlist.id });
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.goto(stack.playerUrl);
  await expect(page.locator('[data-board-name="Web content"]')).toBeVisible({ timeout: 15_000 });

  // The service fed the weather from the stand-in: 7.4 °C, with the next days.
  await expect(widget(page, 'weather-ams')).toContainText('7', { timeout: 70_000 });
  await expect(widget(page, 'weather-ams')).toContainText('Amsterdam');
  expect(standIns.hits.filter((path) => path === '/v1/forecast')).toHaveLength(1);

  // The map: tiles through the service and the screen's cache, the attribution shown.
  await expect.poll(() => drawnTiles(page), { timeout: 15_000 }).toBeGreaterThan(3);
  await expect(widget(page, 'depots')).toContainText('© Stand-in tiles');
  await expect(widget(page, 'depots')).toContainText('Central');
  expect(standIns.hits.some((path) => path.startsWith('/tiles/12/'))).toBe(true);

  // A page that lets itself be framed is shown; one that refuses says so.
  const status = widget(page, 'status-page').locator('iframe').contentFrame();
  await expect(status.getByText('All systems operational')).toBeVisible();
  await expect(widget(page, 'bank-page')).toContainText(/not allow|refuses/i);
  await expect(widget(page, 'bank-page').locator('iframe')).toHaveCount(0);

  // The custom widget draws its data, and the next update too.
  const custom = widget(page, 'queue').locator('iframe').contentFrame();
  await expect(custom.locator('#count')).toHaveText('42');
  await stack.api('PUT', '/flows/queue/metrics', { title: 'Queue', waiting: 43 });
  await expect(custom.locator('#count')).toHaveText('43');

  if (process.env.WALLBOARD_REFERENCES) {
    await mkdir(REFERENCES, { recursive: true });
    await page.screenshot({ path: `${REFERENCES}web-content-1920x1080.png` });
  }

  // The service gone, the page reloaded: the map is drawn again from the screen's cache.
  const fetched = standIns.hits.filter((path) => path.startsWith('/tiles/')).length;
  await stack.killService();
  await page.reload();
  await expect(page.locator('[data-board-name="Web content"]')).toBeVisible({ timeout: 15_000 });
  await expect.poll(() => drawnTiles(page), { timeout: 15_000 }).toBeGreaterThan(3);
  expect(standIns.hits.filter((path) => path.startsWith('/tiles/')).length).toBe(fetched);
});
