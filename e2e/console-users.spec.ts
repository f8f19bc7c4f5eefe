import { checkPage, consoleTest as test, expect, signIn } from './console-kit';

test('an admin adds a user who then signs in, changes their role and removes them', async ({
  admin: page,
  stack,
  browser,
}) => {
  await page.getByRole('link', { name: 'Users' }).click();
  await page.getByRole('button', { name: 'Add a user' }).click();
  await page.getByLabel('Login').fill('grace');
  await page.getByLabel('Password', { exact: true }).fill('short');
  await page.getByRole('button', { name: 'Add the user' }).click();
  // The service's own rule, said on the field.
  await expect(page.getByText(/^must have \d+ to 1024 characters$/)).toBeVisible();
  await page.getByRole('button', { name: 'Generate' }).click();
  await page.getByRole('button', { name: 'Add the user' }).click();
  const password = (await page.getByTestId('secret').textContent()) ?? '';
  expect(password).toMatch(/^\S{18}$/);
  await page.getByRole('button', { name: 'Done' }).click();

  const other = await browser.newPage();
  await signIn(other, stack, { login: 'grace', password });
  await expect(other.getByRole('button', { name: 'Pair a screen' })).toBeDisabled();
  await other.close();

  const row = page.getByRole('row', { name: /grace/ });
  await row.getByRole('combobox', { name: 'Role of grace' }).click();
  await page.getByRole('option', { name: 'admin' }).click();
  await expect(row.getByRole('combobox', { name: 'Role of grace' })).toHaveValue('admin');
  await checkPage(page, 'users');

  await row.getByRole('button', { name: 'Remove grace' }).click();
  await page.getByRole('button', { name: 'Remove the user' }).click();
  await expect(row).toHaveCount(0);
});

test('the last admin cannot demote themself', async ({ admin: page }) => {
  await page.getByRole('link', { name: 'Users' }).click();
  const row = page.getByRole('row', { name: /ada/ });
  await row.getByRole('combobox', { name: 'Role of ada' }).click();
  await page.getByRole('option', { name: 'viewer' }).click();
  await expect(row.getByRole('alert')).toContainText('last admin');
});
