import { checkPage, consoleTest as test, expect, signIn, VIEWER } from './console-kit';

// Groups and schedules in the console, only through the console (playlists and a screen set up
// through the API): a group made, given a playlist, a schedule (an overlap refused as typed, the
// week drawn), off hours and a rotation; a screen put in it, whose page says what it now comes to.

test('a group gets a schedule, off hours and a rotation, and a screen takes them', async ({
  admin: page,
  stack,
}) => {
  test.setTimeout(120_000);
  const day = await stack.boardPlaylist('Day', 'day-value', 1, 30);
  await stack.boardPlaylist('Night', 'night-value', 2, 30);
  await stack.api('POST', '/devices', { tag: 'hall-1', name: 'Hall 1' });

  await page.getByRole('link', { name: 'Groups' }).click();
  await page.getByRole('button', { name: 'New group' }).click();
  await page.getByRole('dialog').getByLabel('Name').fill('Lobby');
  await page.getByRole('button', { name: 'Create the group' }).click();
  await expect(page.getByRole('heading', { name: 'Group Lobby', level: 1 })).toBeVisible();
  const form = page.getByRole('form', { name: 'What it plays' });

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
  await expect(form.getByRole('button', { name: 'Save what it plays' })).toBeDisabled();
  await second.getByLabel('Priority').fill('5');
  await expect(second.getByRole('alert')).toHaveCount(0);
  await form.getByRole('button', { name: 'Remove entry 2' }).click();

  await form.getByRole('switch', { name: 'Turn the screen off at set hours' }).check();
  await form.getByRole('button', { name: 'Add an off window' }).click();
  await form.getByText('90°', { exact: true }).click();
  await expect(form.getByTestId('week-view')).toBeVisible();
  await checkPage(page, 'group');
  await form.getByRole('button', { name: 'Save what it plays' }).click();
  await expect(page.getByText('Group Lobby saved')).toBeVisible();

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

  // A screen joins; its page says what it now comes to.
  await page.getByRole('combobox', { name: 'Add screens' }).click();
  await page.getByRole('option', { name: 'Hall 1' }).click();
  await page.getByRole('button', { name: 'Add to the group' }).click();
  await expect(page.getByRole('link', { name: 'Hall 1' })).toBeVisible();
  await page.getByRole('link', { name: 'Hall 1' }).click();
  await expect(page.getByTestId('resolved-settings')).toHaveText(
    'Plays by a schedule, off at set hours, rotated 90°, time zone the screen’s own.',
  );
  // Its own rotation overrides the group's.
  const own = page.getByRole('form', { name: 'What it plays' });
  await own.getByText('0°', { exact: true }).click();
  await own.getByRole('button', { name: 'Save what it plays' }).click();
  await expect(page.getByTestId('resolved-settings')).toContainText('rotated 0°');
  await checkPage(page, 'screen-schedule');
});

test('a viewer sees the groups and changes nothing', async ({ page, stack }) => {
  await stack.api('POST', '/groups', { name: 'Seen' });
  await signIn(page, stack, VIEWER);
  await page.goto(`${stack.serviceUrl}/console/groups`);
  await expect(page.getByRole('button', { name: 'New group' })).toBeDisabled();
  await page.getByRole('link', { name: 'Seen' }).click();
  await expect(page.getByRole('button', { name: 'Save what it plays' })).toBeDisabled();
});
