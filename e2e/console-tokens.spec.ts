import { checkPage, consoleTest as test, expect, signIn, VIEWER } from './console-kit';

test('an admin creates a token, copies its secret once, and revokes it', async ({ admin: page }) => {
  await page.getByRole('link', { name: 'Tokens' }).click();
  await expect(page.getByRole('heading', { name: 'Tokens' })).toBeVisible();
  await page.getByRole('button', { name: 'New token' }).click();
  await page.getByLabel('Name').fill('wall in the lobby');
  await page.getByRole('button', { name: 'Create the token' }).click();
  await expect(page.getByTestId('secret')).toHaveText(/\S{20,}/);
  await page.getByRole('button', { name: 'Done' }).click();
  const row = page.getByRole('row', { name: /wall in the lobby/ });
  await expect(row).toContainText('readonly');
  // Checked once the dialog has faded out: axe would read its fading button as faint text.
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await checkPage(page, 'tokens');
  await row.getByRole('button', { name: 'Revoke wall in the lobby' }).click();
  await page.getByRole('button', { name: 'Revoke the token' }).click();
  await expect(row).toHaveCount(0);
});

test('a viewer sees the tokens and cannot create one', async ({ page, stack }) => {
  await signIn(page, stack, VIEWER);
  await page.goto(`${stack.serviceUrl}/console/tokens`);
  await expect(page.getByRole('button', { name: 'New token' })).toBeDisabled();
});
