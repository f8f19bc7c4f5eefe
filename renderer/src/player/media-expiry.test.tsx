import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  board,
  image,
  makeBoard,
  makeState,
  onScreen,
  pngDataUrl,
  realPause,
  renderPlayer,
  tick,
  useFakeClock,
} from './player-test-kit';

// A library medium's expiry travels in its URL (`until`, seconds; docs/api/media.md): the screen
// stops playing it by its own clock, with or without the service. Date is not faked here.

const boards = { a: makeBoard('Board A'), b: makeBoard('Board B') };
const libraryUrl = (untilMs: number) =>
  `/media/med_poster/content?v=0123456789abcdef&until=${Math.floor(untilMs / 1000)}`;

beforeEach(() => useFakeClock());
afterEach(() => vi.useRealTimers());

describe('player: media that expire', () => {
  it('skips an expired medium, though cached, saying when it expired', async () => {
    const url = libraryUrl(Date.now() - 60_000);
    const { bridge } = await renderPlayer(
      makeState([board('a', 2), image(url, 2), board('b', 2)], {
        boards,
        media: { [url]: pngDataUrl('#123') },
      }),
    );
    await tick(100);
    expect(onScreen()).toBe('board:a');
    await tick(2100);
    expect(onScreen()).toBe('board:b');
    expect(bridge.logText()).toMatch(
      /skipped item 2 of the playlist: image \/media\/med_poster\/content\?v=.* expired at/,
    );
  });

  it('takes a single medium off the screen once it has expired, at the end of its turn', async () => {
    const url = libraryUrl(Date.now() + 1500);
    const { bridge } = await renderPlayer(
      makeState([image(url, 1)], { media: { [url]: pngDataUrl('#456') } }),
    );
    await vi.waitFor(async () => {
      await tick(50);
      expect(onScreen()).toBe(`image:${url}`);
    });
    // Real time passes beyond its expiry (the clock the player reads), then its turn ends.
    await realPause(2100);
    await tick(1100);
    expect(onScreen()).toBe('waiting');
    expect(bridge.reports.at(-1)).toBe('waiting');
  });
});
