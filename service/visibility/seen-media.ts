import { growingLru } from '../lru';

/**
 * How long a screen's finding that it may read a medium is believed without asking again, at most.
 * The events that change what a screen plays forget every finding at once (`forget`); this bounds
 * what a change that reached no node's events could leave behind.
 */
export const SEEN_MEDIA_MS = 30_000;
/** Findings kept: a screen plays a few dozen media; a fleet of thousands fits. */
const ENTRIES = 100_000;

/**
 * The media that device-bound tokens were found to see (repositories/media.ts), remembered for the
 * ranges that follow: a screen playing a video reads it range by range, and finding out what its
 * device plays is seven reads of the store each time. Only a medium found visible is remembered;
 * one not found so is asked again every time, so a medium a screen was just given is never
 * refused from memory. The realtime hub forgets everything at each event that changes what a
 * screen plays (`device.changed`, `playlist.changed`, `board.changed`), heard by every node:
 * the same events that move the screens' sockets to their new rooms. The medium's row itself is
 * read every time, so a deleted or replaced file is seen at once.
 */
export class SeenMedia {
  /** Key: account, device and medium; value: until when (the clock's milliseconds). */
  private readonly until = growingLru<string, number>(ENTRIES);

  /** `clock`: the context's, so that a test moves time. */
  constructor(private readonly clock: { now(): Date }) {}

  has(account: string, device: string, medium: string): boolean {
    const key = keyOf(account, device, medium);
    const until = this.until.get(key);
    if (until === undefined) return false;
    if (until > this.clock.now().getTime()) return true;
    this.until.delete(key);
    return false;
  }

  remember(account: string, device: string, medium: string): void {
    this.until.set(keyOf(account, device, medium), this.clock.now().getTime() + SEEN_MEDIA_MS);
  }

  forget(): void {
    this.until.clear();
  }
}

// Ids and tags hold no NUL.
const keyOf = (account: string, device: string, medium: string) => `${account}\0${device}\0${medium}`;
