import type { PlayerState } from '../shared/bridge';
import { mediaUrlsOf, type MediaSource } from './player-state';
import type { Logger, MediaStore } from './ports';
import type { ScreenStatus } from './screen-status';

export interface MediaPrefetchDeps {
  media: MediaStore;
  log: Logger;
  /** Where the renderer loads cached media from: `/media/` in the web player, a protocol URL in Electron. */
  mediaBaseUrl: string;
  /** Where a file that did not download is reported (`media:<url>`), until it does. */
  screen: Pick<ScreenStatus, 'recordFailure' | 'succeeded'>;
}

/** The part of the state store the prefetch updates once files are cached. */
interface StateHolder {
  get(): PlayerState;
  set(state: PlayerState): void;
}

/**
 * Downloads the files a state needs before they are due, and tells the renderer where each one
 * it can load is: the state's `media` map, from remote URL to the local cache.
 */
export class MediaPrefetch {
  private stopped = false;

  constructor(
    private readonly deps: MediaPrefetchDeps,
    private readonly state: StateHolder,
  ) {}

  /** The URL the renderer loads a cached file from, or null while it is not cached. */
  localUrl(url: string): string | null {
    const { media, mediaBaseUrl } = this.deps;
    return media.has(url) ? `${mediaBaseUrl}${media.nameOf(url)}` : null;
  }

  /** The media map of a state: each of its files that is cached, and where. */
  mediaMap(state: MediaSource): Record<string, string> {
    const map: Record<string, string> = {};
    for (const url of mediaUrlsOf(state)) {
      const local = this.localUrl(url);
      if (local) map[url] = local;
    }
    return map;
  }

  /** Downloads what `state` needs, one file at a time, then updates the current state's map. */
  async prefetch(state: PlayerState): Promise<void> {
    let fetched = 0;
    for (const url of mediaUrlsOf(state)) {
      if (this.stopped) return;
      if (this.deps.media.has(url)) continue;
      try {
        await this.deps.media.ensure(url);
        fetched += 1;
        this.deps.screen.succeeded(`media:${url}`);
      } catch (error) {
        const reason = (error as Error).message;
        this.deps.log.warn(`cannot cache ${url}: ${reason}`);
        this.deps.screen.recordFailure(`media:${url}`, reason);
      }
    }
    if (fetched === 0 || this.stopped) return;
    const current = this.state.get();
    this.state.set({ ...current, media: this.mediaMap(current) });
  }

  stop(): void {
    this.stopped = true;
  }
}
