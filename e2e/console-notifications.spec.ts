import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { checkPage, consoleTest as test, expect, signIn, VIEWER } from './console-kit';

const CHIME = fileURLToPath(new URL('../resources/sounds/default.wav', import.meta.url));

test('an admin composes a notification with a searched icon, previews it, and a screen shows it', async ({
  admin: page,
  stack,
  browser,
}) => {
  test.setTimeout(90_000);
  // A real screen (the web player) showing a board of the default channel, in a browser of its own
  // as a screen is: a page behind another of the same window is drawn a frame a second, too few
  // for the console's screenshots (WALLBOARD_REFERENCES=1). Loopback only, as every page here.
  await stack.startPlayer();
  const screenContext = await browser.newContext({ viewport: { width: 1280, height: 720 } });
  await screenContext.route(
    (url) => !['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname) && url.protocol !== 'data:',
    (route) => route.abort('blockedbyclient'),
  );
  const screen = await screenContext.newPage();
  await screen.goto(stack.playerUrl);
  await expect(screen.getByTestId('device-tag')).toHaveText(stack.tag);
  await expect
    .poll(async () => (await stack.api<{ online: boolean }>('GET', `/devices/${stack.tag}`)).online)
    .toBe(true);
  const playlist = await stack.boardPlaylist('Lobby', 'lobby-cpu', 12, 60);
  await stack.api('PATCH', `/devices/${stack.tag}`, { playlist_id: playlist });
  await expect(screen.locator('[data-board-name="Lobby"]')).toBeVisible();

  // A sound of the media library, offered beside the default one.
  const body = new FormData();
  body.append('file', new Blob([await readFile(CHIME)], { type: 'audio/wav' }), 'chime.wav');
  const uploaded = await fetch(`${stack.serviceUrl}/media`, {
    method: 'POST',
    headers: { authorization: `Bearer ${stack.admin}` },
    body,
  });
  expect(uploaded.status).toBe(201);

  await page.getByRole('link', { name: 'Notifications' }).click();
  await expect(page.getByRole('heading', { name: 'Notifications', level: 1 })).toBeVisible();
  const preview = page.getByTestId('banner-preview');
  await expect(preview).toContainText('Type a title and a message');

  // The preview follows the typing, drawn by the player's own banner.
  await page.getByLabel('Title').fill('Deploy');
  await expect(preview.locator('.player-notification')).toContainText('Deploy');
  await page.getByLabel('Message').fill('v2 is live');
  await expect(preview.locator('.player-notification-message')).toHaveText('v2 is live');

  // An icon found by searching its name, then shown in the preview.
  await page.getByLabel('Search the icons').fill('bug');
  await page.getByRole('button', { name: 'bug', exact: true }).click();
  await expect(page.getByRole('button', { name: 'bug', exact: true })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect(preview.locator('svg[data-icon="bug"]')).toBeVisible();
  await page.getByLabel('Duration').fill('30');
  await page.getByRole('combobox', { name: 'Sound' }).click();
  await page.getByRole('option', { name: 'Library: chime.wav' }).click();
  await checkPage(page, 'notifications');

  await page.getByRole('button', { name: 'Send' }).click();
  // The screen shows it at the bottom, with its icon.
  const banner = screen.locator('.player-notification');
  await expect(screen.getByRole('status')).toContainText('Deploy');
  await expect(banner.locator('svg[data-icon="bug"]')).toBeVisible();
  await expect(banner).toContainText('v2 is live');
  // And the history lists it, newest first.
  const newest = page.getByRole('table', { name: 'Notifications sent' }).getByRole('row').nth(1);
  await expect(newest).toContainText('Deploy');
  await expect(newest).toContainText('bug');
  await expect(newest).toContainText('30 s');
  await expect(newest).toContainText('library');
  // The form is ready for the next one.
  await expect(page.getByLabel('Title')).toHaveValue('');
  await screenContext.close();
});

test('a notification without its message is refused before it is sent', async ({ admin: page }) => {
  await page.goto(page.url().replace(/\/console\/.*$/, '/console/notifications'));
  await page.getByLabel('Title').fill('Only a title');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByText('is required when title is given')).toBeVisible();
});

test('a viewer sees the history and cannot send', async ({ page, stack }) => {
  await stack.api('POST', '/channels/ch_default/notifications', {
    title: 'Earlier',
    message: 'sent by a script',
  });
  await signIn(page, stack, VIEWER);
  await page.goto(`${stack.serviceUrl}/console/notifications`);
  await expect(page.getByRole('table', { name: 'Notifications sent' })).toContainText('Earlier');
  await expect(page.getByRole('button', { name: 'Send' })).toBeDisabled();
  await expect(page.getByLabel('Title')).toBeDisabled();
});
