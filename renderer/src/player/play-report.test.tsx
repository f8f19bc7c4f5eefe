import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { board, image, makeBoard, makeState, pngDataUrl, renderPlayer, tick } from './player-test-kit';

const boards = { a: makeBoard('Board A', ['ch-a']), b: makeBoard('Board B', ['ch-b']) };
const START = Date.parse('2026-11-21T08:00:00.000Z');

beforeEach(() => {
  // The player's clocks, and the date the plays are stamped with.
  vi.useFakeTimers({
    toFake: ['setTimeout', 'clearTimeout', 'requestAnimationFrame', 'cancelAnimationFrame', 'Date'],
  });
  vi.setSystemTime(START);
});
afterEach(() => {
  vi.useRealTimers();
});

const at = (ms: number) => new Date(START + ms).toISOString();
const seconds = (play: { started_at: string; ended_at: string }) =>
  (Date.parse(play.ended_at) - Date.parse(play.started_at)) / 1000;

describe('proof of play', () => {
  it('reports each item as it leaves the screen: what, which channel, when, how long', async () => {
    const picture = 'https://cdn.example.com/menu.png';
    const { bridge } = await renderPlayer(
      makeState([board('a', 5, { channel_id: 'ch-other' }), board('b', 3), image(picture, 2)], {
        boards,
        media: { [picture]: pngDataUrl('teal') },
      }),
    );
    await tick(10_500);
    expect(
      bridge.plays.map(({ type, board_id, url, channel_id }) => ({ type, board_id, url, channel_id })),
    ).toEqual([
      { type: 'board', board_id: 'a', url: null, channel_id: 'ch-other' },
      { type: 'board', board_id: 'b', url: null, channel_id: 'ch-b' },
      { type: 'image', board_id: null, url: picture, channel_id: null },
    ]);
    expect(bridge.plays.map(seconds)).toEqual([5, 3, 2].map((s) => expect.closeTo(s, 0)));
    expect(bridge.plays[0]?.started_at).toBe(at(0));
    // Each turn ends where the next begins: nothing on screen goes unaccounted.
    expect(bridge.plays[1]?.started_at).toBe(bridge.plays[0]?.ended_at);
  });

  it('reports an item that stays on screen once per turn', async () => {
    const { bridge } = await renderPlayer(makeState([board('a', 5)], { boards }));
    await tick(15_500);
    expect(bridge.plays.map(seconds)).toEqual([5, 5, 5]);
    expect(bridge.plays.map((play) => play.started_at)).toEqual([at(0), at(5000), at(10_000)]);
  });

  it('goes on reporting turns of an item that stays after a new state redraws it', async () => {
    // The board on screen is edited (or its first state arrives after the page): the same
    // mounting goes on with a new view, and its turns must still be counted.
    const { bridge, show } = await renderPlayer(makeState([board('a', 5)], { boards }));
    await tick(2_000);
    await show(makeState([board('a', 4)], { boards: { a: makeBoard('Board A, edited', ['ch-a']) } }));
    await tick(11_500);
    // The turn under way keeps its length; the edited duration counts from the next.
    expect(bridge.plays.map(seconds)).toEqual([5, 4, 4]);
    expect(bridge.plays.map((play) => play.started_at)).toEqual([at(0), at(5000), at(9000)]);
  });

  it('reports what is on screen when the player goes, up to then', async () => {
    const { bridge, screen } = await renderPlayer(makeState([board('a', 60)], { boards }));
    await tick(12_000);
    expect(bridge.plays).toEqual([]);
    await screen.unmount();
    expect(bridge.plays).toEqual([
      expect.objectContaining({ board_id: 'a', started_at: at(0), ended_at: at(12_000) }),
    ]);
  });
});
