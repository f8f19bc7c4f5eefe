import { checkPage, consoleTest as test, expect } from './console-kit';

// Sync groups in the console, only through the console (screens set up through the API): a 2 x 2
// wall made with its screens' size and bezels, and screens placed at its cells by name; the
// service then tells each screen its cell (docs/sync.md).

test('a wall is made and its screens placed on its grid', async ({ admin: page, stack }) => {
  test.setTimeout(90_000);
  for (const [tag, name] of [
    ['wall-tl', 'Lobby top left'],
    ['wall-tr', 'Lobby top right'],
    ['wall-bl', 'Lobby bottom left'],
  ]) {
    await stack.api('POST', '/devices', { tag, name });
  }
  await page.getByRole('link', { name: 'Sync groups' }).click();
  await page.getByRole('button', { name: 'New sync group' }).click();
  await page.getByLabel('Name').fill('Lobby wall');
  await page.getByLabel('Screens across').fill('2');
  await page.getByLabel('Screens down').fill('2');
  await page.getByLabel('Gap between side by side (mm)').fill('10');
  await page.getByRole('button', { name: 'Create the sync group' }).click();
  await expect(page.getByRole('heading', { name: 'Lobby wall' })).toBeVisible();

  const cell = (column: number, row: number) =>
    page.getByRole('combobox', { name: `Screen at column ${column}, row ${row}` });
  for (const [column, row, name] of [
    [1, 1, 'Lobby top left'],
    [2, 1, 'Lobby top right'],
    [1, 2, 'Lobby bottom left'],
  ] as const) {
    await cell(column, row).click();
    await page.getByRole('option', { name: new RegExp(`^${name}`) }).click();
    await expect(cell(column, row)).toHaveValue(new RegExp(`^${name}`));
  }
  await checkPage(page, 'sync-groups');

  const [group] = await stack.api<{ id: string; wall: { bezel_x_mm: number } }[]>('GET', '/sync-groups');
  expect(group?.wall?.bezel_x_mm).toBe(10);
  const members = await stack.api<unknown[]>('GET', `/sync-groups/${group?.id}/screens`);
  expect(members).toEqual([
    { device_tag: 'wall-bl', column: 0, row: 1 },
    { device_tag: 'wall-tl', column: 0, row: 0 },
    { device_tag: 'wall-tr', column: 1, row: 0 },
  ]);
  const settings = await stack.api<{ sync: { wall: { column: number; row: number } } }>(
    'GET',
    '/devices/wall-tr/settings',
  );
  expect(settings.sync.wall).toMatchObject({ column: 1, row: 0 });
});
