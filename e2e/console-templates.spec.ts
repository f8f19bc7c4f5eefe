import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { checkPage, consoleTest as test, expect } from './console-kit';

// Issue 32's walk for a person who knows no JSON, only through the console against the real
// service and a real web player: a board made from a template in one click; its value and a
// ticker's text changed with the forms; one save; a playlist of it given to five screens at once
// (one of them the web player, which draws the changes); ten media tagged at once. Every page is
// checked by axe at a desktop's and a phone's width. Then the boards list: several boards
// selected, exported into one file, and deleted after a summary of what plays them.

const PICTURE = fileURLToPath(new URL('./assets/picture.png', import.meta.url));

/** The drawn widget (the renderer's) of a flow in the editor's preview. */
const drawn = (page: Page, tag: string) =>
  page.getByTestId('board-preview').locator(`[data-flow-tag="${tag}"]`);

test('a board from a template, changed with forms and saved once, reaches five screens at once', async ({
  admin: page,
  stack,
  context,
}, testInfo) => {
  test.setTimeout(240_000);
  await stack.startPlayer();
  await stack.waitOnline();
  for (const index of [1, 2, 3, 4])
    await stack.api('POST', '/devices', { tag: `lobby-${index}`, name: `Lobby ${index}` });
  const screen = await context.newPage();
  await screen.setViewportSize({ width: 1280, height: 720 });
  await screen.goto(stack.playerUrl);
  await page.bringToFront();

  // "New board" offers a blank board or the gallery, each template drawn live with its data.
  await page.getByRole('link', { name: 'Boards', exact: true }).click();
  await page.getByRole('button', { name: 'New board' }).click();
  const dialog = page.getByRole('dialog', { name: 'New board' });
  const lobby = dialog.getByTestId('template-card').filter({ hasText: 'Lobby welcome' });
  await expect(lobby.getByTestId('board-preview')).toBeVisible();
  await expect(dialog.getByText('VPN gateway unreachable from site B')).toBeVisible();
  await checkPage(page, 'new-board');

  await dialog.getByRole('button', { name: 'Use this template: Operations status' }).click();
  await expect(page.getByRole('heading', { name: 'Operations status', level: 1 })).toBeVisible();
  await expect(drawn(page, 'operations-status-uptime')).toContainText('99.95');
  // Its script stub came with it, switched off.
  const scripts = await stack.api<{ name: string; enabled: boolean }[]>('GET', '/scripts');
  expect(scripts).toContainEqual(
    expect.objectContaining({ name: 'Operations status: checks', enabled: false }),
  );

  // The uptime's number and title, and the announcements ticker's first message, with the forms.
  await page.getByTestId('editor-widget-value').click();
  await page.getByRole('textbox', { name: 'Value', exact: true }).fill('99.5');
  await page.getByRole('textbox', { name: 'Title', exact: true }).fill('Uptime this month');
  await expect(drawn(page, 'operations-status-uptime')).toContainText('99.5');
  await page.getByTestId('editor-widget-tickertape').click();
  await page
    .getByRole('textbox', { name: 'Message 1', exact: true })
    .fill('Maintenance window tonight at 22:00');
  await expect(drawn(page, 'operations-status-announcements')).toContainText('Maintenance window tonight');
  await expect(page.getByTestId('editor-status')).toHaveText('Unsaved changes');
  await page.evaluate(() => window.scrollTo(0, 0));
  await checkPage(page, 'template-board');

  // One save, for both widgets' data.
  await page.getByRole('button', { name: 'Save the board' }).click();
  await expect(page.getByTestId('editor-status')).toHaveText('Every change is saved');
  const ticker = await stack.api<{ messages: string[] }>(
    'GET',
    '/flows/operations-status-announcements/metrics',
  );
  expect(ticker.messages[0]).toBe('Maintenance window tonight at 22:00');
  await page.screenshot({ path: testInfo.outputPath('template-board.png'), fullPage: true });

  // A playlist of the board.
  await page.getByRole('link', { name: 'Playlists', exact: true }).click();
  await page.getByRole('button', { name: 'New playlist' }).click();
  await page.getByRole('dialog').getByLabel('Name').fill('Operations');
  await page.getByRole('button', { name: 'Create the playlist' }).click();
  await page.getByRole('button', { name: 'Add a board' }).click();
  await page.getByRole('dialog').getByLabel('Board').click();
  await page.getByRole('option', { name: 'Operations status' }).click();
  await page.getByRole('button', { name: 'Add the board' }).click();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('You have unsaved changes')).toHaveCount(0);

  // Given to five screens at once from the screens list.
  await page.getByRole('link', { name: 'Screens', exact: true }).click();
  const names = [`Screen ${stack.tag}`, 'Lobby 1', 'Lobby 2', 'Lobby 3', 'Lobby 4'];
  for (const name of names) await page.getByRole('checkbox', { name: `Select ${name}` }).check();
  const bar = page.getByRole('region', { name: 'Selected screens' });
  await expect(bar).toContainText('5 screens selected');
  await bar.getByRole('button', { name: 'Assign a playlist' }).click();
  const assign = page.getByRole('dialog', { name: 'Assign a playlist to 5 screens' });
  await assign.getByLabel('Playlist').click();
  await page.getByRole('option', { name: 'Operations (1 item)' }).click();
  await checkPage(page, 'walk-assign');
  await assign.getByRole('button', { name: 'Assign to 5 screens' }).click();
  await expect(page.getByText('Assigned the playlist to 5 screens.')).toBeVisible();
  const playlists = await stack.api<{ id: string; name: string }[]>('GET', '/playlists');
  const operations = playlists.find((playlist) => playlist.name === 'Operations')?.id;
  for (const tag of [stack.tag, 'lobby-1', 'lobby-2', 'lobby-3', 'lobby-4'])
    expect((await stack.api<{ playlist_id: string | null }>('GET', `/devices/${tag}`)).playlist_id, tag).toBe(
      operations,
    );

  // The web player among them draws the board with both changes.
  const board = screen.locator('[data-board-name="Operations status"]');
  await expect(board).toBeVisible({ timeout: 15_000 });
  await expect(board.locator('[data-flow-tag="operations-status-uptime"]')).toContainText('99.5');
  await expect(board.locator('[data-flow-tag="operations-status-uptime"]')).toContainText(
    'Uptime this month',
  );
  await expect(board.locator('[data-flow-tag="operations-status-announcements"]')).toContainText(
    'Maintenance window tonight at 22:00',
  );
  await screen.screenshot({ path: testInfo.outputPath('player.png') });

  // Ten media uploaded, and tagged at once.
  await page.getByRole('link', { name: 'Media', exact: true }).click();
  const picture = await readFile(PICTURE);
  const files = Array.from({ length: 10 }, (_, index) => ({
    name: `lobby-${index + 1}.png`,
    mimeType: 'image/png',
    buffer: picture,
  }));
  await page.getByLabel('Files to upload', { exact: true }).setInputFiles(files);
  await expect(page.getByTestId('media-card')).toHaveCount(10, { timeout: 30_000 });
  await page.getByRole('checkbox', { name: 'Select every medium shown' }).check();
  const media = page.getByRole('region', { name: 'Selected media files' });
  await media.getByRole('button', { name: 'Tag' }).click();
  const tag = page.getByRole('dialog', { name: 'Tag 10 media files' });
  await tag.getByLabel('Add tags').fill('Lobby');
  await tag.getByLabel('Add tags').press('Enter');
  await tag.getByRole('button', { name: 'Tag 10 media files' }).click();
  await expect(page.getByText('Tagged 10 media files.')).toBeVisible();
  const tagged = await stack.api<{ tags: string[] }[]>('GET', '/media');
  expect(tagged.filter((medium) => medium.tags.join() === 'Lobby')).toHaveLength(10);
  await page.mouse.move(1000, 20);
  await checkPage(page, 'walk-media');
  await page.screenshot({ path: testInfo.outputPath('media.png'), fullPage: true });
  await screen.close();
});

test('boards are selected, exported together and deleted with a summary of what plays them', async ({
  admin: page,
  stack,
}, testInfo) => {
  test.setTimeout(120_000);
  const made = async (template: string) =>
    (await stack.api<{ board: { id: string } }>('POST', `/boards/from-template/${template}`, {})).board.id;
  const sales = await made('sales');
  await made('kpi-wall');
  await made('meeting-room');
  await stack.api('POST', '/playlists', {
    name: 'Sales floor',
    items: [{ type: 'board', board_id: sales, duration: 30 }],
  });
  const playlists = await stack.api<{ id: string }[]>('GET', '/playlists');
  await stack.api('POST', `/devices`, { tag: 'floor-1', name: 'Floor 1', playlist_id: playlists[0]!.id });

  await page.getByRole('link', { name: 'Boards', exact: true }).click();
  await page.getByRole('checkbox', { name: 'Select Sales' }).check();
  await page.getByRole('checkbox', { name: 'Select KPI wall' }).check();
  const bulk = page.getByRole('region', { name: 'Selected boards' });
  await expect(bulk).toContainText('2 boards selected');
  // Not hovering a row: the hover's highlight is Mantine's, the same on every list.
  await page.mouse.move(0, 0);
  await checkPage(page, 'boards-selected');

  const download = page.waitForEvent('download');
  await bulk.getByRole('button', { name: 'Export', exact: true }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('boards.json');
  const exported = JSON.parse(await readFile(await file.path(), 'utf8')) as { name: string }[];
  expect(exported.map((board) => board.name)).toEqual(['Sales', 'KPI wall']);

  await bulk.getByRole('button', { name: 'Delete', exact: true }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete 2 boards?' });
  const summary = confirm.getByTestId('delete-summary');
  await expect(summary).toContainText('1 playlist loses them: Sales floor.');
  await expect(summary).toContainText('1 screen shows them now or by schedule: Floor 1.');
  await confirm.getByRole('button', { name: 'Delete 2 boards' }).click();
  await expect(page.getByRole('checkbox', { name: 'Select Sales' })).toHaveCount(0);
  await expect(page.getByRole('checkbox', { name: 'Select KPI wall' })).toHaveCount(0);
  await expect(page.getByRole('checkbox', { name: 'Select Meeting room' })).toBeVisible();
  await expect(bulk).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: 'Deleted 2 boards.' })).toBeVisible();

  // The file imports back as two boards.
  const path = testInfo.outputPath('boards.json');
  await file.saveAs(path);
  await page.locator('input[type="file"]').setInputFiles(path);
  await expect(page.getByRole('checkbox', { name: 'Select Sales' })).toBeVisible();
  await expect(page.getByRole('checkbox', { name: 'Select KPI wall' })).toBeVisible();
});
