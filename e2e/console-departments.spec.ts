import { startOidcProvider, type TestProvider } from '../service/testing/oidc-provider';
import { checkPage, consoleTest, expect } from './console-kit';

// Issue 33's acceptance, as a department rolling screens out would live it: the lobby's editor
// signs in through the organisation's identity provider (a real OpenID provider on loopback), is
// kept to the lobby's screens by the group their claims map to, changes the lobby's board, finds
// the warehouse's screen as absent as another account's (404), and the change is in the audit
// trail with what it was before and after, which an admin exports as CSV.

const test = consoleTest.extend<{ provider: TestProvider }>({
  provider: async ({ stack }, use) => {
    const provider = await startOidcProvider([`${stack.serviceUrl}/session/sso/callback`]);
    await use(provider);
    await provider.close();
  },
});

test('a department editor signs in by single sign-on, changes its board, not another department’s screen, and is audited', async ({
  admin: page,
  provider,
  stack,
  browser,
}) => {
  const made = async (url: string, body: unknown) => (await stack.api('POST', url, body)) as { id: string };
  const department = async (name: string) => {
    const group = await made('/groups', { name });
    const board = await made('/boards', { name: `${name} welcome` });
    const items = [{ type: 'board', board_id: board.id, duration: 10 }];
    const playlist = await made('/playlists', { name: `${name} loop`, items });
    const tag = `${name.toLowerCase()}-screen`;
    await made('/devices', { tag, group_id: group.id, playlist_id: playlist.id });
    return { group, board, tag };
  };
  const lobby = await department('Lobby');
  const warehouse = await department('Warehouse');
  await stack.api('PUT', '/account/sso', {
    issuer: provider.issuer,
    client_id: provider.clientId,
    client_secret: provider.clientSecret,
    scopes: ['groups'],
    role_claim: 'roles',
    role_map: { 'signage-editors': 'editor' },
    group_claim: 'groups',
    group_map: { 'dept-lobby': lobby.group.id, 'dept-warehouse': warehouse.group.id },
  });
  provider.people.set('lee-sub', {
    preferred_username: 'lee',
    roles: ['signage-editors'],
    groups: ['dept-lobby'],
  });

  const editor = await browser.newPage();
  await editor.setViewportSize({ width: 1280, height: 800 });
  await editor.goto(`${stack.serviceUrl}/console/`);
  await editor.getByRole('link', { name: 'Sign in with single sign-on' }).click();
  await expect(editor).toHaveURL(new RegExp(`^${provider.issuer}/interaction/`));
  await editor.locator('input[name="login"]').fill('lee-sub');
  await editor.locator('input[name="password"]').fill('any password');
  await editor.getByRole('button', { name: 'Sign-in' }).click();
  await expect(editor.getByRole('button', { name: /^lee editor, signed in/ })).toBeVisible();

  // The lobby's screen is theirs to see; the warehouse's is not there at all.
  const screens = editor.getByRole('table', { name: 'Screens: 1 of 1' });
  await expect(screens.getByRole('row', { name: /lobby-screen/ })).toBeVisible();
  await expect(screens.getByRole('row', { name: /warehouse-screen/ })).toHaveCount(0);
  const theirs = await editor.request.get(`${stack.serviceUrl}/devices/warehouse-screen`);
  expect(theirs.status()).toBe(404);
  const itsStatus = await editor.request.get(`${stack.serviceUrl}/devices/warehouse-screen/status`);
  expect(itsStatus.status()).toBe(404);
  await editor.goto(`${stack.serviceUrl}/console/screens/warehouse-screen`);
  await expect(editor.getByText('Screen warehouse-screen could not be shown')).toBeVisible();
  await expect(editor.getByText('device warehouse-screen not found')).toBeVisible();

  // Their board, changed through the board's own form.
  await editor.goto(`${stack.serviceUrl}/console/boards/${lobby.board.id}`);
  await editor.getByRole('tab', { name: 'Board settings' }).click();
  await editor
    .getByRole('form', { name: 'Board settings' })
    .getByRole('textbox', { name: 'Name' })
    .fill('Lobby news');
  await editor.getByRole('button', { name: 'Save the board' }).click();
  await expect(editor.getByTestId('editor-status')).toHaveText('Every change is saved');
  // The warehouse's board is read, not changed: the service refuses, and says why.
  const board = await editor.request.patch(`${stack.serviceUrl}/boards/${warehouse.board.id}`, {
    headers: { 'x-wallboard-csrf': '1' },
    data: { name: 'Taken' },
  });
  expect(board.status()).toBe(403);
  expect(await board.text()).toContain('plays on screens outside your groups');
  expect(((await stack.api('GET', `/boards/${warehouse.board.id}`)) as { name: string }).name).toBe(
    'Warehouse welcome',
  );
  await editor.close();

  // The admin finds the change, by whom, with before and after, and exports the trail.
  await page.getByRole('link', { name: 'Audit trail' }).click();
  const table = page.getByRole('table', { name: 'Audit trail' });
  const changed = table.getByRole('row', { name: /lee .*Board “Lobby news” Changed/ });
  await expect(changed).toBeVisible();
  await changed.getByRole('button', { name: /^Details/ }).click();
  const name = page.getByRole('dialog', { name: 'What changed' }).getByRole('row', { name: /^Name/ });
  await expect(name).toContainText('Lobby welcome');
  await expect(name).toContainText('Lobby news');
  await checkPage(page, 'audit-department-change');
  await page.keyboard.press('Escape');
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Export CSV' }).click();
  const csv = await (await download).path();
  const text = await import('node:fs/promises').then((fs) => fs.readFile(csv, 'utf8'));
  const line = text.split('\n').find((row) => row.includes('lee') && row.includes('Lobby news'));
  expect(line, text.slice(0, 500)).toBeDefined();
  expect(line).toContain('Lobby welcome');
});
