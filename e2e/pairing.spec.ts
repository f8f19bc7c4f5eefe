import { PAIRING_CODE_ALPHABET } from '../src/shared/pairing';
import { expect, test } from './fixtures';
import { Stack } from './stack';

let stack: Stack;

test.beforeEach(async () => {
  stack = await Stack.start(`e2e-${Date.now().toString(36)}`);
});
test.afterEach(async ({}, testInfo) => {
  if (testInfo.status !== testInfo.expectedStatus) {
    await testInfo.attach('device log', { body: stack.playerOutput });
    console.error(stack.playerOutput);
  }
  await stack.stop();
});

test('an unconfigured web player shows a code; claimed through the API, its board is on screen within 5 s', async ({
  page,
}, testInfo) => {
  const playlistId = await stack.boardPlaylist('Paired', 'paired-cpu', 42, 30);

  // The service's address and nothing else: the screen asks for a pairing and shows its code.
  await stack.startPlayer({ unpaired: true });
  await page.goto(stack.playerUrl);
  const shown = page.getByTestId('pairing-code');
  await expect(shown).toBeVisible();
  const code = (await shown.textContent())?.replace(/\s/g, '') ?? '';
  expect(code).toMatch(new RegExp(`^[${PAIRING_CODE_ALPHABET}]{6}$`));
  await expect(page.getByTestId('service-url')).toHaveText(stack.serviceUrl);
  await expect(page.locator('svg.qr-code')).toHaveAttribute(
    'data-qr-text',
    `${stack.serviceUrl}/#/pair?code=${code}`,
  );
  await page.screenshot({ path: testInfo.outputPath('pairing-screen.png') });

  // An operator claims it, giving it a tag and the playlist.
  await stack.api('POST', '/pairings/claim', { code, tag: 'kitchen', playlist_id: playlistId });
  const claimed = Date.now();
  await expect(page.locator('[data-board-name="Paired"]')).toBeVisible({ timeout: 5000 });
  expect(Date.now() - claimed).toBeLessThan(5000);
  await expect(page.locator('[data-flow-tag="paired-cpu"]')).toContainText('42');
  await expect
    .poll(async () => (await stack.api<{ online: boolean }>('GET', '/devices/kitchen')).online)
    .toBe(true);
});

test('a screen whose token the service refuses says so instead of waiting for a playlist', async ({
  page,
}, testInfo) => {
  await stack.startPlayer();
  await page.goto(stack.playerUrl);
  await expect(page.getByTestId('device-tag')).toHaveText(stack.tag);
  // The operator deletes the screen's token: the service refuses it from then on.
  const tokens = await stack.api<{ id: string; name: string }[]>('GET', '/account/tokens');
  const own = tokens.find((token) => token.name === `screen ${stack.tag}`);
  if (!own) throw new Error('the screen has no token of its own');
  await stack.api('DELETE', `/account/tokens/${own.id}`);
  await expect(page.getByRole('heading', { name: "This screen's token was refused" })).toBeVisible({
    timeout: 15_000,
  });
  await expect(page.getByTestId('service-url')).toHaveText(stack.serviceUrl);
  await page.screenshot({ path: testInfo.outputPath('refused-screen.png') });
});
