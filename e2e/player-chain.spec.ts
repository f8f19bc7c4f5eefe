import type { Page } from '@playwright/test';
import { fileURLToPath } from 'node:url';
import { serveFolder, type StaticServer } from '../src/web-player/static-server';
import { expect, test } from './fixtures';
import { Stack } from './stack';

const ASSETS = fileURLToPath(new URL('./assets', import.meta.url));

let stack: Stack;
let assets: StaticServer;

test.beforeEach(async () => {
  stack = await Stack.start(`e2e-${Date.now().toString(36)}`);
  assets = await serveFolder(ASSETS);
});
test.afterEach(async ({}, testInfo) => {
  if (testInfo.status !== testInfo.expectedStatus)
    await testInfo.attach('device log', { body: stack.playerOutput });
  if (testInfo.status !== testInfo.expectedStatus) console.error(stack.playerOutput);
  await stack.stop();
  await assets.close();
});

/** Records what the page plays, before any of its scripts run. */
async function recordSounds(page: Page) {
  await page.addInitScript(() => {
    const played: string[] = [];
    Object.assign(window, { playedSounds: played });
    const play = HTMLMediaElement.prototype.play;
    HTMLMediaElement.prototype.play = function (this: HTMLMediaElement) {
      if (this instanceof HTMLAudioElement) played.push(this.currentSrc || this.src);
      return play.call(this);
    };
  });
}

test('service to screen: registration, playlist, metrics, notifications, media, and a service restart', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await recordSounds(page);
  await stack.startPlayer();
  await page.goto(stack.playerUrl);

  // The device registers itself and waits, naming itself.
  await expect(page.getByTestId('device-tag')).toHaveText(stack.tag);
  await expect
    .poll(async () => (await stack.api<{ online: boolean }>('GET', `/devices/${stack.tag}`)).online)
    .toBe(true);

  // A playlist given to it shows its board within a second.
  const board = await stack.api<{ id: string }>('POST', '/boards/import', {
    name: 'Chain',
    widgets: [
      {
        flow: { tag: 'chain-cpu', data: { value: 12 } },
        variant: 'value',
        column: 0,
        row: 0,
        width: 16,
        height: 10,
      },
    ],
  });
  const playlist = await stack.api<{ id: string }>('POST', '/playlists', {
    name: 'Chain',
    items: [{ type: 'board', board_id: board.id, duration: 15 }],
  });
  await stack.api('PATCH', `/devices/${stack.tag}`, { playlist_id: playlist.id });
  const assigned = Date.now();
  await expect(page.locator('[data-board-name="Chain"]')).toBeVisible({ timeout: 1000 });
  expect(Date.now() - assigned).toBeLessThan(1000);
  const widget = page.locator('[data-flow-tag="chain-cpu"]');
  await expect(widget).toContainText('12');

  // A metric write changes the widget.
  await stack.api('PUT', '/flows/chain-cpu/metrics', { value: 77 });
  await expect(widget).toContainText('77');

  // A notification to the board's channel shows at the bottom with its icon, plays, and leaves.
  const region = page.getByRole('status');
  await stack.api('POST', '/channels/ch_default/notifications', {
    title: 'Deploy',
    message: 'v2 is live',
    icon: 'bug',
    duration: 2,
    sound_url: 'default',
  });
  const shown = Date.now();
  await expect(region).toContainText('Deploy');
  await expect(region).toContainText('v2 is live');
  await expect(page.locator('.player-notification svg[data-icon="bug"]')).toBeVisible();
  const box = await page.locator('.player-notification').boundingBox();
  expect(box && box.y + box.height).toBeGreaterThan(1080 * 0.8);
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { playedSounds: string[] }).playedSounds))
    .toEqual([expect.stringMatching(/default.*\.wav$/)]);
  await expect(region).not.toContainText('Deploy', { timeout: 5000 });
  expect(Date.now() - shown).toBeGreaterThanOrEqual(1900);

  // Through the flow's tag, it lands in the same place.
  await stack.api('POST', '/flows/chain-cpu/notifications', {
    title: 'From the flow',
    message: 'same place',
  });
  await expect(region).toContainText('From the flow');

  // The playlist advances through a board, an image and a video; the change takes effect when the
  // board's current turn (15 s) ends.
  await stack.api('PATCH', `/playlists/${playlist.id}`, {
    items: [
      { type: 'board', board_id: board.id, duration: 2 },
      { type: 'image', url: `${assets.url}picture.png`, duration: 2 },
      { type: 'video', url: `${assets.url}clip.webm` },
    ],
  });
  await expect(page.locator('.player-layer-active img.player-media')).toBeVisible({ timeout: 25_000 });
  await expect(page.locator('.player-layer-active img.player-media')).toHaveAttribute('src', /^\/media\//);
  await expect(page.locator('.player-layer-active video.player-media')).toBeVisible({ timeout: 10_000 });
  await expect(page.locator('[data-board-name="Chain"]')).toBeVisible({ timeout: 15_000 });

  // The service dies and comes back; the device recovers by itself.
  await stack.killService();
  await stack.startService();
  await stack.api('POST', '/channels/ch_default/notifications', {
    title: 'After the restart',
    message: 'still here',
  });
  await expect(region).toContainText('After the restart', { timeout: 15_000 });
});

test('a script posts a notification and the device shows it', async ({ page }) => {
  test.setTimeout(60_000);
  await stack.startPlayer();
  await stack.waitOnline();
  const board = await stack.api<{ id: string }>('POST', '/boards', { name: 'Scripted' });
  const playlist = await stack.api<{ id: string }>('POST', '/playlists', {
    name: 'Scripted',
    items: [{ type: 'board', board_id: board.id, duration: 60 }],
  });
  await stack.api('PATCH', `/devices/${stack.tag}`, { playlist_id: playlist.id });
  await page.goto(stack.playerUrl);
  await expect(page.locator('[data-board-name="Scripted"]')).toBeVisible();

  const script = await stack.api<{ id: string }>('POST', '/scripts', {
    name: 'Announcer',
    interval: '1h',
    enabled: false,
    code: "const notifications = require('wallboard/notifications');\nawait notifications.post('default', '', 'From a script', 'posted by the service', '5s');",
  });
  const run = await stack.api<{ outcome: string }>('POST', `/scripts/${script.id}/run`);
  expect(run.outcome).toBe('ok');
  await expect(page.getByRole('status')).toContainText('From a script');
});
