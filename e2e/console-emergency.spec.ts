import { checkPage, consoleTest as test, expect, signIn, VIEWER } from './console-kit';

test('an admin puts an emergency message on a group from the console, a screen shows it, and clearing gives the board back', async ({
  admin: page,
  stack,
  context,
}) => {
  test.setTimeout(90_000);
  // A real screen (the web player) in the group Lobby, playing a board.
  await stack.startPlayer();
  const screen = await context.newPage();
  await screen.setViewportSize({ width: 1280, height: 720 });
  await screen.goto(stack.playerUrl);
  await expect(screen.getByTestId('device-tag')).toHaveText(stack.tag);
  const group = await stack.api<{ id: string }>('POST', '/groups', { name: 'Lobby' });
  const playlist = await stack.boardPlaylist('Welcome', 'welcome-cpu', 12, 60);
  await stack.api('PATCH', `/devices/${stack.tag}`, { playlist_id: playlist, group_id: group.id });
  await expect(screen.locator('[data-board-name="Welcome"]')).toBeVisible();

  await page.getByRole('link', { name: 'Emergency' }).click();
  await expect(page.getByRole('heading', { name: 'Emergency', level: 1 })).toBeVisible();
  await expect(page.getByText('No emergency message is on the screens')).toBeVisible();

  // A group left unchosen is said before anything is sent.
  await page.getByRole('textbox', { name: 'Title' }).fill('Fire alarm');
  await page.getByRole('textbox', { name: 'Message' }).fill('Leave the building by the nearest exit.');
  await page.getByRole('combobox', { name: 'Show it on' }).click();
  await page.getByRole('option', { name: 'The screens of a group' }).click();
  await page.getByRole('button', { name: 'Put on screen' }).click();
  await expect(page.getByText('Choose where the message goes')).toBeVisible();
  await page.getByRole('combobox', { name: 'Group' }).click();
  await page.getByRole('option', { name: 'Lobby' }).click();
  await expect(page.getByRole('img', { name: 'How the screens show it' })).toContainText('Fire alarm');
  await checkPage(page, 'emergency');

  // The confirmation says how many screens it takes over; the screen shows it.
  await page.getByRole('button', { name: 'Put on screen' }).click();
  const dialog = page.getByRole('dialog', { name: 'Take over the screens?' });
  await expect(dialog).toContainText('the 1 screen of Lobby');
  await dialog.getByRole('button', { name: 'Put it on screen' }).click();
  const onScreen = page.getByRole('alert', { name: 'On screen: Fire alarm' });
  await expect(onScreen).toContainText('Group Lobby');
  await expect(screen.getByText('Leave the building by the nearest exit.')).toBeVisible();
  const history = page.getByRole('table', { name: 'Emergency messages' });
  await expect(history.getByRole('row').nth(1)).toContainText('user "ada"');

  // Cleared from the console: the board comes back, and the history says who cleared it.
  await onScreen.getByRole('button', { name: 'Clear' }).click();
  await page
    .getByRole('dialog', { name: 'Clear the message?' })
    .getByRole('button', { name: 'Clear it' })
    .click();
  await expect(page.getByText('No emergency message is on the screens')).toBeVisible();
  await expect(screen.getByText('Leave the building by the nearest exit.')).toBeHidden();
  await expect(screen.locator('[data-board-name="Welcome"]')).toBeVisible();
  await expect(history.getByRole('row').nth(1)).toContainText('by user "ada"');
});

test('a viewer sees what is on the screens but cannot raise or clear a message', async ({ page, stack }) => {
  await stack.api('POST', '/overrides', {
    title: 'Drill',
    message: 'This is a drill.',
    target: { all: true },
  });
  await signIn(page, stack, VIEWER);
  await page.getByRole('link', { name: 'Emergency' }).click();
  await expect(page.getByRole('alert', { name: 'On screen: Drill' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Clear' })).toHaveCount(0);
  await expect(page.getByRole('textbox', { name: 'Title' })).toBeDisabled();
});
