import { describe, expect, it } from 'vitest';
import { render } from 'vitest-browser-react';
import { WaitingScreen } from './waiting-screen';

describe('waiting screen', () => {
  it('names the device so an operator can tell screens apart', async () => {
    const screen = await render(
      <WaitingScreen headline="Waiting" detail="No playlist" device={{ tag: 'lobby', name: 'Lobby' }} />,
    );
    await expect.element(screen.getByRole('heading', { name: 'Waiting' })).toBeVisible();
    await expect.element(screen.getByTestId('device-tag')).toHaveTextContent('lobby');
    await expect.element(screen.getByTestId('device-name')).toHaveTextContent('Lobby');
  });

  it('leaves the name out when the device has none', async () => {
    const screen = await render(
      <WaitingScreen headline="Waiting" detail="x" device={{ tag: 'lobby', name: '' }} />,
    );
    expect(screen.container.querySelector('[data-testid="device-name"]')).toBeNull();
  });
});
