import { StrictMode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render } from 'vitest-browser-react';
import { App } from '../app';
import {
  FakeBridge,
  board,
  makeBoard,
  makeNotification,
  makeState,
  onScreen,
  tick,
  throughClient,
  useFakeClock,
} from './player-test-kit';

const boards = { a: makeBoard('Board A', ['ch-a']), b: makeBoard('Board B', ['ch-b']) };

beforeEach(() => useFakeClock());
afterEach(() => {
  vi.useRealTimers();
});

describe('app with the player', () => {
  it('plays the playlist of the state the bridge gives, with its notifications', async () => {
    const bridge = new FakeBridge(makeState([board('a', 2), board('b', 2)], { boards }));
    const screen = await render(<App bridge={bridge} />);
    await tick(100);
    expect(onScreen()).toBe('board:a');
    bridge.emit({
      kind: 'notification',
      notification: makeNotification('ch-a', { title: 'Hello' }),
      sound: null,
    });
    await expect.element(screen.getByRole('status')).toHaveTextContent('Hello');
    await tick(2000);
    expect(onScreen()).toBe('board:b');
    expect(bridge.reports).toEqual(['board:a', 'board:b']);
  });

  it('skips a bad playlist item, saying why, and plays the others', async () => {
    const state = makeState([board('a', 2), board('b', 2)], { boards });
    const items = [
      state.playlist?.items[0],
      { type: 'board', board_id: 'a', duration: -5 },
      state.playlist?.items[1],
    ];
    const bridge = new FakeBridge({ ...state, playlist: { ...state.playlist!, items } } as never);
    await render(<App bridge={throughClient(bridge)} />);
    await tick(100);
    expect(onScreen()).toBe('board:a');
    await tick(2000);
    expect(onScreen()).toBe('board:b');
    expect(bridge.logText()).toContain('skipped item 2 of the playlist: duration: must be at least 1 second');
    expect(bridge.logText()).not.toContain('ignored an invalid bridge frame');
  });

  it('plays the same in strict mode, whose effects mount twice', async () => {
    const bridge = new FakeBridge(makeState([board('a', 2), board('b', 2)], { boards }));
    await render(
      <StrictMode>
        <App bridge={bridge} />
      </StrictMode>,
    );
    await tick(100);
    expect(onScreen()).toBe('board:a');
    bridge.emit({
      kind: 'notification',
      notification: makeNotification('ch-a', { title: 'Once', duration: 1 }),
      sound: null,
    });
    await tick(2000);
    expect(onScreen()).toBe('board:b');
    await tick(2000);
    expect(onScreen()).toBe('board:a');
    expect(bridge.reports).toEqual(['board:a', 'board:b', 'board:a']);
    expect(document.querySelectorAll('[data-testid="player-current"]')).toHaveLength(1);
  });

  it('says so when no agent is connected', async () => {
    const screen = await render(<App bridge={null} />);
    await expect.element(screen.getByText('No device agent is connected to this player.')).toBeVisible();
  });

  it('waits for a playlist naming the device', async () => {
    const bridge = new FakeBridge(makeState(null));
    const screen = await render(<App bridge={bridge} />);
    await expect.element(screen.getByRole('heading', { name: 'Waiting for a playlist' })).toBeVisible();
    await expect.element(screen.getByTestId('device-tag')).toHaveTextContent('lobby-screen');
  });
});
