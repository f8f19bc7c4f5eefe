import { checkPage, consoleTest as test, expect, signIn, VIEWER } from './console-kit';

test('the flows list shows each flow with its variant, board and data, and a flow its shape', async ({
  admin: page,
  stack,
}) => {
  await stack.boardPlaylist('Operations', 'ops-cpu', 42, 30);
  await stack.api('POST', '/flows', { tag: 'ops-log', variant: 'log' });
  await stack.api('POST', '/flows/ops-log/error', { errored: true });

  await page.getByRole('link', { name: 'Flows' }).click();
  await expect(page.getByRole('heading', { name: 'Flows', level: 1 })).toBeVisible();
  const row = page.getByRole('row', { name: /ops-cpu/ });
  await expect(row).toContainText('value');
  await expect(row).toContainText('Operations');
  await expect(row).toContainText('Default');
  await expect(row).toContainText('"value":42');
  const errored = page.getByRole('row', { name: /ops-log/ });
  await expect(errored).toContainText('no data yet');
  await expect(errored).toContainText('errored');

  // The shape of any variant, from the schemas.
  await page.getByRole('combobox', { name: 'Variant' }).click();
  await page.getByRole('option', { name: 'gauge', exact: true }).click();
  await expect(page.getByRole('table', { name: 'Fields of a gauge' })).toContainText('value');
  await checkPage(page, 'flows');

  // A flow's page: its data now, and the shape of its variant with an example.
  await row.getByRole('link', { name: 'ops-cpu' }).click();
  await expect(page.getByRole('heading', { name: 'Flow ops-cpu' })).toBeVisible();
  await expect(page.getByTestId('flow-data')).toContainText('"value": 42');
  await expect(page.getByRole('table', { name: 'Fields of a value' })).toContainText('title');
  await expect(page.getByTestId('variant-example')).toContainText('value');
  await checkPage(page, 'flow');

  // The data is live: a write shows without reloading.
  await stack.api('PUT', '/flows/ops-cpu/metrics', { value: 77 });
  await expect(page.getByTestId('flow-data')).toContainText('"value": 77');
});

test('a viewer sees the flows', async ({ page, stack }) => {
  await stack.boardPlaylist('Operations', 'ops-cpu', 42, 30);
  await signIn(page, stack, VIEWER);
  await page.goto(`${stack.serviceUrl}/console/flows`);
  await expect(page.getByRole('row', { name: /ops-cpu/ })).toContainText('"value":42');
});
