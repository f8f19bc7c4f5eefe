import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { expectOnCells } from './board-cells';
import { checkPage, consoleTest as test, expect, signIn, VIEWER } from './console-kit';

// The Boards pages, only through the console (the screen's playlist set up through the API): a
// board created, one imported from an export file (and a bad file refused with its path),
// exported, duplicated and deleted; the board page draws it with the player's renderer, widgets
// on their grid cells, and its settings change the preview and, once saved, a playing screen.

/** The cells of the board's one widget: columns 8-15, rows 5-9. */
const CELLS = { column: 8, row: 5, width: 8, height: 5 };
/** An export as the original product wrote it: one value widget (its flow named by a bare tag). */
const LOBBY = {
  name: 'Lobby',
  theme: 'dark',
  columns: 32,
  rows: 20,
  widget_background: '',
  widgets: [{ tag: 'lobby-cpu', variant: 'value', ...CELLS }],
};

const PICTURE = fileURLToPath(new URL('./assets/picture.png', import.meta.url));

test('boards are created, imported, exported, duplicated, set and played', async ({
  admin: page,
  stack,
  context,
}, testInfo) => {
  test.setTimeout(120_000);
  await page.getByRole('link', { name: 'Boards' }).click();
  await expect(page.getByRole('heading', { name: 'Boards', level: 1 })).toBeVisible();

  // A new board opens on its page.
  await page.getByRole('button', { name: 'New board' }).click();
  await page.getByRole('dialog').getByLabel('Name').fill('Hall');
  await page.getByRole('button', { name: 'Create the board' }).click();
  await expect(page.getByRole('heading', { name: 'Hall', level: 1 })).toBeVisible();
  await expect(page.getByText('No widgets yet')).toBeVisible();
  await page.getByRole('link', { name: 'Boards' }).click();

  // An export file is imported; a file with a widget off the grid is refused with the path.
  const bad = testInfo.outputPath('bad.json');
  await writeFile(bad, JSON.stringify({ ...LOBBY, widgets: [{ ...LOBBY.widgets[0]!, column: 30 }] }));
  await page.locator('input[type="file"]').setInputFiles(bad);
  const refusal = page.getByRole('alert').filter({ hasText: 'The board was not imported' });
  await expect(refusal).toContainText('widgets.0');
  const good = testInfo.outputPath('lobby.json');
  await writeFile(good, JSON.stringify(LOBBY));
  await page.locator('input[type="file"]').setInputFiles(good);
  const lobby = page.getByRole('row', { name: /^Select Lobby Lobby dark 32 x 20 1 / });
  await expect(lobby).toBeVisible();

  // The export downloads as Lobby.json, and holds the widget.
  const download = page.waitForEvent('download');
  await lobby.getByRole('button', { name: 'Export Lobby' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('Lobby.json');
  const exported = JSON.parse(await readFile(await file.path(), 'utf8')) as {
    widgets: { flow: { tag: string } }[];
  };
  expect(exported.widgets.map((widget) => widget.flow.tag)).toEqual(['lobby-cpu']);

  // Duplicated, and the first board deleted.
  await lobby.getByRole('button', { name: 'Duplicate Lobby' }).click();
  await expect(page.getByRole('row', { name: /^Select Lobby \(copy\)/ })).toBeVisible();
  await page.getByRole('button', { name: 'Delete Hall' }).click();
  await page.getByRole('button', { name: 'Delete the board' }).click();
  await expect(page.getByRole('row', { name: /^Select Hall / })).toHaveCount(0);
  await checkPage(page, 'boards');

  // A screen plays the board.
  const id = (await stack.api<{ id: string; name: string }[]>('GET', '/boards')).find(
    (b) => b.name === 'Lobby',
  )!.id;
  await stack.startPlayer();
  await stack.waitOnline();
  const playlist = await stack.api<{ id: string }>('POST', '/playlists', {
    name: 'Lobby',
    items: [{ type: 'board', board_id: id, duration: 60 }],
  });
  await stack.api('PATCH', `/devices/${stack.tag}`, { playlist_id: playlist.id });
  const player = await context.newPage();
  await player.goto(stack.playerUrl);
  await expect(player.locator('.board-theme-dark[data-board-name="Lobby"]')).toBeVisible({ timeout: 15_000 });
  // The console's tab in front: a background tab draws a frame a second.
  await page.bringToFront();

  // The board page draws it as the screen does, its widget on its cells, live with its flow's data.
  await page.getByRole('link', { name: 'Lobby', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Lobby', level: 1 })).toBeVisible();
  const preview = page.getByTestId('board-preview');
  const widget = preview.locator('[data-flow-tag="lobby-cpu"]');
  await expect(widget).toBeVisible();
  await expectOnCells(page, widget, { columns: 32, rows: 20 }, CELLS);
  // Counted from 1 in the console, as people count cells.
  await expect(page.getByRole('row', { name: /^value lobby-cpu column 9, row 6 8 x 5/ })).toBeVisible();
  await stack.api('PUT', '/flows/lobby-cpu/metrics', { value: 42 });
  await expect(widget).toContainText('42');
  await checkPage(page, 'board');

  // The settings change the preview as they are typed, and the screen once saved.
  await page.getByRole('tab', { name: 'Board settings' }).click();
  const settings = page.getByRole('form', { name: 'Board settings' });
  await settings.getByRole('combobox', { name: 'Theme' }).click();
  await page.getByRole('option', { name: 'light' }).click();
  await settings.getByLabel('Columns').fill('16');
  await expect(preview.locator('.board-theme-light')).toBeVisible();
  await expectOnCells(page, widget, { columns: 16, rows: 20 }, CELLS);
  await expect(player.locator('.board-theme-dark')).toBeVisible();
  await page.getByRole('button', { name: 'Save the board' }).click();
  const saved = Date.now();
  await expect(player.locator('.board-theme-light[data-board-name="Lobby"]')).toBeVisible({ timeout: 1000 });
  expect(Date.now() - saved).toBeLessThan(1000);
  await expect(page.getByTestId('editor-status')).toHaveText('Every change is saved');
  await expectOnCells(page, widget, { columns: 16, rows: 20 }, CELLS);

  // Columns that would leave the widget off the grid: the field says so, nothing is saved.
  await settings.getByLabel('Columns').fill('10');
  await page.getByRole('button', { name: 'Save the board' }).click();
  await expect(settings.getByLabel('Columns')).toHaveAttribute('aria-invalid', 'true');
  await expect(settings.locator('.mantine-InputWrapper-error')).toContainText(
    "exceeds the board's 10 columns",
  );
  expect((await stack.api<{ columns: number }>('GET', `/boards/${id}`)).columns).toBe(16);
  await player.close();
});

test("a board's background is picked from the media library", async ({ admin: page, stack }) => {
  const board = await stack.api<{ id: string }>('POST', '/boards', { name: 'Backdrop' });
  await page.getByRole('link', { name: 'Media' }).click();
  await page.getByLabel('Files to upload', { exact: true }).setInputFiles(PICTURE);
  await expect(page.getByRole('article', { name: 'picture.png', exact: true })).toBeVisible();
  await page.goto(`${stack.serviceUrl}/console/boards/${board.id}`);
  await page.getByRole('tab', { name: 'Board settings' }).click();
  const settings = page.getByRole('form', { name: 'Board settings' });
  await settings.getByRole('combobox', { name: 'Background image' }).click();
  await page.getByRole('option', { name: 'picture.png' }).click();
  await page.getByRole('button', { name: 'Save the board' }).click();
  await expect(page.getByTestId('editor-status')).toHaveText('Every change is saved');
  const saved = await stack.api<{ background_url: string }>('GET', `/boards/${board.id}`);
  expect(saved.background_url).toMatch(/^\/media\/[\w-]+\/content$/);
  // The preview draws it as the screen does, from the library on this origin.
  const drawn = page.getByTestId('board-preview').locator('.board');
  await expect(drawn).toHaveCSS('background-image', new RegExp(saved.background_url.replaceAll('/', '\\/')));
  expect((await page.request.get(`${stack.serviceUrl}${saved.background_url}`)).ok()).toBe(true);
});

test('two editors of one board: the second save is refused and said, never overwriting the first', async ({
  admin: page,
  stack,
  context,
}) => {
  const board = await stack.api<{ id: string }>('POST', '/boards', { name: 'Shared' });
  const other = await context.newPage();
  for (const editor of [page, other]) {
    await editor.goto(`${stack.serviceUrl}/console/boards/${board.id}`);
    await editor.getByRole('tab', { name: 'Board settings' }).click();
    await expect(editor.getByRole('form', { name: 'Board settings' })).toBeVisible();
  }
  const settingsOf = (editor: Page) => editor.getByRole('form', { name: 'Board settings' });
  await settingsOf(page).getByLabel('Columns').fill('24');
  await settingsOf(other).getByLabel('Rows').fill('12');
  await page.getByRole('button', { name: 'Save the board' }).click();
  await expect(page.getByTestId('editor-status')).toHaveText('Every change is saved');
  await other.getByRole('button', { name: 'Save the board' }).click();
  await expect(other.getByRole('alert', { name: 'Changed by someone else' })).toContainText(
    'changed by someone else',
  );
  // Nothing of the second save was written; the first stands.
  const saved = await stack.api<{ columns: number; rows: number }>('GET', `/boards/${board.id}`);
  expect([saved.columns, saved.rows]).toEqual([24, 20]);
  await other.getByRole('button', { name: /Load their version/ }).click();
  await expect(settingsOf(other).getByLabel('Columns')).toHaveValue('24');
  await expect(settingsOf(other).getByLabel('Rows')).toHaveValue('20');
  await other.close();
});

test('a viewer sees the boards and changes nothing', async ({ page, stack }) => {
  const board = await stack.api<{ id: string }>('POST', '/boards', { name: 'Seen' });
  await stack.api('POST', '/flows', { tag: 'seen-value', variant: 'value' });
  await stack.api('POST', `/boards/${board.id}/widgets`, {
    flow_tag: 'seen-value',
    column: 0,
    row: 0,
    width: 4,
    height: 4,
  });
  await signIn(page, stack, VIEWER);
  await page.goto(`${stack.serviceUrl}/console/boards`);
  await expect(page.getByRole('row', { name: /^Select Seen / })).toBeVisible();
  await expect(page.getByRole('button', { name: 'New board' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Import a board' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Delete Seen' })).toBeDisabled();
  await page.goto(`${stack.serviceUrl}/console/boards/${board.id}`);
  await expect(page.getByText('Viewers can see everything but change nothing').first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save the board' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Add a widget' })).toBeDisabled();
  // Its widget can be selected and read, not dragged or resized.
  await expect(page.getByTestId('editor-widget-value')).toBeVisible();
  await expect(page.locator('.react-draggable')).toHaveCount(0);
  await expect(page.locator('.react-resizable-handle:visible')).toHaveCount(0);
  await page.getByRole('tab', { name: 'Board settings' }).click();
  await expect(page.getByRole('textbox', { name: 'Name' })).toBeDisabled();
  await expect(page.getByLabel('Columns')).toBeDisabled();
});
