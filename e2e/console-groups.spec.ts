import { checkPage, consoleTest as test, expect, signIn, VIEWER } from './console-kit';

// Groups and schedules in the console, only through the console (playlists and a screen set up
// through the API): a group made, given a playlist, a schedule (an overlap refused as typed, the
// week drawn), off hours and a rotation; a screen put in it, whose page says what it now comes to.
// Each page is one draft: nothing is written before its one Save (docs/console.md, "Saving and
// bulk work").

test('a group gets a schedule, off hours and a rotation, and a screen takes them', async ({
  admin: page,
  stack,
}) => {
  test.setTimeout(120_000);
  const day = await stack.boardPlaylist('Day', 'day-value', 1, 30);
  await stack.boardPlaylist('Night', 'night-value', 2, 30);
  await stack.api('POST', '/devices', { tag: 'hall-1', name: 'Hall 1' });

  await page.getByRole('link', { name: 'Groups', exact: true }).click();
  await page.getByRole('button', { name: 'New group' }).click();
  await page.getByRole('dialog').getByLabel('Name').fill('Lobby');
  await page.getByRole('button', { name: 'Create the group' }).click();
  await expect(page.getByRole('heading', { name: 'Group Lobby', level: 1 })).toBeVisible();
  const form = page.getByRole('group', { name: 'What it plays' });

  await form.getByRole('combobox', { name: 'Playlist' }).click();
  await page.getByRole('option', { name: 'Day' }).click();
  await form.getByRole('switch', { name: 'Play by a schedule' }).check();
  await form.getByRole('button', { name: 'Add an entry' }).click();
  const first = form.getByRole('group', { name: 'Entry 1' });
  await first.getByRole('combobox', { name: 'Playlist' }).click();
  await page.getByRole('option', { name: 'Night' }).click();
  await first.getByLabel('From', { exact: true }).fill('18:00');
  await first.getByLabel('To', { exact: true }).fill('08:00');

  // The same window again at the same priority: neither would win, so it is refused as typed.
  await form.getByRole('button', { name: 'Add an entry' }).click();
  const second = form.getByRole('group', { name: 'Entry 2' });
  await second.getByLabel('From', { exact: true }).fill('18:00');
  await second.getByLabel('To', { exact: true }).fill('08:00');
  await expect(second.getByRole('alert')).toContainText('overlaps entry 1');
  await expect(page.getByRole('button', { name: 'Save', exact: true })).toBeDisabled();
  await second.getByLabel('Priority').fill('5');
  await expect(second.getByRole('alert')).toHaveCount(0);
  await form.getByRole('button', { name: 'Remove entry 2' }).click();

  await form.getByRole('switch', { name: 'Turn the screen off at set hours' }).check();
  await form.getByRole('button', { name: 'Add an off window' }).click();
  await form.getByText('90°', { exact: true }).click();
  await expect(form.getByTestId('week-view')).toBeVisible();
  await checkPage(page, 'group');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Group Lobby saved')).toBeVisible();
  await expect(page.getByText('You have unsaved changes')).toHaveCount(0);

  const [group] = await stack.api<
    {
      id: string;
      playlist_id: string;
      rotation: number;
      schedule: { entries: { from: string; to: string }[] };
    }[]
  >('GET', '/groups');
  expect(group).toMatchObject({ playlist_id: day, rotation: 90 });
  expect(group!.schedule.entries).toMatchObject([{ from: '18:00', to: '08:00' }]);

  // A screen joins (saved with the page's one Save); its page says what it now comes to.
  await page.getByRole('combobox', { name: 'Add screens' }).click();
  await page.getByRole('option', { name: 'Hall 1' }).click();
  await page.getByRole('button', { name: 'Add to the group' }).click();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('You have unsaved changes')).toHaveCount(0);
  await page.getByRole('link', { name: 'Hall 1' }).click();
  await expect(page.getByTestId('resolved-settings')).toHaveText(
    'Plays by a schedule, off at set hours, rotated 90°, time zone the screen’s own.',
  );
  // Its own rotation overrides the group's.
  const own = page.getByRole('group', { name: 'What it plays' });
  await own.getByText('0°', { exact: true }).click();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByTestId('resolved-settings')).toContainText('rotated 0°');
  await checkPage(page, 'screen-schedule');
});

test("a group's page and a screen's write nothing before their one Save", async ({ admin: page, stack }) => {
  const lobby = await stack.api<{ id: string }>('POST', '/groups', { name: 'Lobby' });
  await stack.api('POST', '/devices', { tag: 'hall-2', name: 'Hall 2' });
  const groupOf = async () =>
    (await stack.api<{ group_id: string | null }>('GET', '/devices/hall-2')).group_id;
  await page.goto(`${stack.serviceUrl}/console/groups/${lobby.id}`);

  // Added, the screen is listed from the draft: the service still has it in no group.
  await page.getByRole('combobox', { name: 'Add screens' }).click();
  await page.getByRole('option', { name: 'Hall 2' }).click();
  // The list stays open over the button on a short page: closed as a person would.
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Add to the group' }).click();
  await expect(page.getByRole('link', { name: 'Hall 2' })).toBeVisible();
  expect(await groupOf()).toBeNull();
  await page.getByRole('textbox', { name: 'Name' }).fill('Front lobby');
  await expect(page.getByText('You have unsaved changes')).toBeVisible();
  expect((await stack.api<{ name: string }>('GET', `/groups/${lobby.id}`)).name).toBe('Lobby');
  // Leaving asks first; staying keeps the edits, and the Save writes them all.
  await page.getByRole('link', { name: 'Hall 2' }).click();
  await expect(page.getByRole('dialog', { name: 'Leave without saving?' })).toBeVisible();
  await page.getByRole('button', { name: 'Stay and keep editing' }).click();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Group Front lobby saved')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Group Front lobby', level: 1 })).toBeVisible();
  expect(await groupOf()).toBe(lobby.id);

  // On the screen's page its group is a field of its draft too.
  await page.getByRole('link', { name: 'Hall 2' }).click();
  await page.getByRole('combobox', { name: 'Group' }).click();
  await page.getByRole('option', { name: 'No group' }).click();
  await expect(page.getByText('You have unsaved changes')).toBeVisible();
  expect(await groupOf()).toBe(lobby.id);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('You have unsaved changes')).toHaveCount(0);
  await expect.poll(groupOf).toBeNull();
});

test('a viewer sees the groups and changes nothing', async ({ page, stack }) => {
  await stack.api('POST', '/groups', { name: 'Seen' });
  await signIn(page, stack, VIEWER);
  await page.goto(`${stack.serviceUrl}/console/groups`);
  await expect(page.getByRole('button', { name: 'New group' })).toBeDisabled();
  await page.getByRole('link', { name: 'Seen' }).click();
  await expect(page.getByRole('button', { name: 'Save', exact: true })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Add to the group' })).toBeDisabled();
});
