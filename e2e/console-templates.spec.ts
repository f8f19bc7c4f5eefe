import { readFile } from 'node:fs/promises';
import { checkPage, consoleTest as test, expect } from './console-kit';

// Issue 21's walk for a person who knows no JSON, only through the console against the real
// service and a real web player: a board made from a template in one click opens in the editor
// with its sample data; a playlist puts it on a screen, which draws it. Then the boards list:
// several boards selected, exported into one file, and deleted after a summary of what plays them.

test('a board from a template, in one click, reaches a web player', async ({
  admin: page,
  stack,
  context,
}) => {
  test.setTimeout(150_000);
  await stack.startPlayer();
  await stack.waitOnline();

  // "New board" offers a blank board or the gallery, each template drawn live with its data.
  await page.getByRole('link', { name: 'Boards', exact: true }).click();
  await page.getByRole('button', { name: 'New board' }).click();
  const dialog = page.getByRole('dialog', { name: 'New board' });
  const operations = dialog.getByTestId('template-card').filter({ hasText: 'Operations status' });
  await expect(operations.getByTestId('board-preview')).toBeVisible();
  await expect(dialog.getByText('VPN gateway unreachable from site B')).toBeVisible();
  await checkPage(page, 'new-board');

  await dialog.getByRole('button', { name: 'Use this template: Lobby welcome' }).click();
  await expect(page.getByRole('heading', { name: 'Lobby welcome', level: 1 })).toBeVisible();
  const preview = page.getByTestId('board-preview');
  await expect(preview.getByText('Welcome to Northwind')).toBeVisible();
  await expect(preview.getByText('Dana Whitfield')).toBeVisible();
  await checkPage(page, 'template-board');

  // Its script stub came with it, switched off.
  const scripts = await stack.api<{ name: string; enabled: boolean }[]>('GET', '/scripts');
  expect(scripts).toContainEqual(expect.objectContaining({ name: 'Lobby welcome: news', enabled: false }));

  // A playlist of the board, assigned to the screen, which draws it with the sample data.
  await page.getByRole('link', { name: 'Playlists', exact: true }).click();
  await page.getByRole('button', { name: 'New playlist' }).click();
  await page.getByRole('dialog').getByLabel('Name').fill('Entrance');
  await page.getByRole('button', { name: 'Create the playlist' }).click();
  await page.getByRole('button', { name: 'Add a board' }).click();
  await page.getByRole('dialog').getByLabel('Board').click();
  await page.getByRole('option', { name: 'Lobby welcome' }).click();
  await page.getByRole('button', { name: 'Add the board' }).click();
  // Given to the screen with the page's one Save.
  await page.getByRole('combobox', { name: 'Screens that play it' }).click();
  await page.getByRole('option', { name: `Screen ${stack.tag} (${stack.tag})` }).click();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('You have unsaved changes')).toHaveCount(0);
  await expect
    .poll(
      async () =>
        (await stack.api<{ playlist_id: string | null }>('GET', `/devices/${stack.tag}`)).playlist_id,
    )
    .not.toBeNull();

  const screen = await context.newPage();
  await screen.setViewportSize({ width: 1280, height: 720 });
  await screen.goto(stack.playerUrl);
  const board = screen.locator('.board-theme-light[data-board-name="Lobby welcome"]');
  await expect(board).toBeVisible({ timeout: 15_000 });
  await expect(board.getByText('Welcome to Northwind')).toBeVisible();
  await expect(board.getByText('Dana Whitfield')).toBeVisible();
  await screen.screenshot({ path: test.info().outputPath('player.png') });
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
