import { fileURLToPath } from 'node:url';
import { ADMIN, checkPage, consoleTest as test, expect, signIn } from './console-kit';

// Issue 15's walk, only through the console, against the real service and a real web player: sign
// in; pair a new screen by the code it shows; upload an image; build a playlist of a board and
// that image; assign it; the screen shows the board, then the image; send a notification and see
// it on the screen; take a screenshot from the console and see it there; sign out. The board
// itself comes through the API: building boards in the console is the board editor's (issue 16).

const PICTURE = fileURLToPath(new URL('./assets/picture.png', import.meta.url));

test('an operator runs a new screen from the console, from pairing to signing out', async ({
  page,
  stack,
  context,
}) => {
  test.setTimeout(180_000);
  await stack.api('POST', '/boards/import', {
    name: 'Welcome board',
    widgets: [
      {
        flow: { tag: 'welcome-visitors', data: { value: 128 } },
        variant: 'value',
        column: 0,
        row: 0,
        width: 16,
        height: 10,
      },
    ],
  });
  await stack.startPlayer({ unpaired: true });
  const screen = await context.newPage();
  await screen.setViewportSize({ width: 960, height: 540 });
  await screen.goto(stack.playerUrl);
  const code = ((await screen.getByTestId('pairing-code').textContent()) ?? '').replace(/\s/g, '');

  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`${stack.serviceUrl}/console/`);
  await expect(page.getByRole('heading', { name: 'Sign in to Wallboard' })).toBeVisible();
  await checkPage(page, 'sign-in');
  await signIn(page, stack, ADMIN);

  // Pair the screen by its code: the console opens its page, and it comes online.
  await page.getByRole('button', { name: 'Pair a screen' }).click();
  const pairing = page.getByRole('dialog', { name: 'Pair a screen' });
  await pairing.getByLabel('Code').fill(code);
  await pairing.getByLabel('Name').fill('Lobby');
  await pairing.getByRole('button', { name: 'Pair the screen' }).click();
  await expect(page.getByRole('heading', { name: 'Lobby', level: 1 })).toBeVisible();
  await expect(page.getByTestId('online-state')).toHaveText('Online', { timeout: 20_000 });
  const tag = page.url().split('/').pop() ?? '';

  // Upload an image to the library.
  await page.getByRole('link', { name: 'Media' }).click();
  await page.getByLabel('Files to upload', { exact: true }).setInputFiles(PICTURE);
  await expect(page.getByRole('article', { name: 'picture.png' }).getByRole('img')).toBeVisible();

  // A playlist of the board and the image, five seconds each.
  await page.getByRole('link', { name: 'Playlists' }).click();
  await page.getByRole('button', { name: 'New playlist' }).click();
  await page.getByRole('dialog').getByLabel('Name').fill('Lobby loop');
  await page.getByRole('button', { name: 'Create the playlist' }).click();
  await page.getByRole('button', { name: 'Add a board' }).click();
  await page.getByRole('dialog').getByLabel('Board').click();
  await page.getByRole('option', { name: 'Welcome board' }).click();
  await page.getByRole('button', { name: 'Add the board' }).click();
  await page.getByRole('button', { name: 'Add from the library' }).click();
  await page.getByRole('button', { name: 'Add picture.png' }).click();
  const items = page.getByRole('list', { name: 'Items, in the order they play' }).getByRole('listitem');
  await items.nth(0).getByLabel('Seconds').fill('5');
  await items.nth(1).getByLabel('Seconds').fill('5');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('You have unsaved changes')).toHaveCount(0);

  // Assigned to the screen with the page's one Save; the screen shows the board, then the image.
  await page.getByRole('combobox', { name: 'Screens that play it' }).click();
  await page.getByRole('option', { name: `Lobby (${tag})` }).click();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('You have unsaved changes')).toHaveCount(0);
  await expect(screen.locator('[data-board-name="Welcome board"]')).toBeVisible({ timeout: 15_000 });
  await expect(screen.locator('.player-layer-active img.player-media')).toBeVisible({ timeout: 15_000 });

  // A notification, composed and sent from the console, on the screen.
  await page.getByRole('link', { name: 'Notifications' }).click();
  await page.getByLabel('Title').fill('Visitors');
  await page.getByLabel('Message').fill('The lobby opens at nine');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(screen.locator('.player-notification')).toContainText('The lobby opens at nine', {
    timeout: 10_000,
  });

  // A screenshot taken from the console, seen there.
  await page.getByRole('link', { name: 'Screens' }).click();
  await page.getByTestId('screen-row').filter({ hasText: 'Lobby' }).getByRole('link').first().click();
  await page.getByRole('button', { name: 'Take a screenshot' }).click();
  const shot = page.getByTestId('screenshot');
  await expect(shot).toBeVisible({ timeout: 20_000 });
  await expect.poll(() => shot.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(960);

  // Signed out: back to the sign-in page, and the session is gone for the API too.
  await page.getByRole('button', { name: /, signed in$/ }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page.getByRole('heading', { name: 'Sign in to Wallboard' })).toBeVisible();
  expect(await page.evaluate(async () => (await fetch('/session')).status)).toBe(401);
});
