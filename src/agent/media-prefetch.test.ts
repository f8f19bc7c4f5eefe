import { beforeEach, describe, expect, it } from 'vitest';
import type { PlayerState } from '../shared/bridge';
import { MediaPrefetch } from './media-prefetch';
import { emptyState } from './player-state';
import type { MediaStore } from './ports';
import { ScreenStatus } from './screen-status';
import { sampleBoard } from './testing/fake-service';
import { recordingLogger } from './testing/fakes';

const IMAGE = 'https://cdn.test/a.png';
const VIDEO = 'https://cdn.test/b.webm';
const BACKGROUND = 'https://cdn.test/bg.jpg';

const state: PlayerState = {
  ...emptyState({ tag: 'lobby', name: 'Lobby' }),
  playlist: {
    id: 'p1',
    name: 'p1',
    items: [
      { type: 'image', url: IMAGE, duration: 10, fit: 'fit' },
      { type: 'video', url: VIDEO, duration: null, muted: true },
      { type: 'board', board_id: 'b1', channel_id: null, duration: 10 },
    ],
    updated_at: '2026-11-21T07:00:00.000Z',
  },
  boards: { b1: { ...sampleBoard('One', 'cpu', 1), background_url: BACKGROUND } },
};

let cached: Set<string>;
let failing: Set<string>;
let fetched: string[];
let current: PlayerState;
let log: ReturnType<typeof recordingLogger>;
let screen: ScreenStatus;
let prefetch: MediaPrefetch;
const NOW = Date.parse('2026-11-21T08:00:00.000Z');

beforeEach(() => {
  cached = new Set();
  failing = new Set();
  fetched = [];
  current = state;
  log = recordingLogger();
  screen = new ScreenStatus({ now: () => NOW });
  const media: MediaStore = {
    load: async () => undefined,
    flush: async () => undefined,
    useService: () => undefined,
    usage: () => ({ bytes: 0, items: cached.size }),
    has: (url) => cached.has(url),
    nameOf: (url) => `${url.split('/').pop()}`,
    ensure: async (url) => {
      fetched.push(url);
      if (failing.has(url)) throw new Error('gone');
      cached.add(url);
      return url;
    },
  };
  prefetch = new MediaPrefetch(
    { media, log, mediaBaseUrl: '/media/', screen },
    { get: () => current, set: (next) => (current = next) },
  );
});

describe('media prefetch', () => {
  it('maps the cached files of a state to where the renderer loads them', () => {
    cached.add(IMAGE);
    cached.add(BACKGROUND);
    cached.add('https://cdn.test/unrelated.png');
    expect(prefetch.mediaMap(state)).toEqual({ [IMAGE]: '/media/a.png', [BACKGROUND]: '/media/bg.jpg' });
    expect(prefetch.localUrl(VIDEO)).toBeNull();
  });

  it('downloads what is missing, then gives the current state its new map', async () => {
    cached.add(IMAGE);
    failing.add(VIDEO);
    await prefetch.prefetch(state);
    expect(fetched).toEqual([VIDEO, BACKGROUND]);
    expect(current.media).toEqual({ [IMAGE]: '/media/a.png', [BACKGROUND]: '/media/bg.jpg' });
    expect(log.lines).toEqual([`warn cannot cache ${VIDEO}: gone`]);
  });

  it('reports a file that did not download until it does', async () => {
    failing.add(VIDEO);
    await prefetch.prefetch(state);
    expect(screen.snapshot().failures).toEqual([
      { item: `media:${VIDEO}`, reason: 'gone', at: '2026-11-21T08:00:00.000Z' },
    ]);
    failing.clear();
    await prefetch.prefetch(state);
    expect(screen.snapshot().failures).toEqual([]);
  });

  it('leaves the state alone when nothing new was cached, and stops when told', async () => {
    for (const url of [IMAGE, VIDEO, BACKGROUND]) cached.add(url);
    await prefetch.prefetch(state);
    expect(current).toBe(state);

    cached.clear();
    prefetch.stop();
    await prefetch.prefetch(state);
    expect(fetched).toEqual([]);
    expect(current).toBe(state);
  });

  it('downloads the media of every playlist the schedule can switch to, not only the one in force', async () => {
    const LATER = 'https://cdn.test/evening.png';
    const scheduled: PlayerState = {
      ...state,
      playlists: {
        p1: state.playlist!,
        p2: {
          id: 'p2',
          name: 'p2',
          items: [{ type: 'image', url: LATER, duration: 10, fit: 'fit' }],
          updated_at: '2026-11-21T07:00:00.000Z',
        },
      },
    };
    current = scheduled;
    await prefetch.prefetch(scheduled);
    expect(fetched).toEqual([IMAGE, VIDEO, LATER, BACKGROUND]);
    expect(current.media[LATER]).toBe('/media/evening.png');
  });
});
