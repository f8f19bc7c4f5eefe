import type { Page } from '@playwright/test';
import { checkPage, consoleTest as test, expect } from './console-kit';

// Widget data without JSON: an operator adds a value and a ticker to a board, changes the value's
// number and the ticker's text with the forms generated from the variants' shapes, saves once,
// and a playing web player shows both. The widgets' flows exist only from that save on.

/** The drawn widget (the renderer's) of a flow in the editor's preview. */
const drawn = (page: Page, tag: string) =>
  page.getByTestId('board-preview').locator(`[data-flow-tag="${tag}"]`);

async function addWidget(page: Page, variant: string) {
  await page.getByRole('button', { name: 'Add a widget' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a widget' });
  await dialog.getByRole('button', { name: variant, exact: true }).click();
  await expect(dialog.getByLabel("The new flow's tag")).toHaveValue(`ops-floor-${variant}`);
  await dialog.getByRole('button', { name: 'Add the widget' }).click();
  await expect(dialog).toBeHidden();
  await expect(drawn(page, `ops-floor-${variant}`)).toBeVisible();
}

test('an operator changes a value and a ticker with forms, saves once, and a screen shows them', async ({
  admin: page,
  stack,
  context,
}, testInfo) => {
  test.setTimeout(180_000);
  const board = await stack.api<{ id: string }>('POST', '/boards', { name: 'Ops floor' });
  await stack.startPlayer();
  await stack.waitOnline();
  const playlist = await stack.api<{ id: string }>('POST', '/playlists', {
    name: 'Ops floor',
    items: [{ type: 'board', board_id: board.id, duration: 60 }],
  });
  await stack.api('PATCH', `/devices/${stack.tag}`, { playlist_id: playlist.id });
  const player = await context.newPage();
  await player.goto(stack.playerUrl);
  await expect(player.locator('[data-board-name="Ops floor"]')).toBeVisible({ timeout: 15_000 });

  await page.bringToFront();
  await page.goto(`${stack.serviceUrl}/console/boards/${board.id}`);
  await addWidget(page, 'value');

  // The value's number, with the form (the default view).
  await page.getByTestId('editor-widget-value').click();
  const value = page.getByRole('textbox', { name: 'Value', exact: true });
  await value.fill('42');
  await expect(drawn(page, 'ops-floor-value')).toContainText('42');
  await page.getByRole('textbox', { name: 'Title', exact: true }).fill('Open tickets');
  // The JSON view shows the same draft.
  await page.getByText('Advanced (JSON)').click();
  await expect(page.getByRole('textbox', { name: 'Data (JSON)' })).toContainText('"value": 42');
  await page.getByText('Form', { exact: true }).click();

  await addWidget(page, 'tickertape');
  // Nothing is created before the save: a board left unsaved leaves no flow behind.
  const flows = async () => (await stack.api<{ tag: string }[]>('GET', '/flows')).map((flow) => flow.tag);
  expect(await flows()).not.toContain('ops-floor-value');

  // The ticker's text.
  await page.getByTestId('editor-widget-tickertape').click();
  const first = page.getByRole('textbox', { name: 'Message 1', exact: true });
  await first.fill('Fire drill at 3 pm');
  await expect(drawn(page, 'ops-floor-tickertape')).toContainText('Fire drill at 3 pm');
  await page.screenshot({ path: testInfo.outputPath('widget-forms-ticker.png'), fullPage: true });
  // The forms, checked by axe at a desktop's and a phone's width, with a running ticker drawn.
  await page.evaluate(() => window.scrollTo(0, 0));
  await checkPage(page, 'widget-forms');

  // One save: the board, the new flows and their data, together.
  await page.getByRole('button', { name: 'Save the board' }).click();
  await expect(page.getByTestId('editor-status')).toHaveText('Every change is saved');
  expect(await flows()).toEqual(expect.arrayContaining(['ops-floor-value', 'ops-floor-tickertape']));
  await expect(player.locator('[data-flow-tag="ops-floor-value"]')).toContainText('42', { timeout: 5000 });
  await expect(player.locator('[data-flow-tag="ops-floor-value"]')).toContainText('Open tickets');
  await expect(player.locator('[data-flow-tag="ops-floor-tickertape"]')).toContainText('Fire drill at 3 pm');
  await player.screenshot({ path: testInfo.outputPath('widget-forms-player.png') });

  // Changed again and saved again: the existing flow's data goes with the save.
  await page.getByTestId('editor-widget-value').click();
  await page.getByRole('textbox', { name: 'Value', exact: true }).fill('7');
  await page.getByRole('button', { name: 'Save the board' }).click();
  await expect(page.getByTestId('editor-status')).toHaveText('Every change is saved');
  await expect(player.locator('[data-flow-tag="ops-floor-value"]')).toContainText('7', { timeout: 5000 });
  await player.close();
});

test('a board left unsaved leaves no flow behind', async ({ admin: page, stack }) => {
  const board = await stack.api<{ id: string }>('POST', '/boards', { name: 'Scratch' });
  const before = await stack.api<unknown[]>('GET', '/flows');
  await page.goto(`${stack.serviceUrl}/console/boards/${board.id}`);
  await page.getByRole('button', { name: 'Add a widget' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a widget' });
  await dialog.getByRole('button', { name: 'gauge', exact: true }).click();
  await dialog.getByRole('button', { name: 'Add the widget' }).click();
  await expect(page.getByTestId('editor-status')).toHaveText('Unsaved changes');
  await page.getByRole('button', { name: 'Discard the changes' }).click();
  await expect(page.getByTestId('editor-status')).toHaveText('Every change is saved');
  expect(await stack.api<unknown[]>('GET', '/flows')).toEqual(before);
});
