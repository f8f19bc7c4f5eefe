import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { checkPage, consoleTest as test, expect, signIn, VIEWER } from './console-kit';

// The Playlists pages, only through the console (a board and a screen set up through the API):
// a playlist of a board and an uploaded image, reordered by the keyboard, timed, saved and given
// to a web player, which shows the board and then the image; unsaved edits kept from leaving and
// from a change made elsewhere; the image deleted from the library while used; and a viewer who
// sees everything and changes nothing.

const PICTURE = fileURLToPath(new URL('./assets/picture.png', import.meta.url));
const cardOf = (page: Page, name: string) => page.getByRole('article', { name, exact: true });

const itemAt = (page: Page, position: number) =>
  page
    .getByRole('list', { name: 'Items, in the order they play' })
    .getByRole('listitem')
    .nth(position - 1);

test('a playlist of a board and an image is built, reordered, saved, assigned and played', async ({
  admin: page,
  stack,
  context,
}) => {
  test.setTimeout(120_000);
  const board = await stack.api<{ id: string }>('POST', '/boards', { name: 'Lobby board' });
  await stack.startPlayer();
  await stack.waitOnline();

  // The image goes to the library first.
  await page.getByRole('link', { name: 'Media' }).click();
  await page.getByLabel('Files to upload', { exact: true }).setInputFiles(PICTURE);
  await expect(cardOf(page, 'picture.png').getByRole('img', { name: 'picture.png' })).toBeVisible();

  // A new playlist opens in the editor.
  await page.getByRole('link', { name: 'Playlists' }).click();
  await page.getByRole('button', { name: 'New playlist' }).click();
  await page.getByRole('dialog').getByLabel('Name').fill('Lobby');
  await page.getByRole('button', { name: 'Create the playlist' }).click();
  await expect(page.getByRole('heading', { name: 'Lobby', level: 1 })).toBeVisible();
  await expect(page.getByText('No items yet')).toBeVisible();

  // The image from the library, then the board.
  await page.getByRole('button', { name: 'Add from the library' }).click();
  await page.getByRole('button', { name: 'Add picture.png' }).click();
  await page.getByRole('button', { name: 'Add a board' }).click();
  await page.getByRole('dialog').getByLabel('Board').click();
  await page.getByRole('option', { name: 'Lobby board' }).click();
  await page.getByRole('button', { name: 'Add the board' }).click();
  await expect(page.getByText('You have unsaved changes')).toBeVisible();
  await expect(itemAt(page, 1)).toHaveAccessibleName(/picture\.png/);
  await expect(itemAt(page, 1).getByRole('img', { name: 'picture.png' })).toBeVisible();

  // The board moves up by the keyboard: Space lifts it, an arrow moves it, Space drops it.
  await page.getByRole('button', { name: 'Move Lobby board (item 2)', exact: true }).focus();
  // Each step is read out (dnd-kit's live region); the next key waits for it.
  const told = page.locator('[id^="DndLiveRegion"]');
  await page.keyboard.press('Space');
  await expect(told).toHaveText(/Lobby board would move to position 2 of 2/);
  // dnd-kit finds the place above from the rows it measured at the lift; on a loaded machine the
  // first arrow may come before they are measured and find none. A second press is what a person
  // does; at the top it changes nothing.
  await expect(async () => {
    await page.keyboard.press('ArrowUp');
    await expect(told).toHaveText(/Lobby board would move to position 1 of 2/, { timeout: 1000 });
  }).toPass({ timeout: 10_000 });
  await page.keyboard.press('Space');
  await expect(told).toHaveText('Lobby board moved to position 1 of 2.');
  await expect(itemAt(page, 1)).toHaveAccessibleName(/Lobby board/);
  await expect(itemAt(page, 2)).toHaveAccessibleName(/picture\.png/);

  // An empty duration is refused on its own item before anything is sent.
  await itemAt(page, 1).getByLabel('Seconds').fill('');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(itemAt(page, 1).getByLabel('Seconds')).toHaveAccessibleDescription(/whole number/);
  await expect(itemAt(page, 2).getByRole('alert')).toHaveCount(0);
  await itemAt(page, 1).getByLabel('Seconds').fill('3');
  await itemAt(page, 2).getByLabel('Seconds').fill('3');

  // Leaving asks first; staying keeps the edits.
  await page.getByRole('link', { name: 'Media' }).click();
  const leave = page.getByRole('dialog', { name: 'Leave without saving?' });
  await leave.getByRole('button', { name: 'Stay and keep editing' }).click();
  await expect(leave).toBeHidden();
  await expect(page.getByRole('heading', { name: 'Lobby', level: 1 })).toBeVisible();
  await expect(itemAt(page, 2).getByLabel('Seconds')).toHaveValue('3');
  await page.mouse.move(640, 400);
  await checkPage(page, 'playlist');

  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('You have unsaved changes')).toHaveCount(0);
  const saved = await stack.api<{ id: string; items: unknown[] }>(
    'GET',
    `/playlists/${page.url().split('/').pop() ?? ''}`,
  );
  expect(saved.items).toEqual([
    { type: 'board', board_id: board.id, channel_id: null, duration: 3 },
    // Named by its content's version (docs/api/media.md).
    {
      type: 'image',
      url: expect.stringMatching(/^\/media\/[\w-]+\/content\?v=[0-9a-f]{16}$/),
      fit: 'fit',
      duration: 3,
    },
  ]);

  // Changed elsewhere while edited here: told, and the edits are not overwritten.
  await itemAt(page, 2).getByLabel('Fit').click();
  await page.getByRole('option', { name: 'Fill (cropped)' }).click();
  await stack.api('PATCH', `/playlists/${saved.id}`, { name: 'Lobby' });
  await expect(page.getByText('Changed elsewhere while you were editing')).toBeVisible();
  await expect(itemAt(page, 2).getByLabel('Fit')).toHaveValue('Fill (cropped)');
  await page.getByRole('button', { name: 'Keep my edits' }).click();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('You have unsaved changes')).toHaveCount(0);

  // Given to the screen with the page's one Save (picking it changes nothing yet), and the
  // screen shows the board, then the image.
  await page.getByRole('combobox', { name: 'Screens that play it' }).click();
  await page.getByRole('option', { name: `Screen ${stack.tag} (${stack.tag})` }).click();
  await page.keyboard.press('Escape');
  await expect(page.getByText('You have unsaved changes')).toBeVisible();
  expect(
    (await stack.api<{ playlist_id: string | null }>('GET', `/devices/${stack.tag}`)).playlist_id,
  ).toBeNull();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('You have unsaved changes')).toHaveCount(0);
  await expect
    .poll(async () => (await stack.api<{ playlist_id: string }>('GET', `/devices/${stack.tag}`)).playlist_id)
    .toBe(saved.id);
  const player = await context.newPage();
  await player.goto(stack.playerUrl);
  await expect(player.locator('[data-board-name="Lobby board"]')).toBeVisible({ timeout: 15_000 });
  await expect(player.locator('.player-layer-active img.player-media')).toBeVisible({ timeout: 15_000 });
  await player.close();

  // The list says what it holds and where it plays.
  await page.getByRole('link', { name: 'All playlists' }).click();
  const row = page.getByRole('row', { name: /Lobby/ });
  // Its cells: the selection's checkbox, the name, the items.
  await expect(row.getByRole('cell').nth(2)).toHaveText('2');
  await expect(row).toContainText(`Screen ${stack.tag}`);
  await page.mouse.move(640, 400);
  await checkPage(page, 'playlists');

  // The image is used: deleting it lists the playlist, and takes it out of it.
  await page.getByRole('link', { name: 'Media' }).click();
  const card = cardOf(page, 'picture.png');
  await expect(card.getByRole('link', { name: 'Lobby' })).toBeVisible();
  await card.getByRole('button', { name: 'Delete picture.png' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('list', { name: 'Where it is used' })).toHaveText('Playlist “Lobby”');
  await dialog.getByRole('button', { name: 'Remove it from them and delete' }).click();
  await expect(card).toHaveCount(0);
  await page.getByRole('link', { name: 'Playlists' }).click();
  await expect(row.getByRole('cell').nth(2)).toHaveText('1');
});

test('a web page item is added, its URL checked as it is typed, timed and saved', async ({
  admin: page,
  stack,
}) => {
  await page.getByRole('link', { name: 'Playlists' }).click();
  await page.getByRole('button', { name: 'New playlist' }).click();
  await page.getByRole('dialog').getByLabel('Name').fill('Dashboards');
  await page.getByRole('button', { name: 'Create the playlist' }).click();
  await expect(page.getByRole('heading', { name: 'Dashboards', level: 1 })).toBeVisible();

  await page.getByRole('button', { name: 'Add a web page' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a web page' });
  const address = dialog.getByLabel('Page URL');
  // Checked by the shared schema as it is typed: nothing the service would refuse is added.
  await address.fill('ftp://files.example.com/');
  await expect(address).toHaveAccessibleDescription(/must be an http or https URL/);
  await dialog.getByRole('button', { name: 'Add the web page' }).click();
  await expect(dialog).toBeVisible();
  await address.fill('http://intranet.example/status');
  await expect(address).not.toHaveAccessibleDescription(/must be/);
  await dialog.getByLabel('Seconds on screen').fill('45');
  await dialog.getByLabel('Reload every (seconds)').fill('5');
  await expect(dialog.getByLabel('Reload every (seconds)')).toHaveAccessibleDescription(
    /at least 10 seconds/,
  );
  await dialog.getByLabel('Reload every (seconds)').fill('60');
  await page.mouse.move(640, 400);
  await checkPage(page, 'playlist-add-web');
  await dialog.getByRole('button', { name: 'Add the web page' }).click();
  await expect(dialog).toBeHidden();

  await expect(itemAt(page, 1)).toHaveAccessibleName(/http:\/\/intranet\.example\/status/);
  await expect(itemAt(page, 1).getByLabel('Seconds', { exact: true })).toHaveValue('45');
  await expect(itemAt(page, 1).getByLabel('Reload every (seconds)')).toHaveValue('60');
  // Reloading is optional: emptied, the page is never reloaded.
  await itemAt(page, 1).getByLabel('Reload every (seconds)').fill('');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('You have unsaved changes')).toHaveCount(0);
  await checkPage(page, 'playlist-web');
  const saved = await stack.api<{ items: unknown[] }>(
    'GET',
    `/playlists/${page.url().split('/').pop() ?? ''}`,
  );
  expect(saved.items).toEqual([
    { type: 'web', url: 'http://intranet.example/status', duration: 45, reload_seconds: null },
  ]);
});

test('a playlist is renamed and deleted from the list', async ({ admin: page }) => {
  await page.getByRole('link', { name: 'Playlists' }).click();
  await page.getByRole('button', { name: 'New playlist' }).click();
  await page.getByRole('button', { name: 'Create the playlist' }).click();
  await expect(page.getByRole('dialog').getByLabel('Name')).toHaveAccessibleDescription(/must not be empty/);
  await page.getByRole('dialog').getByLabel('Name').fill('Hall');
  await page.getByRole('button', { name: 'Create the playlist' }).click();
  await expect(page.getByRole('heading', { name: 'Hall', level: 1 })).toBeVisible();
  await page.getByRole('link', { name: 'All playlists' }).click();
  await page.getByRole('button', { name: 'Rename Hall' }).click();
  await page.getByRole('dialog').getByLabel('Name').fill('Great hall');
  await page.getByRole('button', { name: 'Rename', exact: true }).click();
  const row = page.getByRole('row', { name: /Great hall/ });
  await expect(row).toContainText('none');
  await row.getByRole('button', { name: 'Delete Great hall' }).click();
  await page.getByRole('button', { name: 'Delete the playlist' }).click();
  await expect(row).toHaveCount(0);
  await expect(page.getByText('No playlists yet.')).toBeVisible();
});

test('a viewer sees the playlists and can change nothing', async ({ page, stack }) => {
  const board = await stack.api<{ id: string }>('POST', '/boards', { name: 'Lobby board' });
  const playlist = await stack.api<{ id: string }>('POST', '/playlists', {
    name: 'Lobby',
    items: [{ type: 'board', board_id: board.id, duration: 20 }],
  });
  await signIn(page, stack, VIEWER);
  await page.goto(`${stack.serviceUrl}/console/playlists`);
  await expect(page.getByRole('button', { name: 'New playlist' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Delete Lobby' })).toBeDisabled();
  await page.getByRole('link', { name: 'Lobby', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/console/playlists/${playlist.id}$`));
  await expect(itemAt(page, 1)).toHaveAccessibleName(/Lobby board/);
  await expect(itemAt(page, 1).getByLabel('Seconds')).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Move Lobby board (item 1)', exact: true })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Save' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Add a board' })).toBeDisabled();
  await expect(page.getByRole('combobox', { name: 'Screens that play it' })).toBeDisabled();
  await checkPage(page, 'playlist-viewer');
});
