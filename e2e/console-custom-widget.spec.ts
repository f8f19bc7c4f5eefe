import type { Page } from '@playwright/test';
import { checkPage, consoleTest as test, expect } from './console-kit';

// A custom widget, only through the console: added from the gallery with the starter code,
// its JavaScript typed in the Code panel (the preview runs it as typed; undo takes it back), saved, and a playing
// screen (the web player) runs it in its sandbox with the flow's data.

/** The sandboxed frame of the custom widget of `tag`, on the editor's preview or on a screen. */
const sandbox = (page: Page, tag: string) => page.locator(`[data-flow-tag="${tag}"] iframe`).contentFrame();

test("a custom widget's code typed in the editor runs in the preview and on the screen", async ({
  admin: page,
  stack,
  context,
}) => {
  test.setTimeout(120_000);
  const board = await stack.api<{ id: string }>('POST', '/boards', { name: 'Studio' });
  await stack.startPlayer();
  await stack.waitOnline();
  const playlist = await stack.api<{ id: string }>('POST', '/playlists', {
    name: 'Studio',
    items: [{ type: 'board', board_id: board.id, duration: 60 }],
  });
  await stack.api('PATCH', `/devices/${stack.tag}`, { playlist_id: playlist.id });
  const player = await context.newPage();
  await player.goto(stack.playerUrl);
  await expect(player.locator('[data-board-name="Studio"]')).toBeVisible({ timeout: 15_000 });

  // The editor's tab in front: a background tab draws a frame a second.
  await page.bringToFront();
  await page.goto(`${stack.serviceUrl}/console/boards/${board.id}`);
  await page.getByRole('button', { name: 'Add a widget' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add a widget' });
  await dialog.getByRole('button', { name: 'custom', exact: true }).click();
  await expect(dialog.getByLabel("The new flow's tag")).toHaveValue('studio-custom');
  await dialog.getByRole('button', { name: 'Add the widget' }).click();
  await expect(dialog).toBeHidden();

  // The starter code draws the sample data's title, in the preview's sandbox.
  await expect(sandbox(page, 'studio-custom').getByText('Sprint burndown')).toBeVisible();

  // Typed JavaScript: the preview runs it once typing pauses.
  await page.getByRole('tab', { name: 'JavaScript' }).click();
  const editor = page.getByRole('textbox', { name: "The widget's JavaScript" });
  await editor.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(
    "wallboard.onData((data) => { document.getElementById('value').textContent = 'Custom: ' + data.title; });",
  );
  await expect(sandbox(page, 'studio-custom').getByText('Custom: Sprint burndown')).toBeVisible();
  await expect(page.getByTestId('editor-status')).toHaveText('Unsaved changes');
  // The typing is one step of the editor's history: undone, the starter runs again; redone, it is back.
  await page.getByRole('button', { name: 'Undo' }).click();
  await expect(sandbox(page, 'studio-custom').locator('#title')).toHaveText('Sprint burndown');
  await expect(editor).toContainText('wallboard.size');
  await page.getByRole('button', { name: 'Redo' }).click();
  await expect(sandbox(page, 'studio-custom').getByText('Custom: Sprint burndown')).toBeVisible();
  await expect(editor).toContainText("'Custom: ' + data.title");
  await page.evaluate(() => window.scrollTo(0, 0));
  // Nothing hovered: a hovered table header is drawn in colours axe rightly faults.
  await page.mouse.move(0, 0);
  await checkPage(page, 'board-editor-custom');

  // Saved: the screen runs the code with the flow's data, and its updates.
  await page.getByRole('button', { name: 'Save the board' }).click();
  await expect(page.getByTestId('editor-status')).toHaveText('Every change is saved');
  await expect(sandbox(player, 'studio-custom').getByText('Custom: Sprint burndown')).toBeVisible({
    timeout: 5000,
  });
  await stack.api('PUT', '/flows/studio-custom/metrics', { title: 'Release' });
  await expect(sandbox(player, 'studio-custom').getByText('Custom: Release')).toBeVisible();
  const [widget] = await stack.api<{ code: { script: string } | null }[]>(
    'GET',
    `/boards/${board.id}/widgets`,
  );
  expect(widget?.code?.script).toContain("'Custom: ' + data.title");
  await player.close();
});
