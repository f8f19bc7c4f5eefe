import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { board, makeBoard, makeState, renderPlayer, tick, useFakeClock } from './player-test-kit';
import { HIDDEN, viewportDisplay } from './screen-report';

const boards = { a: makeBoard('Board A'), b: makeBoard('Board B') };

/** Makes the page look hidden (or visible again) to the player, as a background tab would. */
function setHidden(hidden: boolean): void {
  Object.defineProperty(document, 'hidden', { configurable: true, get: () => hidden });
  document.dispatchEvent(new Event('visibilitychange'));
}

afterEach(() => {
  // Back to the document's own property.
  Reflect.deleteProperty(document, 'hidden');
  vi.useRealTimers();
});

describe('what the player reports of the screen', () => {
  beforeEach(() => useFakeClock());

  it('sends its own size in device pixels with every report', async () => {
    const { bridge } = await renderPlayer(makeState([board('a', 2), board('b', 2)], { boards }));
    await tick(2100);
    const display = {
      width: Math.round(innerWidth * devicePixelRatio),
      height: Math.round(innerHeight * devicePixelRatio),
    };
    expect(viewportDisplay()).toEqual(display);
    expect(display.width).toBeGreaterThan(0);
    expect(bridge.showingReports).toEqual([
      { showing: 'board:a', display },
      { showing: 'board:b', display },
    ]);
  });

  it('says "hidden" while the page is hidden, and what it shows once it is back', async () => {
    const { bridge } = await renderPlayer(makeState([board('a', 60)], { boards }));
    await tick(100);
    setHidden(true);
    setHidden(true);
    setHidden(false);
    expect(bridge.reports).toEqual(['board:a', HIDDEN, 'board:a']);
  });
});
