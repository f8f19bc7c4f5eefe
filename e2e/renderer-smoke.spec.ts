import type { PlayerState } from '../src/shared/bridge';
import { expect, test } from './fixtures';
import { installPageBridge, type PageBridgeWindow } from './page-bridge';
import { emptyPlayerState } from '../src/shared/testing/bridge-fixtures';

const waitingState: PlayerState = emptyPlayerState('lobby-screen');

test('without a bridge the player says no agent is connected', async ({ page, renderer }) => {
  await page.goto(renderer.url);
  await expect(page.getByRole('heading', { name: 'Wallboard' })).toBeVisible();
  await expect(page.getByText('No device agent is connected to this player.')).toBeVisible();
});

test('with no playlist the waiting screen names the device', async ({ page, renderer }) => {
  await page.addInitScript(installPageBridge, waitingState);
  await page.goto(renderer.url);
  await expect(page.getByRole('heading', { name: 'Waiting for a playlist' })).toBeVisible();
  await expect(page.getByTestId('device-tag')).toHaveText('lobby-screen');
  await expect(page.getByTestId('device-name')).toHaveText('Lobby');
});

// A state that does not fit the contract is refused by the bridge's client where it enters the
// page (src/shared/bridge-client.ts, tested with the preload and the web player's socket); the page
// then keeps its starting face and says why.
test('a state the bridge refused leaves the starting face, logged', async ({ page, renderer }) => {
  await page.addInitScript(installPageBridge, null);
  await page.goto(renderer.url);
  await expect(page.getByText('Starting…')).toBeVisible();
  await expect
    .poll(() => page.evaluate(() => (window as unknown as PageBridgeWindow).bridgeLogs))
    .toEqual([expect.stringContaining('could not read the state')]);
});
