import { beforeEach, describe, expect, it } from 'vitest';
import { MAX_FAILURES } from '../shared/device';
import { FAILURE_KEPT_MS, NO_RENDERER, ScreenStatus } from './screen-status';

const START = Date.parse('2026-11-21T08:00:00.000Z');
let now: number;
let screen: ScreenStatus;

beforeEach(() => {
  now = START;
  screen = new ScreenStatus({ now: () => now });
});

const items = () => screen.snapshot().failures.map((failure) => failure.item);

describe('what the screen shows', () => {
  it('is "no renderer" with no display until a renderer reports, and again once it is gone', () => {
    expect(screen.snapshot()).toEqual({ showing: NO_RENDERER, display: null, failures: [] });
    screen.reportShowing({ showing: 'board:b1', display: { width: 1920, height: 1080 } });
    expect(screen.snapshot()).toMatchObject({ showing: 'board:b1', display: { width: 1920, height: 1080 } });
    screen.reportShowing({ showing: NO_RENDERER });
    expect(screen.snapshot()).toMatchObject({ showing: NO_RENDERER, display: null });
  });
});

describe('failures', () => {
  it('are kept with their reason and time, newest first, one per item', () => {
    screen.recordFailure('media:https://cdn.test/a.png', 'HTTP 404');
    now += 1000;
    screen.recordFailure('board:b9', 'the service has no such board (deleted?)');
    now += 1000;
    screen.recordFailure('media:https://cdn.test/a.png', 'HTTP 500');
    expect(screen.snapshot().failures).toEqual([
      { item: 'media:https://cdn.test/a.png', reason: 'HTTP 500', at: '2026-11-21T08:00:02.000Z' },
      {
        item: 'board:b9',
        reason: 'the service has no such board (deleted?)',
        at: '2026-11-21T08:00:01.000Z',
      },
    ]);
  });

  it('go once the item shows: an image or video that shows was downloaded too', () => {
    screen.recordFailure('media:https://cdn.test/a.png', 'HTTP 404');
    screen.recordFailure('image:https://cdn.test/a.png', 'the image could not be decoded');
    screen.recordFailure('board:b1', 'its view failed');
    screen.recordFailure('media:https://cdn.test/b.webm', 'HTTP 404');
    screen.reportShowing({ showing: 'image:https://cdn.test/a.png' });
    expect(items()).toEqual(['media:https://cdn.test/b.webm', 'board:b1']);
    screen.reportShowing({ showing: 'board:b1' });
    screen.succeeded('media:https://cdn.test/b.webm');
    expect(items()).toEqual([]);
  });

  it('are bounded, the oldest dropped first, and forgotten an hour after they last happened', () => {
    for (let i = 0; i <= MAX_FAILURES; i++) {
      screen.recordFailure(`board:b${i}`, 'failed');
      now += 1000;
    }
    expect(items()).toHaveLength(MAX_FAILURES);
    expect(items()).not.toContain('board:b0');
    expect(items()[0]).toBe(`board:b${MAX_FAILURES}`);

    now = START + FAILURE_KEPT_MS + 1000 * MAX_FAILURES;
    expect(items()).toEqual([`board:b${MAX_FAILURES}`]);
    now += 1000;
    expect(items()).toEqual([]);
  });

  it('cut what is too long for a heartbeat', () => {
    screen.recordFailure(`image:https://cdn.test/${'a'.repeat(3000)}`, 'x'.repeat(2000));
    const [failure] = screen.snapshot().failures;
    expect(failure?.item).toHaveLength(2048);
    expect(failure?.reason).toHaveLength(1024);
  });
});
