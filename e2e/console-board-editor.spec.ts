import { readFile } from 'node:fs/promises';
import type { Locator, Page } from '@playwright/test';
import { expectOnCells, type Cells } from './board-cells';
import { checkPage, consoleTest as test, expect } from './console-kit';

// The board editor, only through the console (the screen's playlist set up through the API): a
// board built from the gallery, its widgets dragged, resized and moved by the keyboard on the
// grid, with undo and redo; data set through the JSON editor (a bad value refused as typed);
// saved once with the layout, and a playing screen shows it within a second; exported and
// imported back.

const GRID = { columns: 32, rows: 20 };

/** The drawn widget (the renderer's) of a flow in the editor's preview. */
const drawn = (page: Page, tag: string) =>
  page.getByTestId('board-preview').locator(`[data-flow-tag="${tag}"]`);
/** The editor's handle over a widget. */
const handle = (page: Page, variant: string) => page.getByTestId(`editor-widget-${variant}`);

/** One cell of the preview, in page pixels. */
async function cellSize(page: Page) {
  const preview = (await page.getByTestId('board-preview').boundingBox())!;
  return { width: preview.width / GRID.columns, height: preview.height / GRID.rows };
}

/** Drags from the middle of `from` by a number of cells, in steps as a hand would (or in one jump). */
async function dragBy(page: Page, from: Locator, cells: { columns: number; rows: number }, steps = 12) {
  const box = (await from.boundingBox())!;
  const cell = await cellSize(page);
  const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + cells.columns * cell.width, y + cells.rows * cell.height, { steps });
  await page.mouse.up();
}

async function addWidget(page: Page, variant: string, check = false) {
  await page.getByRole('button', { name: 'Add a widget' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a widget' });
  if (check) {
    await expect(dialog.getByRole('button', { name: 'value', exact: true })).toBeVisible();
    await checkPage(page, 'board-editor-gallery');
  }
  await dialog.getByRole('button', { name: variant, exact: true }).click();
  await expect(dialog.getByLabel("The new flow's tag")).toHaveValue(`atrium-${variant}`);
  await dialog.getByRole('button', { name: 'Add the widget' }).click();
  await expect(dialog).toBeHidden();
  await expect(drawn(page, `atrium-${variant}`)).toBeVisible();
}

/** Replaces the JSON editor's whole text, as typing it would. */
async function typeData(page: Page, text: string) {
  const editor = page.getByRole('textbox', { name: 'Data (JSON)' });
  await editor.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
}

test('a board built in the editor plays as built', async ({ admin: page, stack, context }, testInfo) => {
  test.setTimeout(180_000);
  await page.getByRole('link', { name: 'Boards' }).click();
  await page.getByRole('button', { name: 'New board' }).click();
  await page.getByRole('dialog').getByLabel('Name').fill('Atrium');
  await page.getByRole('button', { name: 'Create the board' }).click();
  await expect(page.getByRole('heading', { name: 'Atrium', level: 1 })).toBeVisible();
  const id = new URL(page.url()).pathname.split('/').at(-1)!;

  // A screen plays the (empty) board meanwhile.
  await stack.startPlayer();
  await stack.waitOnline();
  const playlist = await stack.api<{ id: string }>('POST', '/playlists', {
    name: 'Atrium',
    items: [{ type: 'board', board_id: id, duration: 60 }],
  });
  await stack.api('PATCH', `/devices/${stack.tag}`, { playlist_id: playlist.id });
  const player = await context.newPage();
  await player.goto(stack.playerUrl);
  await expect(player.locator('[data-board-name="Atrium"]')).toBeVisible({ timeout: 15_000 });
  // The editor's tab in front: a background tab draws a frame a second.
  await page.bringToFront();

  // Three widgets from the gallery, each on the first free cells, each with a new flow of sample data.
  for (const variant of ['value', 'gauge', 'barchart']) await addWidget(page, variant, variant === 'value');
  const at: Record<string, Cells> = {
    value: { column: 0, row: 0, width: 8, height: 7 },
    gauge: { column: 8, row: 0, width: 8, height: 7 },
    barchart: { column: 16, row: 0, width: 8, height: 7 },
  };
  for (const [variant, cells] of Object.entries(at))
    await expectOnCells(page, drawn(page, `atrium-${variant}`), GRID, cells);
  await expect(page.getByTestId('editor-status')).toHaveText('Unsaved changes');

  // Dragged down 8 rows; dropped onto another widget, it stays where it was.
  await dragBy(page, handle(page, 'value'), { columns: 0, rows: 8 });
  at.value = { ...at.value!, row: 8 };
  await expectOnCells(page, drawn(page, 'atrium-value'), GRID, at.value);
  await dragBy(page, handle(page, 'barchart'), { columns: -8, rows: 0 }, 1);
  await expectOnCells(page, drawn(page, 'atrium-barchart'), GRID, at.barchart!);

  // Resized by its corner: 6 columns wider, 2 rows taller.
  await handle(page, 'barchart').click();
  await dragBy(page, handle(page, 'barchart').locator('.react-resizable-handle-se'), { columns: 6, rows: 2 });
  at.barchart = { ...at.barchart!, width: 14, height: 9 };
  await expectOnCells(page, drawn(page, 'atrium-barchart'), GRID, at.barchart);

  // Moved by the keyboard, then undone and redone.
  await handle(page, 'gauge').focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  at.gauge = { ...at.gauge!, row: 2 };
  await expectOnCells(page, drawn(page, 'atrium-gauge'), GRID, at.gauge);
  await page.getByRole('button', { name: 'Undo' }).click();
  await expectOnCells(page, drawn(page, 'atrium-gauge'), GRID, { ...at.gauge, row: 1 });
  await page.getByRole('button', { name: 'Redo' }).click();
  await expectOnCells(page, drawn(page, 'atrium-gauge'), GRID, at.gauge);
  await expect(handle(page, 'gauge')).toHaveAccessibleName(
    'gauge · atrium-gauge, at column 9, row 3, 8 by 7 cells',
  );

  // The value's data through the JSON editor (the advanced view): a bad value is said at its line
  // and the board cannot be saved; the data is saved with the board.
  await handle(page, 'value').click();
  await page.getByText('Advanced (JSON)').click();
  await typeData(page, '{\n  "title": "Visitors",\n  "value": true\n}');
  const problems = page.getByTestId('data-problems');
  await expect(problems).toContainText('line 3: value:');
  await expect(page.getByRole('button', { name: 'Save the board' })).toBeDisabled();
  await typeData(page, '{\n  "title": "Visitors",\n  "value": 1234\n}');
  await expect(problems).toContainText('The data fits the value widget.');
  await expect(drawn(page, 'atrium-value')).toContainText('Visitors');
  await page.evaluate(() => window.scrollTo(0, 0));
  await checkPage(page, 'board-editor');

  // Saved: the screen shows the three widgets within a second, the value where it was dragged.
  await page.getByRole('button', { name: 'Save the board' }).click();
  const saved = Date.now();
  await expect(player.locator('[data-flow-tag="atrium-barchart"]')).toBeVisible({ timeout: 1000 });
  expect(Date.now() - saved).toBeLessThan(1000);
  await expect(page.getByTestId('editor-status')).toHaveText('Every change is saved');
  const onScreen = async (tag: string) => (await player.locator(`[data-flow-tag="${tag}"]`).boundingBox())!;
  expect((await onScreen('atrium-value')).y).toBeGreaterThan((await onScreen('atrium-gauge')).y);
  await expect(player.locator('[data-flow-tag="atrium-value"]')).toContainText('Visitors');
  const placements = (board: { widgets: (Cells & { flow: { tag: string } })[] }) =>
    board.widgets.map(({ flow, column, row, width, height }) => ({
      tag: flow.tag,
      column,
      row,
      width,
      height,
    }));
  const exported = await stack.api<Parameters<typeof placements>[0]>('GET', `/boards/${id}/export`);
  expect(placements(exported)).toEqual(
    ['value', 'gauge', 'barchart'].map((variant) => ({ tag: `atrium-${variant}`, ...at[variant] })),
  );

  // Exported as a file and imported back: the copy holds the same widgets on the same cells.
  await page.getByRole('link', { name: 'Boards' }).click();
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export Atrium' }).click();
  const file = testInfo.outputPath('Atrium.json');
  await (await download).saveAs(file);
  expect(JSON.parse(await readFile(file, 'utf8'))).toMatchObject({ name: 'Atrium' });
  await page.locator('input[type="file"]').setInputFiles(file);
  await expect(page.getByRole('row', { name: /^Select Atrium / })).toHaveCount(2);
  const boards = await stack.api<{ id: string; name: string }[]>('GET', '/boards');
  const copy = boards.find((board) => board.name === 'Atrium' && board.id !== id)!;
  expect(placements(await stack.api('GET', `/boards/${copy.id}/export`))).toEqual(placements(exported));

  // Duplicated from its page, the copy opens in the editor.
  await page.goto(`${stack.serviceUrl}/console/boards/${copy.id}`);
  await page.getByRole('button', { name: 'Duplicate' }).click();
  await expect(page.getByRole('heading', { name: 'Atrium (copy)', level: 1 })).toBeVisible();
  await expect(page.getByTestId('board-preview').locator('[data-flow-tag]')).toHaveCount(3);
  await player.close();
});

test('two editors move widgets of one board: the second save is refused and said', async ({
  admin: page,
  stack,
  context,
}) => {
  const board = await stack.api<{ id: string }>('POST', '/boards', { name: 'Shared' });
  await stack.api('POST', '/flows', { tag: 'shared-a', variant: 'value' });
  await stack.api('PUT', '/flows/shared-a/metrics', { value: 1 });
  await stack.api('POST', `/boards/${board.id}/widgets`, {
    flow_tag: 'shared-a',
    column: 0,
    row: 0,
    width: 4,
    height: 4,
  });
  const other = await context.newPage();
  for (const editor of [page, other]) {
    await editor.goto(`${stack.serviceUrl}/console/boards/${board.id}`);
    await handle(editor, 'value').focus();
  }
  // Both edit; the first saves.
  await other.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  await page.getByRole('button', { name: 'Save the board' }).click();
  await expect(page.getByTestId('editor-status')).toHaveText('Every change is saved');
  await expect(other.getByRole('alert', { name: 'Someone else saved this board' })).toBeVisible();
  await other.getByRole('button', { name: 'Save the board' }).click();
  await expect(other.getByRole('alert', { name: 'Changed by someone else' })).toContainText(
    'changed by someone else',
  );
  const [widget] = await stack.api<Cells[]>('GET', `/boards/${board.id}/widgets`);
  expect([widget!.column, widget!.row]).toEqual([1, 0]);
  await other.getByRole('button', { name: /Load their version/ }).click();
  await expectOnCells(other, drawn(other, 'shared-a'), GRID, { column: 1, row: 0, width: 4, height: 4 });
  await expect(other.getByTestId('editor-status')).toHaveText('Every change is saved');
  await other.close();
});

/**
 * Picks what feeds the selected widget's flow. The list closes when the panel is drawn again under
 * it (on a loaded machine, as the scripts arrive): a person opens it again, and so does this.
 */
async function feedBy(page: Page, option: string): Promise<void> {
  await expect(async () => {
    await page.getByRole('combobox', { name: 'Fed by' }).click();
    await page.getByRole('option', { name: option }).click({ timeout: 2_000 });
  }).toPass({ timeout: 15_000 });
}

test("a widget's flow is fed by a script chosen in the editor, written by the board's Save", async ({
  admin: page,
  stack,
}) => {
  const board = await stack.api<{ id: string }>('POST', '/boards', { name: 'Fed' });
  const flow = await stack.api<{ id: string }>('POST', '/flows', { tag: 'fed-value', variant: 'value' });
  await stack.api('POST', `/boards/${board.id}/widgets`, {
    flow_tag: 'fed-value',
    column: 0,
    row: 0,
    width: 4,
    height: 4,
  });
  const script = await stack.api<{ id: string }>('POST', '/scripts', {
    name: 'Visitors today',
    code: 'return { value: 7 };',
    interval: '1h',
  });
  const source = async () => (await stack.api<{ source: string | null }>('GET', `/flows/${flow.id}`)).source;
  await page.goto(`${stack.serviceUrl}/console/boards/${board.id}`);
  await handle(page, 'value').click();
  // Chosen, it is part of the draft: nothing changes until the board's one Save.
  await feedBy(page, 'Visitors today');
  await expect(page.getByTestId('editor-status')).toHaveText('Unsaved changes');
  await expect(page.getByText('Changed: saved with the board')).toBeVisible();
  expect(await source()).toBeNull();
  await page.getByRole('button', { name: 'Save the board' }).click();
  await expect(page.getByTestId('editor-status')).toHaveText('Every change is saved');
  await expect.poll(source).toBe(script.id);
  await expect(page.getByRole('link', { name: 'Open the script' })).toBeVisible();
  // Detached again, saved: the flow takes pushed data.
  await feedBy(page, 'Data pushed to it (no script)');
  expect(await source()).toBe(script.id);
  await page.getByRole('button', { name: 'Save the board' }).click();
  await expect.poll(source).toBeNull();
  await expect(page.getByRole('link', { name: 'write a script' })).toBeVisible();
});
