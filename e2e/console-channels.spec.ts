import { checkPage, consoleTest as test, expect } from './console-kit';

// Channels through the console: one created, renamed, followed by a board (chosen in the board's
// settings), and deleted; a notification sent to it reaches the screen of the board following it.

test('a channel is created, followed by a board, reaches its screen, and is deleted', async ({
  admin: page,
  stack,
  context,
}) => {
  test.setTimeout(90_000);
  const playlist = await stack.boardPlaylist('Kitchen', 'kitchen-value', 3, 60);
  const board = (await stack.api<{ id: string; name: string }[]>('GET', '/boards')).find(
    (one) => one.name === 'Kitchen',
  )!;
  await stack.startPlayer();
  await stack.waitOnline();
  await stack.api('PATCH', `/devices/${stack.tag}`, { playlist_id: playlist });
  const screen = await context.newPage();
  await screen.setViewportSize({ width: 1280, height: 720 });
  await screen.goto(stack.playerUrl);
  await expect(screen.locator('[data-board-name="Kitchen"]')).toBeVisible({ timeout: 15_000 });

  await page.getByRole('link', { name: 'Channels' }).click();
  await expect(page.getByRole('heading', { name: 'Channels', level: 1 })).toBeVisible();
  await expect(page.getByRole('row', { name: /Default default/ })).toBeVisible();

  // Created from Default, its tag made from its name; then renamed.
  await page.getByRole('button', { name: 'New channel' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill('Kitchen news');
  await dialog.getByRole('button', { name: 'Create the channel' }).click();
  const row = page.getByRole('row', { name: /^Kitchen news/ });
  await expect(row).toContainText('kitchen-news');
  await expect(row).toContainText('Default');
  await row.getByRole('button', { name: 'Edit Kitchen news' }).click();
  await page.getByRole('dialog').getByLabel('Name').fill('Kitchen');
  await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
  const renamed = page.getByRole('row', { name: /^Kitchen kitchen-news/ });
  await expect(renamed).toBeVisible();
  await checkPage(page, 'channels');

  // The board follows it, from its settings.
  await page.goto(`${stack.serviceUrl}/console/boards/${board.id}`);
  await page.getByRole('tab', { name: 'Board settings' }).click();
  const settings = page.getByRole('form', { name: 'Board settings' });
  await settings.getByRole('combobox', { name: 'Channels' }).click();
  await page.getByRole('option', { name: 'Kitchen' }).click();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Save the board' }).click();
  const kitchen = (await stack.api<{ id: string; tag: string }[]>('GET', '/channels')).find(
    (channel) => channel.tag === 'kitchen-news',
  )!;
  const follows = async () =>
    (await stack.api<{ channel_ids: string[] }>('GET', `/boards/${board.id}`)).channel_ids.includes(
      kitchen.id,
    );
  await expect.poll(follows).toBe(true);
  await page.getByRole('link', { name: 'Channels' }).click();
  await expect(page.getByRole('row', { name: /^Kitchen kitchen-news/ })).toContainText('Kitchen');

  // A notification to it reaches the screen showing the board.
  await stack.api('POST', '/channels/kitchen-news/notifications', {
    title: 'Lunch',
    message: 'Soup is ready',
  });
  await expect(screen.getByRole('status')).toContainText('Soup is ready');

  // Deleted: the board follows it no longer.
  await page
    .getByRole('row', { name: /^Kitchen kitchen-news/ })
    .getByRole('button', { name: 'Delete Kitchen' })
    .click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete the channel' }).click();
  await expect(page.getByRole('row', { name: /^Kitchen kitchen-news/ })).toHaveCount(0);
  await expect.poll(follows).toBe(false);
});
