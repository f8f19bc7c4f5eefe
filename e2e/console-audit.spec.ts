import { checkPage, consoleTest as test, expect, signIn, VIEWER } from './console-kit';

test('an admin reads who changed a board, in words, filters the trail and exports it', async ({
  admin: page,
  stack,
}) => {
  const board = (await stack.api('POST', '/boards', { name: 'Lobby' })) as { id: string };
  await stack.api('PATCH', `/boards/${board.id}`, { name: 'Front lobby' });
  await stack.api('POST', '/account/tokens', { scope: 'readonly', name: 'kiosk' });

  await page.getByRole('link', { name: 'Audit trail' }).click();
  await expect(page.getByRole('heading', { name: 'Audit trail' })).toBeVisible();
  const table = page.getByRole('table', { name: 'Audit trail' });
  // The admin's own sign-in is there too.
  await expect(table.getByRole('row', { name: /ada .*Session.*Signed in/ })).toBeVisible();
  const changed = table.getByRole('row', { name: /Board “Front lobby” Changed/ });
  await expect(changed).toBeVisible();
  // Away from the link just clicked: axe would measure its hover colour.
  await page.mouse.move(700, 750);
  await checkPage(page, 'audit');

  await changed.getByRole('button', { name: /^Details/ }).click();
  const dialog = page.getByRole('dialog', { name: 'What changed' });
  const name = dialog.getByRole('row', { name: /^Name/ });
  await expect(name).toContainText('Lobby');
  await expect(name).toContainText('Front lobby');
  await checkPage(page, 'audit-details');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // Tokens only: the kiosk's creation, its secret hidden.
  await page.getByRole('combobox', { name: 'What' }).click();
  await page.getByRole('option', { name: 'Token', exact: true }).click();
  await expect(table.getByRole('row', { name: /Board/ })).toHaveCount(0);
  await table
    .getByRole('row', { name: /Token “kiosk” Created/ })
    .getByRole('button')
    .click();
  await expect(dialog.getByRole('row', { name: /^Secret hash/ })).toContainText('(secret, hidden)');
  await page.keyboard.press('Escape');

  const csv = page.getByRole('link', { name: 'Export CSV' });
  const href = (await csv.getAttribute('href')) ?? '';
  expect(href).toContain('resource=tokens');
  const answer = await page.request.get(new URL(href, page.url()).toString());
  expect(answer.headers()['content-type']).toContain('text/csv');
  expect(await answer.text()).toContain('kiosk');
  const json = await page.request.get(
    new URL(
      (await page.getByRole('link', { name: 'Export JSON' }).getAttribute('href')) ?? '',
      page.url(),
    ).toString(),
  );
  expect(((await json.json()) as { resource: string }[]).every((entry) => entry.resource === 'tokens')).toBe(
    true,
  );
});

test('a viewer is not shown the audit trail', async ({ page, stack }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, stack, VIEWER);
  await expect(page.getByRole('link', { name: 'Users' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Audit trail' })).toHaveCount(0);
});
