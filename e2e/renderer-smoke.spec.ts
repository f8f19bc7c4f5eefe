import type {} from '../renderer/src/bridge';
import type { PlayerState } from '../src/shared/bridge';
import { expect, test } from './fixtures';
import { emptyPlayerState } from '../src/shared/testing/bridge-fixtures';

const waitingState: PlayerState = emptyPlayerState('lobby-screen');

test('without a bridge the player says no agent is connected', async ({ page, renderer }) => {
  await page.goto(renderer.url);
  await expect(page.getByRole('heading', { name: 'Wallboard' })).toBeVisible();
  await expect(page.getByText('No device agent is connected to this player.')).toBeVisible();
});

test('with no playlist the waiting screen names the device', async ({ page, renderer }) => {
  await page.addInitScript((state) => {
    window.wallboard = {
      getState: () => Promise.resolve(state),
      onMessage: () => () => undefined,
      reportShowing: () => undefined,
      reportFailure: () => undefined,
      chooseService: () => undefined,
      reportPlay: () => undefined,
      screenshotTaken: () => undefined,
      checkFraming: ({ url }) => Promise.resolve({ url, verdict: 'allowed' as const, detail: '' }),
      showWebPage: () => Promise.resolve({ shown: false }),
      log: () => undefined,
    };
  }, waitingState);
  await page.goto(renderer.url);
  await expect(page.getByRole('heading', { name: 'Waiting for a playlist' })).toBeVisible();
  await expect(page.getByTestId('device-tag')).toHaveText('lobby-screen');
  await expect(page.getByTestId('device-name')).toHaveText('Lobby');
});

// A state that does not fit the contract is refused by the bridge's client where it enters the
// page (src/shared/bridge-client.ts, tested with the preload and the web player's socket); the page
// then keeps its starting face and says why.
test('a state the bridge refused leaves the starting face, logged', async ({ page, renderer }) => {
  await page.addInitScript(() => {
    const logs: string[] = [];
    Object.assign(window, { bridgeLogs: logs });
    window.wallboard = {
      getState: () =>
        Promise.reject(new Error("the device agent's answer to getState does not fit the contract")),
      onMessage: () => () => undefined,
      reportShowing: () => undefined,
      reportFailure: () => undefined,
      chooseService: () => undefined,
      reportPlay: () => undefined,
      screenshotTaken: () => undefined,
      checkFraming: ({ url }) => Promise.resolve({ url, verdict: 'allowed' as const, detail: '' }),
      showWebPage: () => Promise.resolve({ shown: false }),
      log: (entry) => logs.push(entry.message),
    };
  });
  await page.goto(renderer.url);
  await expect(page.getByText('Starting…')).toBeVisible();
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { bridgeLogs: string[] }).bridgeLogs))
    .toEqual([expect.stringContaining('could not read the state')]);
});
