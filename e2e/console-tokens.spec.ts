import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { checkPage, consoleTest as test, expect, signIn, VIEWER } from './console-kit';

const run = promisify(execFile);

test('an admin creates a token, copies its secret once, and revokes it', async ({ admin: page }) => {
  await page.getByRole('link', { name: 'Tokens' }).click();
  await expect(page.getByRole('heading', { name: 'Tokens' })).toBeVisible();
  await page.getByRole('button', { name: 'New token' }).click();
  await page.getByLabel('Reading only').check();
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

test("a token for a script pushing data: the form asks what it is for, and its curl sets a flow's value", async ({
  admin: page,
  stack,
}, testInfo) => {
  await stack.api('POST', '/flows', { tag: 'orders-today', variant: 'value' });
  await page.getByRole('link', { name: 'Tokens' }).click();
  await page.getByRole('button', { name: 'New token' }).click();
  const dialog = page.getByRole('dialog', { name: 'New token' });
  // Nothing is chosen for the operator.
  await dialog.getByLabel('Name').fill('nightly orders');
  await dialog.getByRole('button', { name: 'Create the token' }).click();
  await expect(dialog).toContainText('Choose what the token is for');
  await dialog.getByLabel('A script or integration pushing data').check();
  // The screen's field is a screen token's only.
  await expect(dialog.getByLabel('Screen', { exact: true })).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath('token-purpose.png') });
  await dialog.getByRole('button', { name: 'Create the token' }).click();

  const created = page.getByRole('dialog', { name: 'Token created' });
  const secret = (await created.getByTestId('secret').textContent()) ?? '';
  const command = (await created.getByTestId('token-usage').textContent()) ?? '';
  expect(command).toBe(
    `curl -X PATCH ${stack.serviceUrl}/flows/FLOW-TAG/metrics -H 'Authorization: Bearer ${secret}' -H 'content-type: application/json' -d '{"value": 42}'`,
  );
  await page.screenshot({ path: testInfo.outputPath('token-created.png') });
  // The command as shown, with the flow's tag in: the service takes the value.
  const { stdout } = await run('sh', [
    '-c',
    `${command.replace('FLOW-TAG', 'orders-today')} --silent --show-error --fail-with-body`,
  ]);
  expect(JSON.parse(stdout)).toEqual({ value: 42 });
  await expect.poll(() => stack.api('GET', '/flows/orders-today/metrics')).toEqual({ value: 42 });
  await created.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByRole('row', { name: /nightly orders/ })).toContainText('affiliated');
});

test('a token for a screen may be bound to it, and says how to start the screen', async ({
  admin: page,
  stack,
}) => {
  await stack.api('POST', '/devices', { tag: 'lobby' });
  await page.getByRole('link', { name: 'Tokens' }).click();
  await page.getByRole('button', { name: 'New token' }).click();
  const dialog = page.getByRole('dialog', { name: 'New token' });
  await dialog.getByLabel('A screen', { exact: true }).check();
  await dialog.getByLabel('Name').fill('lobby screen');
  await dialog.getByLabel('Screen', { exact: true }).fill('lobby');
  await dialog.getByRole('button', { name: 'Create the token' }).click();
  const created = page.getByRole('dialog', { name: 'Token created' });
  const secret = (await created.getByTestId('secret').textContent()) ?? '';
  await expect(created.getByTestId('token-usage')).toHaveText(
    `npm start -- --server ${stack.serviceUrl} --token ${secret} --tag lobby`,
  );
  await created.getByRole('button', { name: 'Done' }).click();
  const row = page.getByRole('row', { name: /lobby screen/ });
  await expect(row).toContainText('affiliated');
  await expect(row).toContainText('lobby');
});

test('a viewer sees the tokens and cannot create one', async ({ page, stack }) => {
  await signIn(page, stack, VIEWER);
  await page.goto(`${stack.serviceUrl}/console/tokens`);
  await expect(page.getByRole('button', { name: 'New token' })).toBeDisabled();
});
