import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { checkPage, consoleTest as test, expect } from './console-kit';

// Bulk work in the console, only through its pages (screens and a playlist set up through the
// API): a playlist given to five of six screens at once, with the progress and a summary; ten
// media tagged at once and found by their tag; a playlist deleted with a summary of what uses it;
// each page checked by axe at a desktop's and a phone's width.

const PICTURE = fileURLToPath(new URL('./assets/picture.png', import.meta.url));
const SCREENS = ['Bulk 1', 'Bulk 2', 'Bulk 3', 'Bulk 4', 'Bulk 5', 'Bulk 6'];

const cardOf = (page: Page, name: string) => page.getByRole('article', { name, exact: true });

test('a playlist is given to five screens at once, and deleted with a summary of what uses it', async ({
  admin: page,
  stack,
}) => {
  test.setTimeout(120_000);
  const playlist = await stack.api<{ id: string }>('POST', '/playlists', {
    name: 'Morning',
    items: [{ type: 'web', url: 'http://intranet.example/status', duration: 30 }],
  });
  for (const [index, name] of SCREENS.entries()) {
    await stack.api('POST', '/devices', { tag: `bulk-${index + 1}`, name });
  }

  await page.getByRole('link', { name: 'Screens' }).click();
  await page.getByLabel('Search').fill('Bulk');
  await expect(page.getByTestId('screen-row')).toHaveCount(6);
  for (const name of SCREENS.slice(0, 5))
    await page.getByRole('checkbox', { name: `Select ${name}` }).check();
  const bar = page.getByRole('region', { name: 'Selected screens' });
  await expect(bar).toContainText('5 screens selected');
  await page.mouse.move(1000, 20);
  await checkPage(page, 'bulk-screens');

  await bar.getByRole('button', { name: 'Assign a playlist' }).click();
  const dialog = page.getByRole('dialog', { name: 'Assign a playlist to 5 screens' });
  await dialog.getByLabel('Playlist').click();
  await page.getByRole('option', { name: 'Morning (1 item)' }).click();
  await checkPage(page, 'bulk-screens-assign');
  await dialog.getByRole('button', { name: 'Assign to 5 screens' }).click();
  await expect(page.getByText('Assigned the playlist to 5 screens.')).toBeVisible();
  await expect(bar).toBeHidden();

  for (const [index] of SCREENS.entries()) {
    const device = await stack.api<{ playlist_id: string | null }>('GET', `/devices/bulk-${index + 1}`);
    expect(device.playlist_id, `bulk-${index + 1}`).toBe(index < 5 ? playlist.id : null);
  }
  await page.mouse.move(1000, 20);
  await checkPage(page, 'bulk-screens-done');

  // The sixth moves to a group, then goes, its confirmation naming it.
  const group = await stack.api<{ id: string }>('POST', '/groups', { name: 'Hall' });
  await page.getByRole('checkbox', { name: 'Select Bulk 6' }).check();
  await bar.getByRole('button', { name: 'Move to a group' }).click();
  const move = page.getByRole('dialog', { name: 'Move 1 screen' });
  await move.getByLabel('Group').click();
  await page.getByRole('option', { name: 'Hall' }).click();
  await move.getByRole('button', { name: 'Move to 1 screen' }).click();
  await expect(page.getByText('Moved 1 screen.')).toBeVisible();
  expect((await stack.api<{ group_id: string | null }>('GET', '/devices/bulk-6')).group_id).toBe(group.id);
  await page.getByRole('checkbox', { name: 'Select Bulk 6' }).check();
  await bar.getByRole('button', { name: 'Delete' }).click();
  const gone = page.getByRole('dialog', { name: 'Delete 1 screen?' });
  await expect(gone.getByRole('listitem')).toHaveText(['Bulk 6']);
  await gone.getByRole('button', { name: 'Delete 1 screen' }).click();
  await expect(page.getByText('Deleted 1 screen.')).toBeVisible();
  await expect(page.getByTestId('screen-row')).toHaveCount(5);

  // Deleting it from the list says which screens lose it, then how it went.
  await page.getByRole('link', { name: 'Playlists' }).click();
  await page.getByRole('checkbox', { name: 'Select Morning' }).check();
  await page
    .getByRole('region', { name: 'Selected playlists' })
    .getByRole('button', { name: 'Delete' })
    .click();
  const confirm = page.getByRole('dialog', { name: 'Delete “Morning”?' });
  await expect(confirm).toContainText(
    'Screens that play it, left with no playlist (5): Bulk 1, Bulk 2, Bulk 3, Bulk 4, Bulk 5',
  );
  await checkPage(page, 'bulk-playlist-delete');
  await confirm.getByRole('button', { name: 'Delete the playlist' }).click();
  await expect(page.getByText('Deleted 1 playlist.')).toBeVisible();
  expect((await stack.api<unknown[]>('GET', '/playlists')).length).toBe(0);
});

test('ten media are tagged at once and found by their tag', async ({ admin: page, stack }) => {
  test.setTimeout(120_000);
  const picture = await readFile(PICTURE);
  await page.getByRole('link', { name: 'Media' }).click();
  const files = Array.from({ length: 11 }, (_, index) => ({
    name: `poster-${index + 1}.png`,
    mimeType: 'image/png',
    buffer: picture,
  }));
  await page.getByLabel('Files to upload', { exact: true }).setInputFiles(files);
  await expect(page.getByTestId('media-card')).toHaveCount(11, { timeout: 30_000 });

  // Every one shown, then one left out: ten.
  await page.getByRole('checkbox', { name: 'Select every medium shown' }).check();
  await page.getByRole('checkbox', { name: 'Select poster-11.png' }).uncheck();
  const bar = page.getByRole('region', { name: 'Selected media files' });
  await expect(bar).toContainText('10 media files selected');
  await bar.getByRole('button', { name: 'Tag' }).click();
  const dialog = page.getByRole('dialog', { name: 'Tag 10 media files' });
  await dialog.getByLabel('Add tags').fill('Lobby');
  await dialog.getByLabel('Add tags').press('Enter');
  await dialog.getByLabel('Add tags').fill('winter');
  await dialog.getByLabel('Add tags').press('Enter');
  await checkPage(page, 'bulk-media-tag');
  await dialog.getByRole('button', { name: 'Tag 10 media files' }).click();
  await expect(page.getByText('Tagged 10 media files.')).toBeVisible();
  await expect(cardOf(page, 'poster-1.png').getByLabel('Tags')).toHaveText('Lobbywinter');

  const media = await stack.api<{ name: string; tags: string[] }[]>('GET', '/media');
  expect(media.filter((m) => m.tags.join() === 'Lobby,winter')).toHaveLength(10);
  expect(media.find((m) => m.name === 'poster-11.png')?.tags).toEqual([]);

  // Found by the tag, which stays in the address.
  await page.getByRole('combobox', { name: 'Tag' }).click();
  await page.getByRole('option', { name: 'Lobby (10)' }).click();
  await expect(page.getByTestId('media-card')).toHaveCount(10);
  await expect(cardOf(page, 'poster-11.png')).toHaveCount(0);
  expect(new URL(page.url()).searchParams.get('tag')).toBe('Lobby');
  await page.mouse.move(1000, 20);
  await checkPage(page, 'bulk-media');

  // Renamed, with an expiry, by its own dialog.
  await cardOf(page, 'poster-1.png').getByRole('button', { name: 'Edit poster-1.png' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit “poster-1.png”' });
  await edit.getByLabel('Name').fill('Front door');
  // A click beside the dialog loses nothing of what was typed.
  await page.mouse.click(5, 400);
  await expect(edit.getByLabel('Name')).toHaveValue('Front door');
  await edit.getByLabel('Stops playing at').fill('2031-03-04T05:06');
  await checkPage(page, 'bulk-media-edit');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(cardOf(page, 'Front door')).toContainText('Stops playing');

  // Two deleted at once: the summary lists the playlist one of them is taken out of.
  const used = (await stack.api<{ name: string; url: string }[]>('GET', '/media')).find(
    (m) => m.name === 'poster-2.png',
  );
  await stack.api('POST', '/playlists', {
    name: 'Wall',
    items: [{ type: 'image', url: used?.url, duration: 5 }],
  });
  await page.reload();
  await page.getByRole('checkbox', { name: 'Select poster-2.png' }).check();
  await page.getByRole('checkbox', { name: 'Select poster-3.png' }).check();
  await page
    .getByRole('region', { name: 'Selected media files' })
    .getByRole('button', { name: 'Delete' })
    .click();
  const confirm = page.getByRole('dialog', { name: 'Delete 2 media files?' });
  await expect(confirm).toContainText('1 of them is used by:');
  await expect(confirm.getByRole('list', { name: 'Where they are used' })).toHaveText('Playlist “Wall”');
  await confirm.getByRole('button', { name: 'Delete 2 media files' }).click();
  await expect(page.getByText('Deleted 2 media files.')).toBeVisible();
  await expect(page.getByTestId('media-card')).toHaveCount(8);
  const wall = await stack.api<{ items: unknown[] }[]>('GET', '/playlists');
  expect(wall[0]?.items).toEqual([]);
});
