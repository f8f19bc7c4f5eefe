import type { Page } from '@playwright/test';
import { checkPage, consoleTest as test, expect, signIn, VIEWER } from './console-kit';
import type { Stack } from './stack';

// The Screens pages, only through the console (the data set up through the API): a screen paired
// by the code it shows, renamed, given a playlist and a screenshot taken, going offline live; the
// list at a thousand screens; and a viewer who sees everything and changes nothing.

/** The code an unpaired web player shows, from its own page. */
async function pairingCode(player: Page, stack: Stack): Promise<string> {
  await player.goto(stack.playerUrl);
  const shown = player.getByTestId('pairing-code');
  await expect(shown).toBeVisible();
  return (await shown.textContent())?.replace(/\s/g, '') ?? '';
}

const COLORS = ['red', 'orange', 'yellow', 'green', 'blue', 'indigo', 'violet'];

const rowOf = (page: Page, name: string) => page.getByTestId('screen-row').filter({ hasText: name });
const stateFilter = (page: Page, state: 'All' | 'Online' | 'Offline') =>
  page.locator('label').filter({ hasText: new RegExp(`^${state} \\(`) });

test('a screen is paired by its code, renamed, given a playlist, photographed, and goes offline live', async ({
  admin: page,
  stack,
  context,
}, testInfo) => {
  test.setTimeout(120_000);
  await stack.boardPlaylist('Lobby board', 'lobby-cpu', 42, 30);
  await stack.api('POST', '/devices', {
    tag: 'stock-room',
    name: 'Stock room',
    description: 'behind the till',
  });
  await stack.startPlayer({ unpaired: true });
  const player = await context.newPage();
  await player.setViewportSize({ width: 960, height: 540 });
  const code = await pairingCode(player, stack);

  // The console opens on the screens.
  await page.bringToFront();
  await expect(page.getByRole('heading', { name: 'Screens', level: 1 })).toBeVisible();
  await expect(rowOf(page, 'Stock room').getByTestId('online-state')).toHaveText('Offline');

  // A mistyped code is refused where it was typed; the right one pairs and leads to the screen.
  await page.getByRole('button', { name: 'Pair a screen' }).click();
  const dialog = page.getByRole('dialog', { name: 'Pair a screen' });
  await dialog.getByLabel('Code').fill('222 222');
  await dialog.getByRole('button', { name: 'Pair the screen' }).click();
  await expect(dialog).toContainText('no screen is waiting with code 222222');
  await dialog.getByLabel('Code').fill(code.toLowerCase());
  await dialog.getByLabel('Name').fill('Lobby');
  await dialog.getByRole('button', { name: 'Pair the screen' }).click();
  await expect(page).toHaveURL(new RegExp(`/console/screens/screen-${code.toLowerCase()}$`));
  await expect(page.getByRole('heading', { name: 'Lobby', level: 1 })).toBeVisible();
  await expect(page.getByTestId('online-state')).toHaveText('Online', { timeout: 15_000 });

  // Renamed, described and given a playlist in one save: the screen plays it.
  await page.getByLabel('Name').fill('Lobby entrance');
  await page.getByLabel('Description').fill('left of the door');
  await page.getByRole('combobox', { name: 'Playlist' }).click();
  await page.getByRole('option', { name: 'Lobby board' }).click();
  await expect(page.getByText('You have unsaved changes')).toBeVisible();
  expect(await stack.api('GET', `/devices/screen-${code.toLowerCase()}`)).toMatchObject({
    name: 'Lobby',
    playlist_id: null,
  });
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Lobby entrance', level: 1 })).toBeVisible();
  await expect(player.locator('[data-board-name="Lobby board"]')).toBeVisible({ timeout: 10_000 });

  // A screenshot taken from the console shows up by itself.
  await page.getByRole('button', { name: 'Take a screenshot' }).click();
  await expect(page.getByTestId('command-row').first()).toContainText('Take a screenshot');
  const shot = page.getByTestId('screenshot');
  await expect(shot).toBeVisible({ timeout: 20_000 });
  await expect.poll(() => shot.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(960);
  await expect(page.getByTestId('command-row').first()).toContainText('done');
  await expect(page.getByRole('table', { name: 'Status history' })).toContainText('online');
  await expect(page.getByRole('link', { name: 'Download CSV, last 24 hours' })).toHaveAttribute(
    'href',
    /\/plays\?format=csv&/,
  );
  await checkPage(page, 'screen');
  await page.screenshot({ path: testInfo.outputPath('screen-page.png'), fullPage: true });

  // The list: its state, what it plays and its thumbnail; search and filter.
  await page.getByRole('link', { name: 'All screens' }).click();
  const lobby = rowOf(page, 'Lobby entrance');
  await expect(lobby.getByTestId('online-state')).toHaveText('Online');
  await expect(lobby).toContainText('Lobby board');
  await expect(lobby.locator('img')).toHaveAttribute('src', /\/screenshot\?taken_at=/);
  await expect
    .poll(() => lobby.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth))
    .toBe(960);
  await page.getByLabel('Search').fill('till');
  await expect(page.getByTestId('screen-row')).toHaveCount(1);
  await expect(rowOf(page, 'Stock room')).toBeVisible();
  await page.getByLabel('Search').fill('');
  await stateFilter(page, 'Online').click();
  await expect(page.getByTestId('screen-row')).toHaveCount(1);
  await expect(lobby).toBeVisible();
  await stateFilter(page, 'All').click();
  await expect(page.getByTestId('screen-row')).toHaveCount(2);
  await checkPage(page, 'screens');

  // The player quits: the row turns offline without a reload.
  await player.close();
  stack.player?.kill('SIGTERM');
  await expect(lobby.getByTestId('online-state')).toHaveText('Offline', { timeout: 10_000 });
  await expect(stateFilter(page, 'Offline')).toHaveText('Offline (2)');
});

test('a thousand screens: drawn a window at a time, searched and filtered; one is deleted', async ({
  admin: page,
  stack,
}) => {
  test.setTimeout(90_000);
  const tags = Array.from({ length: 1000 }, (_, n) => `wall-${String(n).padStart(4, '0')}`);
  for (let start = 0; start < tags.length; start += 50) {
    await Promise.all(
      tags.slice(start, start + 50).map((tag, n) =>
        stack.api('POST', '/devices', {
          tag,
          name: `Wall ${start + n}`,
          description: `on the ${COLORS[(start + n) % 7]} floor`,
        }),
      ),
    );
  }
  await page.reload();
  await expect(page.getByText('1000 screens')).toBeVisible();
  await expect(stateFilter(page, 'Offline')).toHaveText('Offline (1000)');
  // Only the rows in view (and a few around) are in the page.
  expect(await page.getByTestId('screen-row').count()).toBeLessThan(60);
  await page.getByLabel('Search').fill('wall-0999');
  await expect(page.getByTestId('screen-row')).toHaveCount(1);
  await expect(page.getByText('1 of 1000 screens')).toBeVisible();
  await page.getByLabel('Search').fill('violet');
  await expect(page.getByText('142 of 1000 screens')).toBeVisible();
  await stateFilter(page, 'Online').click();
  await expect(page.getByText('No screen matches.')).toBeVisible();
  await stateFilter(page, 'All').click();

  // Scrolled to the end, the last one is drawn.
  await page.getByLabel('Search').fill('');
  // Again while rows measured on the way change the height.
  await expect(async () => {
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await expect(rowOf(page, 'Wall 999')).toBeVisible({ timeout: 500 });
  }).toPass();
  await rowOf(page, 'Wall 999').getByRole('link').click();
  await page.getByRole('button', { name: 'Delete the screen' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete the screen' }).click();
  await expect(page.getByText('999 screens')).toBeVisible();
});

test('a viewer sees the screens and can pair, rename or command none', async ({ page, stack }) => {
  await stack.api('POST', '/devices', { tag: 'hall', name: 'Hall' });
  await signIn(page, stack, VIEWER);
  await expect(rowOf(page, 'Hall')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Pair a screen' })).toBeDisabled();
  await page.getByRole('link', { name: 'Hall' }).click();
  await expect(page.getByRole('heading', { name: 'Hall', level: 1 })).toBeVisible();
  await expect(page.getByLabel('Name')).toBeDisabled();
  for (const name of [
    'Save',
    'Identify',
    'Reload',
    'Restart',
    'Take a screenshot',
    'Wake',
    'Delete the screen',
  ]) {
    await expect(page.getByRole('button', { name, exact: true })).toBeDisabled();
  }
  await expect(page.getByLabel(/Viewers can see everything but change nothing/).first()).toBeVisible();
});
