import { afterEach, describe, expect, it } from 'vitest';
import { render } from 'vitest-browser-react';
import type { PlayerState } from '../../../src/shared/bridge';
import { screenSettingsSchema } from '../../../src/shared/screen-settings';
import type { ScreenSync } from '../../../src/shared/sync';
import { FlowStore } from '../store/flow-store';
import { Player } from './player';
import { board, FakeBridge, makeBoard, makeState, onScreen, realPause } from './player-test-kit';
import type { SharedTime } from './shared-clock';
import { SharedClock } from './shared-clock';
import { wallRegion } from './wall-region';

const boards = { a: makeBoard('Board A'), b: makeBoard('Board B'), c: makeBoard('Board C') };

function inGroup(state: PlayerState, sync: ScreenSync): PlayerState {
  const settings = screenSettingsSchema.parse({
    playlist_id: 'pl-1',
    schedule: null,
    power: null,
    rotation: 0,
    time_zone: null,
    group_id: null,
    sources: {
      playlist_id: 'screen',
      schedule: 'default',
      power: 'default',
      rotation: 'default',
      time_zone: 'default',
    },
    playlist_ids: ['pl-1'],
    sync,
  });
  return { ...state, settings };
}

/** Each change of what is on screen, stamped with the shared clock as it was committed. */
function recordSwitches(clock: SharedTime): { showing: string; at: number }[] {
  const switches: { showing: string; at: number }[] = [];
  let last = '';
  const observer = new MutationObserver(() => {
    const showing = onScreen();
    if (showing === last) return;
    last = showing;
    switches.push({ showing, at: clock.now() ?? Number.NaN });
  });
  observer.observe(document.body, { subtree: true, childList: true, attributes: true });
  stops.push(() => observer.disconnect());
  return switches;
}

const stops: (() => void)[] = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
});

async function play(state: PlayerState, clock: SharedTime) {
  const bridge = new FakeBridge(state);
  const screen = await render(
    <Player state={state} store={new FlowStore()} bridge={bridge} clock={clock} waiting={<p>waiting</p>} />,
  );
  stops.push(() => screen.unmount());
  return bridge;
}

describe('player: a sync group', () => {
  it('shows the item of the shared timeline and switches at the instant each turn starts', async () => {
    // This page's clock is 3 s behind the service's: the timeline is read on the service's.
    const clock = { now: () => Date.now() + 3000 };
    // Board c's turn (2 to 4 s into the loop) is half over.
    const epoch = clock.now() - 3000;
    const state = makeState([board('a', 1), board('b', 1), board('c', 2)], { boards });
    const switches = recordSwitches(clock);
    await play(inGroup(state, { group_id: 'syn_1', epoch_ms: epoch, wall: null }), clock);
    await realPause(100);
    expect(onScreen()).toBe('board:c');
    await realPause(3300);
    // Nothing came before it: the first state already plays by the shared clock.
    const shown = switches.filter((turn) => turn.showing !== 'waiting');
    expect(shown[0]?.showing).toBe('board:c');
    const turns = shown.slice(1);
    expect(turns.map((turn) => turn.showing).slice(0, 3)).toEqual(['board:a', 'board:b', 'board:c']);
    // Each turn starts at epoch + a sum of durations (4 s a loop).
    const boundaries = [4000, 5000, 6000].map((ms) => epoch + ms);
    turns.slice(0, 3).forEach((turn, index) => {
      const error = turn.at - (boundaries[index] ?? 0);
      // Never before its turn; after it by what a loaded machine's timers add, far from the
      // second that playing each item for its duration from the page's start would be off by.
      // How close screens come to each other (one frame) is measured by bench/sync.ts.
      expect(error, `${turn.showing} at ${error.toFixed(1)} ms from its turn`).toBeGreaterThanOrEqual(-1);
      expect(error, `${turn.showing} at ${error.toFixed(1)} ms from its turn`).toBeLessThan(250);
    });
  });

  it('plays each item from now while the clock is unknown, and joins the timeline once it is known', async () => {
    const bridge = new FakeBridge(makeState(null));
    const clock = new SharedClock(() => bridge.serviceTime());
    const epoch = Date.now() + 60_000 - 4500; // the service 60 s ahead: board b's turn
    const state = makeState([board('a', 3), board('b', 3)], { boards });
    const screen = await render(
      <Player
        state={inGroup(state, { group_id: 'syn_1', epoch_ms: epoch, wall: null })}
        store={new FlowStore()}
        bridge={bridge}
        clock={clock}
        waiting={<p>waiting</p>}
      />,
    );
    stops.push(() => screen.unmount());
    await realPause(100);
    expect(onScreen()).toBe('board:a');
    bridge.serviceOffsetMs = 60_000;
    clock.start();
    stops.push(() => clock.stop());
    await realPause(300);
    // The test gave the player its own clock: the player does not hear it become known, so a
    // state (as any does) makes it look again.
    await screen.rerender(
      <Player
        state={inGroup({ ...state }, { group_id: 'syn_1', epoch_ms: epoch, wall: null })}
        store={new FlowStore()}
        bridge={bridge}
        clock={clock}
        waiting={<p>waiting</p>}
      />,
    );
    await realPause(100);
    expect(onScreen()).toBe('board:b');
  });
});

describe('player: a wall', () => {
  it("draws the item at the wall's size and shows this screen's region, the bezels' share hidden", async () => {
    const wall = { columns: 2, rows: 2, column: 1, row: 1, gap_x: 0.1, gap_y: 0.05 };
    const { width, height } = { width: window.innerWidth, height: window.innerHeight };
    const region0 = wallRegion(wall, { width, height });
    expect(region0.whole.width).toBeCloseTo(width * 2.1, 6);
    expect(region0.whole.height).toBeCloseTo(height * 2.05, 6);
    expect(region0.left).toBeCloseTo(-width * 1.1, 6);
    expect(region0.top).toBeCloseTo(-height * 1.05, 6);
    const clock = { now: () => Date.now() };
    const state = makeState([board('a', 60)], { boards });
    await play(inGroup(state, { group_id: 'syn_1', epoch_ms: Date.now(), wall }), clock);
    await realPause(100);
    const region = document.querySelector('[data-testid="wall-region"]') as HTMLElement;
    const box = region.getBoundingClientRect();
    expect(box.width).toBeCloseTo(width * 2.1, 0);
    expect(box.left).toBeCloseTo(-width * 1.1, 0);
    expect(box.top).toBeCloseTo(-height * 1.05, 0);
    // The board lays itself out for the whole wall: scaled for it, not for this screen.
    const fit = region.querySelector('.fit-screen') as HTMLElement;
    const scale = Number(fit.dataset.scale);
    expect(scale).toBeCloseTo(Math.min((width * 2.1) / 1920, (height * 2.05) / 1080), 3);
  });
});

describe('player: leaving a sync group', () => {
  it('plays the item on screen for its duration from then on, and the next after it', async () => {
    const clock = { now: () => Date.now() };
    const state = makeState([board('a', 2), board('b', 2)], { boards });
    const bridge = new FakeBridge(state);
    const element = (current: PlayerState) => (
      <Player
        state={current}
        store={new FlowStore()}
        bridge={bridge}
        clock={clock}
        waiting={<p>waiting</p>}
      />
    );
    // On the timeline, a's turn began 1.5 s ago: it would end in half a second.
    const epoch = Date.now() - 1500;
    const screen = await render(element(inGroup(state, { group_id: 'syn_1', epoch_ms: epoch, wall: null })));
    stops.push(() => screen.unmount());
    await realPause(50);
    expect(onScreen()).toBe('board:a');
    await screen.rerender(element({ ...state, settings: null }));
    await realPause(1000);
    expect(onScreen()).toBe('board:a');
    await realPause(1400);
    expect(onScreen()).toBe('board:b');
  });
});
