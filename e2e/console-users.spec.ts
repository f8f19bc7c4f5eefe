import { join } from 'node:path';
import { runServiceCommand } from '../service/service-process';
import { checkPage, consoleTest as test, expect, signIn, VIEWPORTS } from './console-kit';

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
  // Asked first: nothing changes until the grant is confirmed.
  const confirm = page.getByRole('dialog', { name: 'Make grace an admin?' });
  await expect(confirm).toContainText('grace becomes admin: changes everything');
  expect(
    (await stack.api<{ login: string; role: string }[]>('GET', '/users')).find((u) => u.login === 'grace')
      ?.role,
  ).toBe('viewer');
  await confirm.getByRole('button', { name: 'Make grace an admin' }).click();
  await expect(row.getByRole('combobox', { name: 'Role of grace' })).toHaveValue('admin');
  expect(
    (await stack.api<{ login: string; role: string }[]>('GET', '/users')).find((u) => u.login === 'grace')
      ?.role,
  ).toBe('admin');
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
  await page.getByRole('button', { name: 'Make ada a viewer' }).click();
  await expect(row.getByRole('alert')).toContainText('last admin');
});

test("a user of a hosted service's account sees its name beside their own", async ({ page, stack }) => {
  // Accounts are made on the service's machine, with the embedded store stopped.
  await stack.service?.stop();
  const data = ['--data', join(stack.dir, 'service')];
  const made = await runServiceCommand(['account', 'create', '--name', 'Acme Signage', ...data], 'built');
  expect(made.code, made.stderr).toBe(0);
  const created = await runServiceCommand(
    ['user', 'create', '--role', 'admin', '--login', 'ops', '--account', made.stdout.trim(), ...data],
    'built',
  );
  expect(created.code, created.stderr).toBe(0);
  // No password was given on stdin: one was generated and printed.
  const password = /\(shown once\): (\S+)/.exec(created.stdout)?.[1] ?? '';
  await stack.startService();

  await page.setViewportSize(VIEWPORTS.phone);
  await signIn(page, stack, { login: 'ops', password });
  const me = page.getByRole('button', { name: 'ops admin Acme Signage, signed in' });
  await expect(me).toContainText('Acme Signage');
  // At a phone's width too, the user and the account sit inside the header.
  const [header, button] = [await page.getByRole('banner').boundingBox(), await me.boundingBox()];
  expect((button?.y ?? 0) + (button?.height ?? 0)).toBeLessThanOrEqual(
    (header?.y ?? 0) + (header?.height ?? 0),
  );
  await checkPage(page, 'account-header');
});
