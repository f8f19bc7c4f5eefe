import { afterEach, describe, expect, it, vi } from 'vitest';
import { render } from 'vitest-browser-react';
import { RemoteCommands } from '../remote-commands';
import { FakeBridge, makeState, realPause, tick, useFakeClock } from './player-test-kit';

afterEach(() => {
  vi.useRealTimers();
});

const overlay = () => document.querySelector('[data-testid="identify"]');

/** The width and height of a PNG, from its header. */
function pngSize(base64: string): { width: number; height: number } {
  const bytes = Uint8Array.from(atob(base64.slice(0, 64)), (char) => char.charCodeAt(0));
  const view = new DataView(bytes.buffer);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

describe('remote commands on the page', () => {
  it('identify: the name and tag over everything for the seconds asked, again from the start on a repeat', async () => {
    useFakeClock();
    const bridge = new FakeBridge(makeState(null));
    const screen = await render(<RemoteCommands bridge={bridge} reload={() => undefined} />);
    expect(overlay()).toBeNull();
    bridge.emit({ kind: 'identify', name: 'Lobby screen', tag: 'lobby', seconds: 10 });
    await expect.element(screen.getByTestId('identify-name')).toHaveTextContent('Lobby screen');
    await expect.element(screen.getByTestId('identify-tag')).toHaveTextContent('lobby');
    expect(getComputedStyle(overlay() as Element).position).toBe('fixed');

    await tick(6000);
    bridge.emit({ kind: 'identify', name: 'Lobby screen', tag: 'lobby', seconds: 10 });
    await tick(6000);
    expect(overlay()).not.toBeNull();
    await tick(4100);
    expect(overlay()).toBeNull();
  });

  it('names the tag where the device has no name', async () => {
    const bridge = new FakeBridge(makeState(null));
    const screen = await render(<RemoteCommands bridge={bridge} reload={() => undefined} />);
    bridge.emit({ kind: 'identify', name: '', tag: 'screen-3f2a', seconds: 10 });
    await expect.element(screen.getByTestId('identify-name')).toHaveTextContent('screen-3f2a');
  });

  it('reload: says why, then reloads the page', async () => {
    const bridge = new FakeBridge(makeState(null));
    let reloads = 0;
    await render(<RemoteCommands bridge={bridge} reload={() => void reloads++} />);
    bridge.emit({ kind: 'reload', reason: 'remote command cmd_1' });
    expect(reloads).toBe(1);
    expect(bridge.logText()).toContain('reloading the page: remote command cmd_1');
  });

  it('screenshot: answers with a PNG of the viewport at the screen pixel density', async () => {
    const bridge = new FakeBridge(makeState(null));
    const screen = await render(
      <div style={{ position: 'fixed', inset: 0, background: 'rgb(200, 30, 30)' }}>
        <RemoteCommands bridge={bridge} reload={() => undefined} />
      </div>,
    );
    await expect.element(screen.container).toBeInTheDocument();
    bridge.emit({ kind: 'screenshot', request_id: 'shot-1' });
    await vi.waitFor(() => expect(bridge.screenshots).toHaveLength(1), { timeout: 15_000, interval: 50 });
    const [answer] = bridge.screenshots;
    expect(answer?.request_id).toBe('shot-1');
    expect(answer?.error).toBeUndefined();
    expect(pngSize(answer?.png_base64 ?? '')).toEqual({
      width: Math.round(window.innerWidth * window.devicePixelRatio),
      height: Math.round(window.innerHeight * window.devicePixelRatio),
    });
    await realPause();
  });
});
