import { ADMIN, consoleTest as test, expect, VIEWER } from './console-kit';

// A screen's QR code, followed by someone who is not signed in yet: the console asks who they are,
// then opens the pair dialog with the screen's code filled in.

test('the QR link of a screen opens the pair dialog with its code, after sign-in', async ({
  page,
  stack,
  context,
}, testInfo) => {
  test.setTimeout(60_000);
  await stack.startPlayer({ unpaired: true });
  const player = await context.newPage();
  await player.goto(stack.playerUrl);
  await expect(player.getByTestId('pairing-code')).toBeVisible();
  const code = (await player.getByTestId('pairing-code').textContent())?.replace(/\s/g, '') ?? '';
  // What the QR code holds, as a phone's camera would open it.
  const link = (await player.locator('svg.qr-code').getAttribute('data-qr-text')) ?? '';
  expect(link).toBe(`${stack.serviceUrl}/#/pair?code=${code}`);

  await page.bringToFront();
  await page.goto(link);
  await page.getByLabel('Login').fill(ADMIN.login);
  await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();

  const dialog = page.getByRole('dialog', { name: 'Pair a screen' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Code')).toHaveValue(code);
  // The name is what is left to type.
  await expect(dialog.getByLabel('Name')).toBeFocused();
  await expect(page).toHaveURL(`${stack.serviceUrl}/console/screens?pair=${code}`);
  await page.screenshot({ path: testInfo.outputPath('pair-link-dialog.png') });

  await dialog.getByLabel('Name').fill('Lobby');
  await dialog.getByRole('button', { name: 'Pair the screen' }).click();
  await expect(page).toHaveURL(new RegExp(`/console/screens/screen-${code.toLowerCase()}$`));
  await expect(page.getByRole('heading', { name: 'Lobby', level: 1 })).toBeVisible();
  // Back on the list, the link's code is spent: no dialog opens again.
  await page.goBack();
  await expect(page.getByRole('heading', { name: 'Screens', level: 1 })).toBeVisible();
  await expect(page).toHaveURL(`${stack.serviceUrl}/console/screens`);
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test('a viewer who follows the link is told that an admin must pair the screen', async ({ page, stack }) => {
  await page.goto(`${stack.serviceUrl}/#/pair?code=7K4QXM`);
  await page.getByLabel('Login').fill(VIEWER.login);
  await page.getByLabel('Password', { exact: true }).fill(VIEWER.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'A screen asks to be paired (code 7K4QXM)' }),
  ).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
});
