import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { Stack } from './stack';
import { startStandIns, type StandIns } from './web-stand-ins';

// Web pages end to end on the web player: the real service and device, and stand-ins for sites
// on loopback. A playlist of a page that lets itself be framed (its text shows in the frame) and
// one that refuses (the face says so, and the failure reaches the service with a heartbeat);
// then a board whose iframe widgets show the first and say so of the second.

// Heartbeats every 5 s (the shortest allowed), so the failure reaches the service soon.
process.env.WALLBOARD_HEARTBEAT = '5';

let stack: Stack;
let standIns: StandIns;

test.beforeEach(async () => {
  standIns = await startStandIns();
  stack = await Stack.start(`pages-${Date.now().toString(36)}`);
  await stack.startPlayer();
  await stack.waitOnline();
});
test.afterEach(async ({}, testInfo) => {
  if (testInfo.status !== testInfo.expectedStatus) {
    await testInfo.attach('device log', { body: stack.playerOutput });
  }
  await stack.stop();
  await standIns.close();
});

const host = () => new URL(standIns.pages).host;

/** With WALLBOARD_REFERENCES=1, what the screen shows is written to e2e/web-references/ to be looked at. */
async function reference(page: Page, name: string): Promise<void> {
  if (!process.env.WALLBOARD_REFERENCES) return;
  const folder = fileURLToPath(new URL('./web-references/', import.meta.url));
  await mkdir(folder, { recursive: true });
  await page.screenshot({ path: `${folder}${name}.png` });
}

test('a playlist plays a page in a frame, and says so of a page that refuses', async ({ page }) => {
  test.setTimeout(90_000);
  const framed = `${standIns.pages}/status.html`;
  const refusing = `${standIns.pages}/refuses.html`;
  const playlist = await stack.api<{ id: string }>('POST', '/playlists', {
    name: 'Pages',
    items: [
      { type: 'web', url: framed, duration: 6 },
      { type: 'web', url: refusing, duration: 6 },
    ],
  });
  await stack.api('PATCH', `/devices/${stack.tag}`, { playlist_id: playlist.id });
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await page.goto(stack.playerUrl);

  const current = page.locator('[data-testid="player-current"]');
  await expect(current).toHaveAttribute('data-showing', `web:${framed}`, { timeout: 20_000 });
  const frame = page.frameLocator('[data-testid="player-current"] iframe');
  await expect(frame.getByRole('heading', { name: 'All systems operational' })).toBeVisible();
  await reference(page, 'web-page-framed');
  await expect(current.locator('iframe')).toHaveAttribute(
    'sandbox',
    'allow-scripts allow-same-origin allow-forms',
  );

  await expect(current).toHaveAttribute('data-showing', `web:${refusing}`, { timeout: 15_000 });
  const face = current.getByRole('alert');
  await expect(face).toContainText(`${host()} does not allow being shown inside another page`);
  await expect(face).toContainText("frame-ancestors 'none'");
  await expect(current.locator('iframe')).toHaveCount(0);
  await reference(page, 'web-page-refused');

  // The operator hears of it: the failure rides the next heartbeat.
  await expect
    .poll(
      async () =>
        (
          await stack.api<{ failures: { item: string; reason: string }[] }>(
            'GET',
            `/devices/${stack.tag}/status`,
          )
        ).failures,
      { timeout: 20_000 },
    )
    .toContainEqual(
      expect.objectContaining({
        item: `web:${refusing}`,
        reason: expect.stringContaining('refuses'),
      }),
    );
  expect(violations).toEqual([]);

  // Proof of play counts web pages as it counts media: by their URL.
  await expect
    .poll(
      async () =>
        (await stack.api<{ type: string; url: string }[]>('GET', `/devices/${stack.tag}/plays`)).map(
          ({ type, url }) => `${type} ${url}`,
        ),
      { timeout: 20_000 },
    )
    .toContain(`web ${framed}`);
});

test('a board shows a page in its iframe widget, and says so of a page that refuses', async ({ page }) => {
  test.setTimeout(60_000);
  const widget = (tag: string, url: string, column: number) => ({
    flow: { tag, data: { title: tag, url } },
    variant: 'iframe',
    column,
    row: 0,
    width: 16,
    height: 12,
  });
  const board = await stack.api<{ id: string }>('POST', '/boards/import', {
    name: 'Pages board',
    widgets: [
      widget('status', `${standIns.pages}/status.html`, 0),
      widget('bank', `${standIns.pages}/refuses.html`, 16),
    ],
  });
  const playlist = await stack.api<{ id: string }>('POST', '/playlists', {
    name: 'Pages board',
    items: [{ type: 'board', board_id: board.id, duration: 60 }],
  });
  await stack.api('PATCH', `/devices/${stack.tag}`, { playlist_id: playlist.id });
  await page.goto(stack.playerUrl);

  await expect(page.locator('[data-board-name="Pages board"]')).toBeVisible({ timeout: 20_000 });
  const frame = page.frameLocator('[data-board-name="Pages board"] iframe');
  await expect(frame.getByRole('heading', { name: 'All systems operational' })).toBeVisible();
  await expect(page.locator('[data-board-name="Pages board"] iframe')).toHaveCount(1);
  await expect(page.getByText('This page does not allow being shown inside another page')).toBeVisible();
  await reference(page, 'web-pages-board');
});
